import Testing
import RealModule
import RemotionProtocol
@testable import RemotionHostLogic

/// The axis convention (see `DSUAxes`), checked with physical motions both ways.
@Suite struct AxesTests {
    func close(_ a: Float, _ b: Float, _ tol: Float = 1e-5) -> Bool { abs(a - b) <= tol * Swift.max(1, abs(b)) }
    func close(_ a: Vector3, _ b: Vector3, _ tol: Float = 1e-5) -> Bool {
        close(a.x, b.x, tol) && close(a.y, b.y, tol) && close(a.z, b.z, tol)
    }

    /// The DSU server serves a controller's sticks and triggers: full right and up are 255,
    /// centred 128, and reading them back as a DSU source gives the same analog state.
    @Test func sticksAndTriggersRoundTripThroughAPadDataPacket() {
        var p = DSUPadData(info: DSUSlotInfo(slot: 0, state: .connected), packetCounter: 1)
        let a = AnalogState(leftX: 1, leftY: -1, rightX: 0, rightY: 0.5, leftTrigger: 0, rightTrigger: 1)
        DSUAxes.apply(a, to: &p)
        #expect(p.leftStickX == 255 && p.leftStickY == 255 && p.rightStickX == 128 && p.rightStickY == 64 && p.analog.r2 == 255)
        let back = DSUAxes.remotionAnalog(p)
        #expect(close(back.leftX, 1) && close(back.leftY, -1) && close(back.rightX, 0) && abs(back.rightY - 0.5) < 0.01)
        #expect(close(back.rightTrigger, 1) && close(back.leftTrigger, 0))
    }

    /// A DSU source's two touches (the DS4's pixels, 1920 × 942) as fractions of the pad; an
    /// inactive touch is no finger, and coordinates past the pad are its edge. Through the
    /// feed they reach the virtual pad's state, and its rest lifts them.
    @Test func touchesArriveAsFractionsOfThePad() throws {
        var p = DSUPadData(info: DSUSlotInfo(slot: 0, state: .connected), packetCounter: 1)
        p.touch1 = DSUTouch(isActive: true, id: 7, x: 1919, y: 0)
        p.touch2 = DSUTouch(isActive: true, id: 8, x: 60_000, y: 941)
        let t = DSUAxes.remotionTouch(p)
        #expect(t.first == TouchState.Finger(id: 7, x: 1, y: 0) && t.second == TouchState.Finger(id: 8, x: 1, y: 1))
        p.touch2 = .none
        #expect(DSUAxes.remotionTouch(p).second == nil)
        let sample = try #require(DSUSourceStateMachine.sample(from: p, table: .default))
        var feed = GamepadFeed(at: .zero)
        let state = feed.motion(sample)
        #expect(state.touch.first?.id == 7 && state.touch.second == nil)
        #expect(state.rest(at: .zero).touch == .none)
    }

    /// The DSU server sends a controller's touches back in the DS4's pixels: what a source
    /// sent comes out as it came in; values from outside stay on the pad.
    @Test func touchesGoOutAsThePadsPixels() {
        var p = DSUPadData(info: DSUSlotInfo(slot: 0, state: .connected), packetCounter: 1)
        DSUAxes.apply(TouchState(first: .init(id: 3, x: 0.5, y: 1), second: .init(id: 4, x: .nan, y: 7)), to: &p)
        #expect(p.touch1 == DSUTouch(isActive: true, id: 3, x: 960, y: 941))
        #expect(p.touch2 == DSUTouch(isActive: true, id: 4, x: 0, y: 941))
        var source = DSUPadData(info: DSUSlotInfo(slot: 0, state: .connected), packetCounter: 1)
        source.touch1 = DSUTouch(isActive: true, id: 9, x: 1234, y: 567)
        DSUAxes.apply(DSUAxes.remotionTouch(source), to: &p)
        #expect(p.touch1 == source.touch1 && p.touch2 == .none)
    }

    @Test func flatAtRestReadsOneGUp() {
        // DSU (Dolphin: "Accel Up" is −y): a flat pad at rest reads (0, −1, 0) g; Remotion
        // carries the specific force, +1 g up (as Android, W3C and the web page report it).
        #expect(DSUAxes.remotionAccel(DSUAccel(x: 0, y: -1, z: 0)) == Vector3(x: 0, y: 0, z: 1))
        #expect(DSUAxes.dsuAccel(DSUAxes.flatGravity) == DSUAccel(x: 0, y: -1, z: 0))
    }

    @Test func standingOnTheBottomEdge() {
        // Top edge up (pitch +90°): Remotion reads (0, +1, 0) (1 g towards the top edge). The
        // pad's far end now points up, so its toward-the-player axis (DSU z) points down: z = +1.
        #expect(DSUAxes.dsuAccel(Vector3(x: 0, y: 1, z: 0)) == DSUAccel(x: 0, y: 0, z: 1))
        #expect(close(DSUAxes.gravity(for: Attitude(roll: 0, pitch: .pi / 2, yaw: 0)), Vector3(x: 0, y: 1, z: 0)))
    }

    @Test func turningLeftIsNegativeDSUYaw() {
        // Turning left = counter-clockwise from above = Remotion gyro z > 0; DSU yaw is
        // positive turning right (Dolphin "Yaw Right"; yuzu z = −yaw).
        let left = Vector3(x: 0, y: 0, z: 1)
        let d = DSUAxes.dsuGyro(left)
        #expect(close(d.yaw, -57.29578) && d.pitch == 0 && d.roll == 0)
    }

    @Test func tiltingUpIsPositivePitchAndRightDownIsPositiveRoll() {
        let d = DSUAxes.dsuGyro(Vector3(x: 1, y: 2, z: 0))
        #expect(close(d.pitch, 57.29578) && close(d.roll, 114.59156) && d.yaw == 0)
        let r = DSUAxes.remotionGyro(DSUGyro(pitch: 90, yaw: 0, roll: -180))
        #expect(close(r, Vector3(x: .pi / 2, y: -.pi, z: 0)))
    }

    @Test func motionSampleRoundTripsThroughDSU() throws {
        var g = SplitMix64(seed: 21)
        for _ in 0..<500 {
            let gyro = Vector3(x: .random(in: -20...20, using: &g), y: .random(in: -20...20, using: &g), z: .random(in: -20...20, using: &g))
            let accel = Vector3(x: .random(in: -4...4, using: &g), y: .random(in: -4...4, using: &g), z: .random(in: -4...4, using: &g))
            let sample = MotionSample(timestampMicros: g.next() >> 8, gyro: gyro, acceleration: accel,
                                      buttons: ButtonSet(rawValue: UInt16(truncatingIfNeeded: g.next())))
            // Remotion → DSU (server side) → wire → DSU → Remotion (source side).
            var pad = DSUPadData(info: DSUSlotInfo(slot: 0, state: .connected), motionTimestampMicros: sample.timestampMicros,
                                 accel: DSUAxes.dsuAccel(accel), gyro: DSUAxes.dsuGyro(gyro))
            pad.buttons = DSUButtonTable.default.dsuButtons(for: sample.buttons)
            let wire = DSUCodec.encode(DSUPacket(senderID: 1, message: .padData(pad)))
            guard case .padData(let back) = try DSUCodec.decode(wire).message else { Issue.record("not pad data"); return }
            let out = try #require(DSUSourceStateMachine.sample(from: back, table: .default))
            #expect(out.timestampMicros == sample.timestampMicros)
            #expect(close(out.gyro!, gyro, 1e-5))
            #expect(out.acceleration == accel)      // exact: only sign flips
            // The default table leaves no Remotion button out, so buttons survive.
            #expect(out.buttons == sample.buttons)
        }
    }

    @Test func aPadsSticksAndTriggersBecomeAnalogState() {
        var pad = DSUPadData(info: DSUSlotInfo(slot: 0, state: .connected))
        #expect(pad.leftStickX == 128 && DSUAxes.remotionAnalog(pad) == AnalogState(), "a neutral pad (sticks 128) is centred")
        pad.leftStickX = 255; pad.leftStickY = 255      // full right, full up (DSU's y is up)
        pad.rightStickX = 128; pad.rightStickY = 0      // centred, full down
        pad.analog.l2 = 0; pad.analog.r2 = 255
        let a = DSUAxes.remotionAnalog(pad)
        #expect(a.leftX == 1 && a.leftY == -1, "up is −1 in Remotion's (HID's) y: \(a)")
        #expect(a.rightX == 0 && a.rightY == 1)
        #expect(a.leftTrigger == 0 && a.rightTrigger == 1)
        pad.leftStickX = 0
        #expect(DSUAxes.remotionAnalog(pad).leftX == -1, "0 is clamped to −1 (127 steps each way)")
        #expect(DSUSourceStateMachine.sample(from: pad, table: .default)?.analog == DSUAxes.remotionAnalog(pad),
                "a DSU source's samples carry them (the virtual pad reads them)")
    }

    @Test func dsuRoundTripsThroughRemotion() {
        let d = DSUGyro(pitch: 12.5, yaw: -300, roll: 0.25)
        let back = DSUAxes.dsuGyro(DSUAxes.remotionGyro(d))
        #expect(close(back.pitch, d.pitch) && close(back.yaw, d.yaw) && close(back.roll, d.roll))
        let a = DSUAccel(x: 0.1, y: -0.9, z: 0.3)
        #expect(DSUAxes.dsuAccel(DSUAxes.remotionAccel(a)) == a)
    }

    @Test func gravityFromAttitude() {
        #expect(close(DSUAxes.gravity(for: .zero), DSUAxes.flatGravity))
        // Roll +90° (right edge down): the reading points up, along −x. Yaw never matters.
        #expect(close(DSUAxes.gravity(for: Attitude(roll: .pi / 2, pitch: 0, yaw: 2)), Vector3(x: -1, y: 0, z: 0)))
        var g = SplitMix64(seed: 22)
        for _ in 0..<200 {
            let a = Attitude(roll: .random(in: -3...3, using: &g), pitch: .random(in: -1.5...1.5, using: &g), yaw: .random(in: -3...3, using: &g))
            let v = DSUAxes.gravity(for: a)
            #expect(close(v.x * v.x + v.y * v.y + v.z * v.z, 1, 1e-5))
        }
    }

    @Test func angularVelocityFromAttitudes() {
        let dt = 0.01
        // Single axes: exact.
        let yaw = DSUAxes.angularVelocity(from: Attitude(roll: 0, pitch: 0, yaw: 0.3),
                                          to: Attitude(roll: 0, pitch: 0, yaw: 0.32), seconds: dt)
        #expect(close(yaw, Vector3(x: 0, y: 0, z: 2), 1e-4))
        let pitch = DSUAxes.angularVelocity(from: .zero, to: Attitude(roll: 0, pitch: -0.005, yaw: 0), seconds: dt)
        #expect(close(pitch, Vector3(x: -0.5, y: 0, z: 0), 1e-4))
        // Across the ±π yaw seam: still +2 rad/s, not a huge negative jump.
        let seam = DSUAxes.angularVelocity(from: Attitude(roll: 0, pitch: 0, yaw: .pi - 0.01),
                                           to: Attitude(roll: 0, pitch: 0, yaw: -.pi + 0.01), seconds: dt)
        #expect(close(seam, Vector3(x: 0, y: 0, z: 2), 1e-3))
        // Tiny steps keep their precision (1 °/s at 100 Hz).
        let slow = DSUAxes.angularVelocity(from: .zero, to: Attitude(roll: 0, pitch: 0, yaw: 0.01745329 * dt), seconds: dt)
        #expect(close(slow.z, 0.01745329, 1e-4))
        // General case: build the next attitude from a known body rate (Rodrigues) and
        // recover that rate.
        let a0 = Attitude(roll: 0.2, pitch: 0.4, yaw: 1.0)
        let w = Vector3(x: 0.7, y: -1.1, z: 0.4)
        let r1 = Matrix3.rotation(a0) * Self.exp(w, dt)
        let a1 = Self.euler(r1)
        #expect(close(DSUAxes.angularVelocity(from: a0, to: a1, seconds: dt), w, 1e-4))
        #expect(DSUAxes.angularVelocity(from: .zero, to: .zero, seconds: dt) == .zero)
        #expect(DSUAxes.angularVelocity(from: .zero, to: a0, seconds: 0) == .zero)
    }

    /// Rodrigues: exp([w]× t).
    static func exp(_ w: Vector3, _ t: Double) -> Matrix3 {
        let (x, y, z) = (Double(w.x) * t, Double(w.y) * t, Double(w.z) * t)
        let th = (x * x + y * y + z * z).squareRoot()
        let (kx, ky, kz) = (x / th, y / th, z / th)
        let (s, c) = (Double.sin(th), Double.cos(th)), v = 1 - c
        return Matrix3(m: [c + kx * kx * v, kx * ky * v - kz * s, kx * kz * v + ky * s,
                           ky * kx * v + kz * s, c + ky * ky * v, ky * kz * v - kx * s,
                           kz * kx * v - ky * s, kz * ky * v + kx * s, c + kz * kz * v])
    }

    /// Inverse of R = Rz(yaw)·Rx(pitch)·Ry(roll) (pitch in (−π/2, π/2)).
    static func euler(_ r: Matrix3) -> Attitude {
        let pitch = Double.asin(r[2, 1])
        let roll = Double.atan2(y: -r[2, 0], x: r[2, 2])
        let yaw = Double.atan2(y: -r[0, 1], x: r[1, 1])
        return Attitude(roll: roll, pitch: pitch, yaw: yaw)
    }

    @Test func eulerHelperInvertsRotation() {
        let a = Attitude(roll: -0.3, pitch: 0.5, yaw: 2.5)
        let b = Self.euler(Matrix3.rotation(a))
        #expect(abs(a.roll - b.roll) < 1e-12 && abs(a.pitch - b.pitch) < 1e-12 && abs(a.yaw - b.yaw) < 1e-12)
    }
}
