import Testing
import RemotionProtocol
@testable import RemotionHostLogic

@Suite struct MotionMapperTests {
    func sample(_ micros: UInt64, roll: Double = 0, pitch: Double = 0, yaw: Double = 0) -> MotionSample {
        MotionSample(timestampMicros: micros, attitude: attitude(roll: roll, pitch: pitch, yaw: yaw))
    }

    @Test func pointerModeIsTheDefaultAndGivesAbsolutePositions() {
        var m = MotionMapper()
        #expect(m.settings.mode == .pointer)
        #expect(m.update(sample(0, yaw: 0.3), screen: fullHD).moveTo! == (960, 540))
        let out = m.update(sample(8_333, yaw: 0.3 - deg(10)), screen: fullHD)
        #expect(out == PointerOutput(moveTo: (1440, 540), moveBy: (480, 0)))
        #expect(out.events == [.moveTo(x: 1440, y: 540)])
        // No attitude, nothing to do in an absolute mode.
        #expect(m.update(MotionSample(timestampMicros: 16_666), screen: fullHD) == .none)
    }

    @Test func toggleSwitchesPointerAndFPS() {
        var m = MotionMapper()
        m.toggleMode()
        #expect(m.settings.mode == .fps)
        _ = m.update(sample(0), screen: fullHD)
        let out = m.update(MotionSample(timestampMicros: 100_000, gyro: Vector3(x: 0, y: 0, z: -1)), screen: fullHD)
        #expect(out.moveTo == nil)
        #expect(out.moveBy.dx > 0 && out.moveBy.dy == 0)
        #expect(out.events == [.moveBy(dx: out.moveBy.dx, dy: 0)])
        m.toggleMode()
        #expect(m.settings.mode == .pointer)
        m.settings.mode = .seed
        m.toggleMode()
        #expect(m.settings.mode == .pointer)
    }

    @Test func modeSwitchRestartsTheRelativeBaseline() {
        var m = MotionMapper()
        _ = m.update(sample(0), screen: fullHD)
        m.settings.mode = .fps
        _ = m.update(sample(8_333, yaw: 0.5), screen: fullHD)   // primes FPS: no motion
        m.settings.mode = .pointer
        // Back in pointer mode: the position jumps, but the first update reports no delta.
        let out = m.update(sample(16_666, yaw: 0.5), screen: fullHD)
        #expect(out.moveTo! == (2, 540))
        #expect(out.moveBy == (0, 0))
    }

    @Test func seedModeThroughTheMapper() throws {
        var m = MotionMapper()
        try m.settings.set("mode", to: "seed")
        #expect(m.update(sample(0), screen: fullHD).moveTo! == (960, 540))
        #expect(m.update(sample(8_333, roll: 0.16), screen: fullHD).moveBy == (2, 0))
    }

    @Test func recenterAppliesToTheActiveMode() {
        var m = MotionMapper()
        _ = m.update(sample(0), screen: fullHD)
        #expect(m.update(sample(8_333, yaw: 0.6), screen: fullHD).moveTo! == (2, 540))
        m.recenter()
        #expect(m.update(sample(16_666, yaw: 0.6), screen: fullHD).moveTo! == (960, 540))
    }

    @Test func filterIsAppliedToTheAttitudeBeforeMapping() throws {
        var m = MotionMapper()
        try m.settings.set("filter", to: "lowpass")
        try m.settings.set("filter.factor", to: "0.5")
        _ = m.update(sample(0), screen: fullHD)
        // Half of a 10° turn gets through the first filtered update.
        #expect(m.update(sample(8_333, yaw: -deg(10)), screen: fullHD).moveTo! == (1200, 540))
        try m.settings.set("filter", to: "none")
        #expect(m.update(sample(16_666, yaw: -deg(10)), screen: fullHD).moveTo! == (1440, 540))
    }

    @Test func sessionsAreIndependent() {
        var a = MotionMapper(), b = MotionMapper()
        _ = a.update(sample(0, yaw: 1), screen: fullHD)
        _ = b.update(sample(0, yaw: -1), screen: fullHD)
        #expect(a.update(sample(8_333, yaw: 1 - deg(10)), screen: fullHD).moveTo! == (1440, 540))
        #expect(b.update(sample(8_333, yaw: -1 + deg(10)), screen: fullHD).moveTo! == (480, 540))
        b.settings.sensitivity = 2
        #expect(a.settings.sensitivity == 1)
    }
}
