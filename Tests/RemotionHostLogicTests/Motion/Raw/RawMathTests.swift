import Foundation
import Testing
import RemotionProtocol
@testable import RemotionHostLogic

@Suite struct RawMathTests {
    /// Euler angles round-trip through CoreMotion's composition Rz·Rx·Ry.
    @Test func attitudeRoundTripsCoreMotionComposition() {
        var rng = SplitMix64(seed: 5)
        for _ in 0..<1000 {
            let roll = (rng.nextUnit() * 2 - 1) * 179, pitch = (rng.nextUnit() * 2 - 1) * 89
            let yaw = (rng.nextUnit() * 2 - 1) * 179
            let a = orientation(rollDeg: roll, pitchDeg: pitch, yawDeg: yaw).attitude
            #expect(abs(degrees(a.roll) - roll) < 1e-9 && abs(degrees(a.pitch) - pitch) < 1e-9
                    && abs(degrees(a.yaw) - yaw) < 1e-9)
        }
    }

    /// `Quaternion(attitude:)` is the inverse of `attitude` (RealModule's sin/cos and
    /// atan2/asin on both sides).
    @Test func quaternionFromAttitudeRoundTrips() {
        var rng = SplitMix64(seed: 6)
        for _ in 0..<1000 {
            let a = Attitude(roll: radians((rng.nextUnit() * 2 - 1) * 179), pitch: radians((rng.nextUnit() * 2 - 1) * 89),
                             yaw: radians((rng.nextUnit() * 2 - 1) * 179))
            let q = Quaternion(attitude: a)
            #expect(abs(q.norm - 1) < 1e-12)
            let back = q.attitude
            #expect(abs(back.roll - a.roll) < 1e-9 && abs(back.pitch - a.pitch) < 1e-9 && abs(back.yaw - a.yaw) < 1e-9)
            let reference = orientation(rollDeg: degrees(a.roll), pitchDeg: degrees(a.pitch), yawDeg: degrees(a.yaw))
            #expect(degrees((q.conjugate * reference).normalized.angle) < 1e-6)
        }
    }

    @Test func rotationConventions() {
        let q = orientation(yawDeg: 90)                  // turned left a quarter
        let forward = q.rotate(.unitY)                   // the top now points to world −x
        #expect((forward - Vec3(-1, 0, 0)).length < 1e-12)
        #expect((q.inverseRotate(forward) - .unitY).length < 1e-12)
        let tilted = orientation(pitchDeg: 90)           // top straight up
        #expect((tilted.rotate(.unitY) - .unitZ).length < 1e-12)
        #expect((tilted.up - tilted.inverseRotate(.unitZ)).length < 1e-12)
        #expect(abs(degrees(tilted.angle) - 90) < 1e-9)
    }

    @Test func shortestArcAndLevelling() {
        var rng = SplitMix64(seed: 8)
        for _ in 0..<200 {
            let v = Vec3(rng.nextUnit() * 2 - 1, rng.nextUnit() * 2 - 1, rng.nextUnit() * 2 - 1).normalized!
            let q = Quaternion(levelling: v)
            #expect((q.rotate(v) - .unitZ).length < 1e-12)
            #expect((q.up - v).length < 1e-12)
        }
        let flip = Quaternion(from: .unitZ, to: -.unitZ)
        #expect((flip.rotate(.unitZ) + .unitZ).length < 1e-12)
    }

    @Test func runningStatsMeanAndVariance() {
        var stats = RunningStats()
        for v in [2.0, 4, 4, 4, 5, 5, 7, 9] { stats.add(Vec3(v, -v, 1)) }
        #expect(stats.mean == Vec3(5, -5, 1))
        #expect(abs(stats.variance.x - 32.0 / 7) < 1e-12 && abs(stats.variance.y - 32.0 / 7) < 1e-12)
        #expect(stats.variance.z == 0)
        #expect(RunningStats().variance == .zero)
    }
}
