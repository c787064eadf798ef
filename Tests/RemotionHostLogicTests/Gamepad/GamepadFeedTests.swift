import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// A controller's stream as a pad's state: axes, units, buttons.
@Suite struct GamepadFeedTests {
    func close(_ a: Float, _ b: Float) -> Bool { abs(a - b) <= 1e-3 * max(1, abs(b)) }

    @Test func flatControllerAtRestReadsOneGUpOnThePad() {
        var feed = GamepadFeed(at: .zero)
        let s = feed.motion(MotionSample(timestampMicros: 1_000, gyro: Vector3(x: 0, y: 0, z: 0),
                                         acceleration: Vector3(x: 0, y: 0, z: 1)))
        #expect(s.motion.acceleration == Vector3(x: 0, y: 1, z: 0))
        #expect(s.motion.time == .milliseconds(1))
    }

    @Test func ratesAreDegreesPerSecondInThePadsFrame() {
        var feed = GamepadFeed(at: .zero)
        // Controller: pitch axis x, roll axis y, yaw axis z, rad/s.
        let s = feed.motion(MotionSample(timestampMicros: 0, gyro: Vector3(x: .pi / 2, y: .pi, z: -.pi / 4)))
        #expect(close(s.motion.angularRate.x, 90))     // pitch stays pitch
        #expect(close(s.motion.angularRate.y, -45))    // the controller's yaw is the pad's y
        #expect(close(s.motion.angularRate.z, -180))   // its roll axis points away: pad z = −y
    }

    /// The fingers are the latest sample's: a sample without a touchpad (the page left its
    /// Gamepad mode and its last frame with the block was lost) lifts them.
    @Test func aSampleWithoutATouchpadLiftsTheFingers() {
        var feed = GamepadFeed(at: .zero)
        let down = feed.motion(MotionSample(timestampMicros: 0, touch: TouchState(first: .init(id: 1, x: 0.5, y: 0.5))))
        #expect(down.touch.first?.id == 1)
        #expect(feed.motion(MotionSample(timestampMicros: 10)).touch == .none)
    }

    @Test func missingGyroIsNoRotationMissingAccelerationKeepsTheLast() {
        var feed = GamepadFeed(at: .zero)
        _ = feed.motion(MotionSample(timestampMicros: 0, gyro: Vector3(x: 1, y: 1, z: 1), acceleration: Vector3(x: 1, y: 0, z: 0)))
        let s = feed.motion(MotionSample(timestampMicros: 10))
        #expect(s.motion.angularRate == Vector3(x: 0, y: 0, z: 0))
        #expect(s.motion.acceleration == Vector3(x: 1, y: 0, z: 0))
    }

    @Test func buttonsFollowTheTable() {
        var feed = GamepadFeed(at: .zero)
        var s = feed.button(.a, isDown: true)
        #expect(s.buttons == [.cross])
        s = feed.button(.c, isDown: true)
        s = feed.button(.e, isDown: true)
        #expect(s.dpad == [.left, .up] && s.dpad.hat == 7)
        s = feed.button(.l, isDown: true)
        #expect(s.buttons == [.cross, .r2] && s.rightTrigger == 1 && s.leftTrigger == 0)
        for b in [Button.a, .c, .e, .l] { s = feed.button(b, isDown: false) }
        #expect(s.buttons.isEmpty && s.dpad.isEmpty && s.rightTrigger == 0)
    }

    @Test func everyLetterHasATargetAndNoTwoShareOne() {
        let table = GamepadButtonTable.standard
        #expect(Button.allCases.allSatisfy { table.target(of: $0) != nil })
        #expect(Set(table.targets.values).count == 16)
        #expect(GamepadButtons.named("cross") == .cross && GamepadButtons.named("nope") == nil)
    }

    @Test func feedingThenRestingGivesARestState() {
        var feed = GamepadFeed(at: .zero)
        _ = feed.button(.k, isDown: true)
        let s = feed.motion(MotionSample(timestampMicros: 5, gyro: Vector3(x: 1, y: 0, z: 0)))
        #expect(!s.isAtRest)
        #expect(s.rest(at: .milliseconds(9)).isAtRest)
    }

    @Test func accelerationTurnsWithTheFrame() {
        var feed = GamepadFeed(at: .zero)
        // Standing on its bottom edge (1 g toward the controller's top): the pad's far end is
        // up, so its toward-the-player axis points down: −1 g on z.
        let s = feed.motion(MotionSample(timestampMicros: 0, acceleration: Vector3(x: 0, y: 1, z: 0)))
        #expect(s.motion.acceleration == Vector3(x: 0, y: 0, z: -1))
        #expect(GamepadFeed.padFrame(Vector3(x: 1, y: 0, z: 0)) == Vector3(x: 1, y: 0, z: 0))
    }

    @Test func theFeedsSampleTimesDriveAnAdvancingSensorClock() {
        var feed = GamepadFeed(at: .zero)
        var encoder = DualSenseInputReport(bus: .bluetooth)
        var stamps: [UInt32] = []
        // 4 ms apart, then a repeated sample time: the clock still moves on.
        for micros: UInt64 in [10_000, 14_000, 14_000, 18_000] {
            let r = encoder.encode(feed.motion(MotionSample(timestampMicros: micros)))
            stamps.append((0..<4).reduce(0) { $0 | UInt32(r[29 + $1]) << (8 * UInt32($1)) })
        }
        // The clock counts each sample's step from the newest time before it: 4 ms after the
        // repeat is 12,000 ticks after its one-µs step (from the pad's start, past SDL's lightbar wait).
        #expect(stamps.map { $0 - DualSenseSensorClock.startTicks } == [0, 12_000, 12_003, 24_003])
    }

    @Test func aButtonReleasedTwiceOrNeverPressedChangesNothing() {
        var feed = GamepadFeed(at: .zero)
        var s = feed.button(.b, isDown: false)
        #expect(s.buttons.isEmpty)
        s = feed.button(.k, isDown: true)
        s = feed.button(.k, isDown: true)
        #expect(s.buttons == [.l2] && s.leftTrigger == 1)
        s = feed.button(.k, isDown: false)
        s = feed.button(.k, isDown: false)
        #expect(s.buttons.isEmpty && s.leftTrigger == 0)
    }

    @Test func ratesBeyondTheSensorsRangeAreClampedInTheReport() {
        var feed = GamepadFeed(at: .zero)
        var encoder = DualSenseInputReport(bus: .usb)
        // 100 rad/s ≈ 5730 °/s: beyond int16 at 20 per °/s.
        let r = encoder.encode(feed.motion(MotionSample(timestampMicros: 0, gyro: Vector3(x: 100, y: 0, z: -100))))
        #expect(Int16(bitPattern: UInt16(r[16]) | UInt16(r[17]) << 8) == 32767)
        // The pad's state is clamped symmetrically to what int16 says (±1638.35 °/s).
        #expect(Int16(bitPattern: UInt16(r[18]) | UInt16(r[19]) << 8) == -32767)
    }
}
