import Foundation
import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Body rate and gravity (device frame) for a turn at `rate` rad/s about the world
/// axis `axis` while the controller is held at orientation `q`.
private func turn(_ q: Quaternion, axis: Vec3, rate: Double) -> (gyro: Vec3, gravity: Vec3) {
    (q.inverseRotate(axis * rate), -q.up)
}

private let omega = radians(60)

@Suite struct GyroSpaceTests {
    @Test func flatControllerAllSpacesAgreeWithLocal() {
        let flat = Quaternion.identity
        for axis in [Vec3.unitZ, Vec3.unitX] {
            let (g, grav) = turn(flat, axis: axis, rate: omega)
            let local = GyroSpace.local.rates(gyro: g, gravity: grav)
            for space in [GyroSpace.player, .world] {
                let r = space.rates(gyro: g, gravity: grav)
                #expect(abs(r.yaw - local.yaw) < 1e-12 && abs(r.pitch - local.pitch) < 1e-12)
            }
        }
        let (g, _) = turn(flat, axis: .unitZ, rate: omega)
        #expect(GyroSpace.local.rates(gyro: g, gravity: nil) == (omega, 0))
    }

    /// The acceptance test: turning about gravity with the controller tilted 45° (its top
    /// raised — the way a pad is held) gives the flat-held output in player space; local
    /// space loses cos 45°.
    @Test func playerSpaceTurnIsIndependentOfTilt() {
        let flat = GyroSpace.player.rates(gyro: turn(.identity, axis: .unitZ, rate: omega).gyro,
                                            gravity: -Quaternion.identity.up)
        for pitch in [-45.0, -30, 30, 45] {
            let (g, grav) = turn(orientation(pitchDeg: pitch), axis: .unitZ, rate: omega)
            let player = GyroSpace.player.rates(gyro: g, gravity: grav)
            let local = GyroSpace.local.rates(gyro: g, gravity: grav)
            let ratio = player.yaw / flat.yaw
            print("player-space turn ratio, pitched \(pitch)°: \(ratio) (local \(local.yaw / flat.yaw))")
            #expect(abs(ratio - 1) < 0.05)
            #expect(abs(player.pitch) < 1e-12)
            #expect(abs(local.yaw / flat.yaw - cos(radians(pitch))) < 1e-9)
        }
    }

    /// Player space by design does not undo roll about the long axis: the yaw keeps
    /// min(1.41·cos²φ, cos φ) and the rest lands on pitch. World space undoes it.
    @Test func rollAboutTheLongAxisPlayerVersusWorld() {
        let phi = radians(45)
        let (g, grav) = turn(orientation(rollDeg: 45), axis: .unitZ, rate: omega)
        let player = GyroSpace.player.rates(gyro: g, gravity: grav)
        #expect(abs(player.yaw / omega - min(1.41 * cos(phi) * cos(phi), cos(phi))) < 1e-9)
        let world = GyroSpace.world.rates(gyro: g, gravity: grav)
        #expect(abs(world.yaw / omega - 1) < 1e-9)
        #expect(abs(world.pitch) < 1e-9)
    }

    /// World space: pitching about the horizontal axis (world x) while rolled 45° is
    /// pure pitch; yaw stays 0. A controller on its side gets no pitch (side reduction).
    @Test func worldSpacePitchAndSideReduction() {
        let (g, grav) = turn(orientation(rollDeg: 45), axis: .unitX, rate: omega)
        let r = GyroSpace.world.rates(gyro: g, gravity: grav)
        #expect(abs(r.pitch - omega) < 1e-9)
        #expect(abs(r.yaw) < 1e-9)

        let onSide = orientation(rollDeg: 90)
        let (g2, grav2) = turn(onSide, axis: .unitX, rate: omega)
        #expect(GyroSpace.world.rates(gyro: g2, gravity: grav2).pitch == 0)
        // Between the threshold and twice it the pitch fades in linearly.
        let nearSide = orientation(rollDeg: 90 - degrees(asin(0.1875)))   // flatness 0.1875
        let (g3, grav3) = turn(nearSide, axis: .unitX, rate: omega)
        #expect(abs(GyroSpace.world.rates(gyro: g3, gravity: grav3).pitch / omega - 0.5) < 1e-9)
        // World yaw is invariant under any tilt.
        for q in [orientation(rollDeg: 70, pitchDeg: -30), orientation(rollDeg: -120, pitchDeg: 50)] {
            let (g4, grav4) = turn(q, axis: .unitZ, rate: omega)
            #expect(abs(GyroSpace.world.rates(gyro: g4, gravity: grav4).yaw - omega) < 1e-9)
        }
    }

    @Test func axisMappingIsAProperRotation() {
        let a = Vec3(0.3, -1.2, 2.5), b = Vec3(-0.7, 0.4, 1.1)
        let ga = GyroSpace.toGMH(a), gb = GyroSpace.toGMH(b)
        #expect((GyroSpace.toGMH(a.cross(b)) - ga.cross(gb)).length < 1e-12)   // handedness kept
        #expect(GyroSpace.fromGMH(ga) == a)
        #expect(GyroSpace.toGMH(Vec3(0, 0, -1)) == Vec3(0, -1, 0))           // flat: GMH gravity (0, −1, 0)
    }
}
