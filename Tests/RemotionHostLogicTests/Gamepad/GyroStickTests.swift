import RemotionHostLogic
import RemotionProtocol
import Testing

/// Gyro as the right stick (JoyShockMapper's virtual stick): direction, scale, the
/// undeadzone and unpower, and the feed that applies it to each sample.
@Suite struct GyroStickTests {
    let stick = GyroStick()   // 360 °/s full, linear

    func close(_ a: Float, _ b: Float, _ tolerance: Float = 1e-5) -> Bool { abs(a - b) <= tolerance }

    @Test func turningRightPushesRightAndLiftingTheFarEdgePushesUp() {
        // Pad frame: y up out of the face; turning right is about −y. x right; the far edge
        // (−z) goes up about +x.
        let right = stick.stick(for: Vector3(x: 0, y: -90, z: 0))
        #expect(close(right.x, 0.25) && close(right.y, 0), "\(right)")
        let up = stick.stick(for: Vector3(x: 180, y: 0, z: 0))
        #expect(close(up.x, 0) && close(up.y, -0.5), "up is −1 as HID reads it: \(up)")
        #expect(stick.stick(for: Vector3(x: 0, y: 0, z: 500)) == .centre, "roll does not move the stick")
    }

    @Test func fullRateIsFullDeflectionAndFasterIsClampedAlongItsDirection() {
        let full = stick.stick(for: Vector3(x: 0, y: -360, z: 0))
        #expect(close(full.x, 1))
        let fast = stick.stick(for: Vector3(x: -720, y: -720, z: 0))   // down-right, twice too fast
        #expect(close((fast.x * fast.x + fast.y * fast.y).squareRoot(), 1), "clamped to the unit circle: \(fast)")
        #expect(close(fast.x, fast.y) && fast.x > 0, "along its direction: \(fast)")
        #expect(stick.stick(for: Vector3(x: .nan, y: 1, z: 0)) == .centre, "a non-finite rate centres it")
    }

    @Test func theUndeadzoneJumpsTheInnerAndStopsShortOfTheOuter() {
        let u = GyroStick(fullRate: 360, undeadzoneInner: 0.2, undeadzoneOuter: 0.1)
        let slow = u.stick(for: Vector3(x: 0, y: -0.36, z: 0))   // 0.1% of full
        #expect(slow.x > 0.2 && slow.x < 0.201, "the smallest turn starts past the game's deadzone: \(slow.x)")
        #expect(close(u.stick(for: Vector3(x: 0, y: -360, z: 0)).x, 0.9), "full stops at 1 − outer")
        #expect(close(u.stick(for: Vector3(x: 0, y: -180, z: 0)).x, 0.2 + 0.7 * 0.5), "linear in between")
        #expect(u.stick(for: Vector3(x: 0, y: 0, z: 0)) == .centre, "no turn is still centred")
    }

    @Test func unpowerUndoesTheGamesCurve() {
        let u = GyroStick(unpower: 2)   // the game squares the stick: give it the square root
        let quarter = u.stick(for: Vector3(x: 0, y: -90, z: 0))
        #expect(close(quarter.x, 0.5), "\(quarter.x)")
        #expect(close(quarter.x * quarter.x, 0.25), "so the game's camera turns a quarter of full speed")
    }

    @Test func theFeedPutsTheGyroOnTheRightStickOnlyWhenAsked() {
        let sample = MotionSample(timestampMicros: 1_000, gyro: Vector3(x: 0, y: 0, z: -.pi / 2))
        var plain = GamepadFeed(at: .zero)
        #expect(plain.motion(sample).rightStick == .centre)
        var feed = GamepadFeed(gyroStick: GyroStick(), at: .zero)
        let state = feed.motion(sample)
        // The controller's z (out of its screen) is the pad's y (up): −90 °/s about it is
        // turning right, a quarter of full deflection to the right.
        #expect(close(state.motion.angularRate.y, -90, 1e-3))
        #expect(close(state.rightStick.x, 0.25, 1e-5) && close(state.rightStick.y, 0), "\(state.rightStick)")
        #expect(state.leftStick == .centre)
    }
}

/// A controller's own sticks and triggers (the motion packet's analog field) on the pad.
@Suite struct GamepadFeedAnalogTests {
    @Test func sticksAndTriggersArriveAndTheGyroAddsToTheRightStick() {
        var feed = GamepadFeed(gyroStick: GyroStick(), at: .zero)
        let analog = AnalogState(leftX: 1, leftY: -0.5, rightX: 0.5, rightY: 0, leftTrigger: 0.25, rightTrigger: 0)
        // Device z −90 °/s is the pad's yaw turning right: +0.25 on the right stick.
        let s = feed.motion(MotionSample(timestampMicros: 1, gyro: Vector3(x: 0, y: 0, z: -.pi / 2), analog: analog))
        #expect(s.leftStick == GamepadState.Stick(x: 1, y: -0.5))
        #expect(abs(s.rightStick.x - 0.75) < 1e-5, "the controller's 0.5 plus the gyro's 0.25: \(s.rightStick.x)")
        #expect(s.leftTrigger == 0.25 && s.buttons.contains(.l2), "a trigger down at all sets its bit")
        #expect(s.rightTrigger == 0 && !s.buttons.contains(.r2))
        // The next sample without analog keeps the last state; one with the trigger up clears its bit.
        let kept = feed.motion(MotionSample(timestampMicros: 2))
        #expect(kept.leftStick.x == 1 && kept.leftTrigger == 0.25)
        let released = feed.motion(MotionSample(timestampMicros: 3, analog: AnalogState()))
        #expect(released.leftTrigger == 0 && !released.buttons.contains(.l2) && released.leftStick == .centre)
    }

    @Test func aButtonOnATriggerAndTheAnalogTriggerTakeTheLarger() {
        var feed = GamepadFeed(at: .zero)
        _ = feed.motion(MotionSample(timestampMicros: 1, analog: AnalogState(rightTrigger: 0.3)))
        let pressed = feed.button(.l, isDown: true)   // L is R2 in the standard table
        #expect(pressed.rightTrigger == 1 && pressed.buttons.contains(.r2))
        let let_go = feed.button(.l, isDown: false)
        #expect(abs(let_go.rightTrigger - 0.3) < 1e-6 && let_go.buttons.contains(.r2), "back to the analog value")
        let over = feed.motion(MotionSample(timestampMicros: 2, analog: AnalogState(leftX: 3, rightTrigger: .nan)))
        #expect(over.leftStick.x == 1 && over.rightTrigger == 0, "out of range clamped, not finite is 0")
    }
}

/// Gyro as a stick as a mapping setting (`gyro_stick.*`): its keys, what they
/// make, and a bad value refused with one line that names the key and what is allowed.
@Suite struct GyroStickSettingsTests {
    @Test func theKeysMakeTheStickAndOffMakesNone() throws {
        var s = MappingSettings()
        #expect(s.gyroStick.stick == nil, "off by default")
        try s.set("gyro_stick.target", to: "Left")
        try s.set("gyro_stick.rate", to: "540")
        try s.set("gyro_stick.undeadzone_inner", to: "0.2")
        try s.set("gyro_stick.undeadzone_outer", to: "0.1")
        try s.set("gyro_stick.unpower", to: "2")
        #expect(s.gyroStick.stick == GyroStick(fullRate: 540, undeadzoneInner: 0.2, undeadzoneOuter: 0.1, unpower: 2, side: .left))
        #expect(s.value(of: "gyro_stick.target") == "left" && s.value(of: "gyro_stick.rate") == "540.0")
        try s.set("gyro_stick.target", to: "off")
        #expect(s.gyroStick.stick == nil)
        for key in ["gyro_stick.target", "gyro_stick.rate", "gyro_stick.undeadzone_inner", "gyro_stick.undeadzone_outer",
                    "gyro_stick.unpower"] {
            #expect(MappingSettings.keys.contains(key), "\(key)")
        }
    }

    @Test(arguments: [
        ("gyro_stick.target", "middle", "gyro_stick.target: \"middle\" is not allowed; use one of: off, right, left"),
        ("gyro_stick.rate", "0", "gyro_stick.rate: 0 is out of range; expected a number ≥ 1 and ≤ 10000 (degrees per second)"),
        ("gyro_stick.rate", "fast", "gyro_stick.rate: \"fast\" is not a number; expected a number ≥ 1 and ≤ 10000 (degrees per second)"),
        ("gyro_stick.undeadzone_inner", "1", "gyro_stick.undeadzone_inner: 1 is out of range; expected a number ≥ 0 and ≤ 0.99"),
        ("gyro_stick.undeadzone_outer", "-0.1", "gyro_stick.undeadzone_outer: -0.1 is out of range; expected a number ≥ 0 and ≤ 0.99"),
        ("gyro_stick.unpower", "11", "gyro_stick.unpower: 11 is out of range; expected a number ≥ 0 and ≤ 10"),
    ])
    func aBadValueIsRefusedWithOneLine(key: String, value: String, message: String) {
        var s = MappingSettings()
        let error = #expect(throws: MappingSettingError.self) { try s.set(key, to: value) }
        #expect(error?.message == message)
        #expect(error?.message.contains("\n") == false)
        #expect(s == MappingSettings(), "unchanged")
    }

    @Test func theUndeadzonesTogetherStayBelowOne() throws {
        var s = MappingSettings()
        try s.set("gyro_stick.undeadzone_inner", to: "0.6")
        let error = #expect(throws: MappingSettingError.self) { try s.set("gyro_stick.undeadzone_outer", to: "0.4") }
        #expect(error?.message == "gyro_stick.undeadzone_outer: 0.4 is too large with gyro_stick.undeadzone_inner = 0.6; the two together must be less than 1")
        #expect(s.gyroStick.undeadzoneOuter == 0)
        try s.set("gyro_stick.undeadzone_outer", to: "0.39")
        #expect(s.gyroStick.undeadzoneOuter == 0.39)
    }

    /// The feed's gyro stick switched at once (a new profile): off gives back the controller's
    /// own stick from the last sample on, not from the next only.
    @Test func theFeedsGyroStickSwitchesAtOnce() {
        var feed = GamepadFeed(gyroStick: GyroStick(), at: .zero)
        let sample = MotionSample(timestampMicros: 1_000, gyro: Vector3(x: 0, y: 0, z: -.pi / 2), analog: AnalogState(rightX: 0.5))
        #expect(abs(feed.motion(sample).rightStick.x - 0.75) < 1e-5)
        feed.gyroStick = nil
        #expect(feed.state.rightStick.x == 0.5, "the controller's own")
        feed.gyroStick = GyroStick(side: .left)
        #expect(abs(feed.state.leftStick.x - 0.25) < 1e-5 && feed.state.rightStick.x == 0.5,
                "the last sample's rate on the left stick now: \(feed.state.leftStick)")
    }
}
