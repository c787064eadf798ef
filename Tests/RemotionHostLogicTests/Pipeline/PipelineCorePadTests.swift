import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The virtual pad's side of the pipeline: each session's pad state is
/// decided in the core and routed to the pad output; a session's end always shows its pad
/// at rest before it goes, and a profile's pad targets send buttons to the pad only.
@Suite struct PipelineCorePadTests {
    typealias Rig = PipelineCoreTests.Rig
    static let one = SessionID(1)

    static func states(_ out: [PipelineOutput]) -> [GamepadState] {
        out.compactMap { if case let .pad(s) = $0 { s } else { nil } }
    }

    @Test func aSessionOpensItsPadAndItsMotionAndButtonsFeedIt() throws {
        var rig = Rig(pads: VirtualPadSettings())
        let r1 = rig.open(Self.one, identity: "name:phone")
        #expect(r1 == [.padOpened(identity: "name:phone")])
        let moved = rig.motion(Self.one, MotionSample(timestampMicros: 4_000, gyro: Vector3(x: 0, y: 0, z: .pi)))
        let state = try #require(Self.states(moved).first)
        #expect(abs(state.motion.angularRate.y - 180) < 0.01, "yaw 180 °/s on the pad's y")
        let pressed = rig.button(Self.one, .a, true)
        #expect(pressed.first == .input(.button(.left, down: true)), "the standard table: A still clicks too")
        #expect(Self.states(pressed).map(\.buttons) == [[.cross]])
        #expect(pressed.map(\.kind) == [.input, .pad])
    }

    /// The zero-stuck rule on the pad: a controller that vanishes holding Cross, R2 and a
    /// stick leaves a pad at rest (the injector releases its inputs too), then the pad goes.
    @Test func aVanishedControllersPadIsAtRestBeforeItGoes() throws {
        var rig = Rig(Self.gyroStick(.right), pads: VirtualPadSettings())
        _ = rig.open(Self.one)
        _ = rig.button(Self.one, .a, true)
        _ = rig.button(Self.one, .l, true)
        var sample = MotionSample(timestampMicros: 8_000, gyro: Vector3(x: 0, y: 0, z: 2))
        sample.analog = AnalogState(leftX: 1, leftY: -0.5, rightX: 0, rightY: 0, leftTrigger: 0, rightTrigger: 0.5)
        let moved = rig.motion(Self.one, sample)
        let held = try #require(Self.states(moved).last)
        #expect(!held.isAtRest && held.buttons.contains(.cross) && held.rightTrigger == 1)
        let closed = rig.close(Self.one, .timedOut)
        #expect(closed.first == .releaseHeld)
        guard case let .padClosed(rest)? = closed.last, closed.count == 2 else {
            Issue.record("expected release then the pad at rest, got \(closed)"); return
        }
        #expect(rest.isAtRest && rest.motion.acceleration == held.motion.acceleration)
        #expect(rig.core.sessions.isEmpty)
        let r2 = rig.button(Self.one, .a, false)
        #expect(r2.isEmpty, "nothing reaches a closed session's pad")
    }

    @Test func padTargetsPressThePadAndNotTheInjector() throws {
        var profile = MappingProfile()
        profile.buttons[.a] = .pad(.button(.cross))
        profile.buttons[.b] = .pad(.button(.r2))
        profile.buttons[.c] = .pad(.dpad(.up))
        var rig = Rig(profile, pads: VirtualPadSettings())
        _ = rig.open(Self.one)
        let cross = rig.button(Self.one, .a, true)
        #expect(cross.map(\.kind) == [.pad] && Self.states(cross).first?.buttons == [.cross])
        let pressedR2 = rig.button(Self.one, .b, true)
        let r2 = try #require(Self.states(pressedR2).first)
        #expect(r2.rightTrigger == 1 && r2.buttons == [.cross, .r2])
        let up = rig.button(Self.one, .c, true)
        #expect(Self.states(up).first?.dpad == [.up])
        // A button the profile names no pad target for reaches the injector only: D is the Right key.
        let d = rig.button(Self.one, .d, true)
        #expect(d == [.input(.key(.right, down: true)), .pad(Self.states(d).first!)])
        #expect(Self.states(d).first?.dpad == [.up], "D is not on this profile's pad")
    }

    /// A profile whose gyro deflects the pad's `target` stick (360 °/s full, the defaults).
    static func gyroStick(_ target: GyroStickSettings.Target) -> MappingProfile {
        var profile = MappingProfile()
        profile.settings.gyroStick.target = target
        return profile
    }

    /// Turning right at 90 °/s (device z −90 °/s is the pad's yaw to the right: a quarter of
    /// full) with the controller's own right stick at x 0.5 and left stick at y −0.5.
    static func turningRight(_ micros: UInt64) -> MotionSample {
        MotionSample(timestampMicros: micros, gyro: Vector3(x: 0, y: 0, z: -.pi / 2),
                     analog: AnalogState(leftX: 0, leftY: -0.5, rightX: 0.5, rightY: 0))
    }

    static func close(_ a: GamepadState.Stick, _ x: Float, _ y: Float) -> Bool {
        abs(a.x - x) < 1e-4 && abs(a.y - y) < 1e-4
    }

    /// Gyro as a stick is a mapping setting. `gyro_stick.target = right` adds
    /// the gyro's deflection to the controller's own right stick; the left stick is its own.
    @Test func aProfilesGyroStickDeflectsThePadsRightStick() throws {
        var rig = Rig(Self.gyroStick(.right), pads: VirtualPadSettings())
        _ = rig.open(Self.one)
        let state = try #require(Self.states(rig.motion(Self.one, Self.turningRight(4_000))).first)
        #expect(Self.close(state.rightStick, 0.75, 0), "the controller's 0.5 plus the gyro's 0.25: \(state.rightStick)")
        #expect(Self.close(state.leftStick, 0, -0.5), "the left stick is the controller's: \(state.leftStick)")
    }

    /// A session's profile switched live (`setProfile`, as a profile pushed to it) turns the gyro
    /// stick off at once: the next sample's right stick is the controller's own again; and the
    /// host's settings changed from the dashboard (`update(settings:)`) switch the sessions
    /// that follow them the same way.
    @Test func switchingTheProfileLiveToOffGivesBackTheControllersOwnStick() throws {
        var rig = Rig(Self.gyroStick(.right), pads: VirtualPadSettings())
        _ = rig.open(Self.one)
        let on = try #require(Self.states(rig.motion(Self.one, Self.turningRight(4_000))).first)
        #expect(Self.close(on.rightStick, 0.75, 0))
        let switched = rig.core.setProfile(Self.one, Self.gyroStick(.off))
        #expect(switched)
        let off = try #require(Self.states(rig.motion(Self.one, Self.turningRight(8_000))).first)
        #expect(Self.close(off.rightStick, 0.5, 0), "the controller's own stick only: \(off.rightStick)")
        #expect(rig.core.profile(of: Self.one)?.settings.gyroStick.target == .off)
        // Back to the host's profile (gyro on the right stick), then the dashboard sets the key.
        let toHost = rig.core.setProfile(Self.one, nil)
        #expect(toHost)
        let back = try #require(Self.states(rig.motion(Self.one, Self.turningRight(12_000))).first)
        #expect(Self.close(back.rightStick, 0.75, 0))
        var settings = rig.core.profile.settings
        try settings.set("gyro_stick.target", to: "off")
        rig.core.update(settings: settings)
        let dashboardOff = try #require(Self.states(rig.motion(Self.one, Self.turningRight(16_000))).first)
        #expect(Self.close(dashboardOff.rightStick, 0.5, 0), "\(dashboardOff.rightStick)")
        // A mode change keeps it (the gyro stick is the same in every mode).
        try settings.set("gyro_stick.target", to: "right")
        rig.core.update(settings: settings)
        let mode = rig.core.setMode(Self.one, .fps)
        #expect(mode == .fps)
        let fps = try #require(Self.states(rig.motion(Self.one, Self.turningRight(20_000))).first)
        #expect(Self.close(fps.rightStick, 0.75, 0), "\(fps.rightStick)")
    }

    /// `gyro_stick.target = left` deflects the left stick (the right stick is the controller's);
    /// switched live from right to left, the gyro moves across at once.
    @Test func leftDeflectsThePadsLeftStick() throws {
        var rig = Rig(Self.gyroStick(.left), pads: VirtualPadSettings())
        _ = rig.open(Self.one)
        let left = try #require(Self.states(rig.motion(Self.one, Self.turningRight(4_000))).first)
        #expect(Self.close(left.leftStick, 0.25, -0.5), "the gyro's 0.25 right plus the controller's −0.5 up: \(left.leftStick)")
        #expect(Self.close(left.rightStick, 0.5, 0), "\(left.rightStick)")
        var rate = Self.gyroStick(.right)
        try rate.settings.set("gyro_stick.rate", to: "180")   // a quarter turn rate is now half of full
        let switched = rig.core.setProfile(Self.one, rate)
        #expect(switched)
        let right = try #require(Self.states(rig.motion(Self.one, Self.turningRight(8_000))).first)
        #expect(Self.close(right.leftStick, 0, -0.5) && Self.close(right.rightStick, 1, 0),
                "0.5 + 0.5 on the right, clamped at 1: \(right.leftStick) \(right.rightStick)")
    }

    /// Stick targets: a held `pad.left-stick-up` pushes the left stick fully up,
    /// added to the controller's own and clamped; opposite directions cancel; let go, the
    /// stick is the controller's again (centred when it sends none). Only the pad sees them.
    @Test func stickTargetsDeflectAndReleaseToCentre() throws {
        var profile = MappingProfile()
        profile.buttons[.e] = .pad(.stick(GamepadStickPush(.left, .up)))
        profile.buttons[.f] = .pad(.stick(GamepadStickPush(.left, .down)))
        profile.buttons[.d] = .pad(.stick(GamepadStickPush(.right, .right)))
        var rig = Rig(profile, pads: VirtualPadSettings())
        _ = rig.open(Self.one)
        let up = rig.button(Self.one, .e, true)
        #expect(up.map(\.kind) == [.pad], "the pad only, nothing for the injector")
        #expect(Self.states(up).first?.leftStick == GamepadState.Stick(x: 0, y: -1), "up is −1 as HID reads it")
        let both = rig.button(Self.one, .f, true)
        #expect(Self.states(both).first?.leftStick == .centre, "up and down held cancel")
        _ = rig.button(Self.one, .f, false)
        // With the controller's own sticks: added and clamped.
        let moved = rig.motion(Self.one, MotionSample(timestampMicros: 4_000,
                                                      analog: AnalogState(leftX: 0.5, leftY: -0.5, rightX: 0.25)))
        let added = try #require(Self.states(moved).first)
        #expect(added.leftStick == GamepadState.Stick(x: 0.5, y: -1), "−0.5 − 1 clamped to −1: \(added.leftStick)")
        let right = try #require(Self.states(rig.button(Self.one, .d, true)).first)
        #expect(right.rightStick == GamepadState.Stick(x: 1, y: 0), "0.25 + 1 clamped: \(right.rightStick)")
        _ = rig.button(Self.one, .d, false)
        let released = try #require(Self.states(rig.button(Self.one, .e, false)).first)
        #expect(released.leftStick == GamepadState.Stick(x: 0.5, y: -0.5) && released.rightStick == GamepadState.Stick(x: 0.25, y: 0),
                "back to the controller's own: \(released.leftStick) \(released.rightStick)")
        let centred = try #require(Self.states(rig.motion(Self.one, MotionSample(timestampMicros: 8_000, analog: AnalogState()))).first)
        #expect(centred.leftStick == .centre && centred.rightStick == .centre)
    }

    /// The zero-stuck rule for stick targets: a controller that leaves holding one leaves its
    /// pad at rest, the stick centred.
    @Test func aHeldStickTargetIsCentredWhenTheSessionCloses() throws {
        var profile = Self.gyroStick(.right)
        profile.buttons[.c] = .pad(.stick(GamepadStickPush(.right, .left)))
        var rig = Rig(profile, pads: VirtualPadSettings())
        _ = rig.open(Self.one)
        let held = try #require(Self.states(rig.button(Self.one, .c, true)).first)
        #expect(held.rightStick == GamepadState.Stick(x: -1, y: 0))
        let closed = rig.close(Self.one, .clientDisconnected(.user))
        guard case let .padClosed(rest)? = closed.last else {
            Issue.record("expected the pad at rest, got \(closed)"); return
        }
        #expect(rest.isAtRest && rest.rightStick == .centre && rest.leftStick == .centre)
    }

    @Test func aNewProfileChangesThePadAtOnce() throws {
        var rig = Rig(pads: VirtualPadSettings())
        _ = rig.open(Self.one)
        var profile = MappingProfile()
        profile.buttons[.a] = .pad(.button(.triangle))
        let r3 = rig.core.setProfile(Self.one, profile)
        #expect(r3)
        let triangle = rig.button(Self.one, .a, true)
        #expect(Self.states(triangle).first?.buttons == [.triangle])
        let r4 = rig.core.setProfile(Self.one, nil)
        #expect(r4)
        let released = rig.button(Self.one, .a, false)
        #expect(Self.states(released).first?.buttons == [])
    }

    /// `[gamepad] for = "asked"`: no pad at connect; the page or the dashboard gives one
    /// (with the session's identity) and takes it away (rest, then gone); a held button
    /// follows into the new pad's table; a host without pads answers nil.
    @Test func aPadIsGivenAndTakenAwayWhileConnected() throws {
        var rig = Rig(pads: VirtualPadSettings(forEvery: false))
        #expect(rig.open(Self.one, identity: "name:phone").isEmpty, "asked: no pad at connect")
        _ = rig.button(Self.one, .a, true)
        var out: [PipelineOutput] = []
        #expect(rig.core.setPad(Self.one, on: true, now: .zero, into: &out) == true)
        #expect(out == [.padOpened(identity: "name:phone")])
        let moved = rig.motion(Self.one, MotionSample(timestampMicros: 4_000, gyro: .zero))
        #expect(Self.states(moved).count == 1, "the new pad is fed")
        out.removeAll()
        #expect(rig.core.setPad(Self.one, on: true, now: .zero, into: &out) == true && out.isEmpty, "twice: nothing")
        _ = rig.button(Self.one, .b, true)
        #expect(rig.core.setPad(Self.one, on: false, now: .zero, into: &out) == false)
        guard case let .padClosed(rest)? = out.last else { Issue.record("no rest before the pad goes"); return }
        #expect(rest.isAtRest)
        #expect(rig.core.hasPad(Self.one) == false && rig.core.hasPad(SessionID(9)) == nil)
        var none = Rig()
        _ = none.open(Self.one)
        #expect(none.core.setPad(Self.one, on: true, now: .zero, into: &out) == nil, "no --gamepad: no pads")
    }

    /// The page chooses its own gyro stick (like its mode): it deflects that stick at the next
    /// sample, survives a change of the host's settings, and a new profile for the session
    /// clears it.
    @Test func aControllersOwnGyroStickOutlivesTheHostsSettings() throws {
        var rig = Rig(pads: VirtualPadSettings())
        _ = rig.open(Self.one)
        let turning = MotionSample(timestampMicros: 4_000, gyro: Vector3(x: 0, y: 0, z: .pi))   // 180 °/s yaw
        #expect(try #require(Self.states(rig.motion(Self.one, turning)).last).rightStick == .centre, "off by default")
        #expect(rig.core.setGyroStick(Self.one, .right) == .right)
        #expect(abs(try #require(Self.states(rig.motion(Self.one, turning)).last).rightStick.x) > 0.4, "180 °/s of 360: half")
        var hostSettings = rig.core.profile.settings
        hostSettings.sensitivity = 2
        rig.core.update(settings: hostSettings)
        #expect(rig.core.setGyroStick(Self.one, nil) == .right, "kept across the host's change")
        _ = rig.core.setProfile(Self.one, MappingProfile())
        #expect(rig.core.setGyroStick(Self.one, nil) == .off, "a new profile clears it")
        #expect(rig.core.setGyroStick(SessionID(9), .left) == nil)
    }

    /// A fast user switch suspends every output, pads too: each pad shows rest at once and
    /// reports nothing while the desktop session is inactive; on resume the next sample
    /// reports what the controller really holds.
    @Test func aSuspendedSessionSilencesThePadsToo() throws {
        var rig = Rig(pads: VirtualPadSettings())
        _ = rig.open(Self.one)
        _ = rig.open(SessionID(2))
        _ = rig.button(Self.one, .a, true)
        let rests = rig.core.setSuspended(true)
        #expect(rests.map(\.0) == [Self.one, SessionID(2)])
        #expect(rests.allSatisfy { $0.1.isAtRest })
        #expect(rig.core.setSuspended(true).isEmpty, "said once")
        let moved = rig.motion(Self.one, MotionSample(timestampMicros: 4_000, gyro: Vector3(x: 0, y: 0, z: 1)))
        let pressed = rig.button(SessionID(2), .b, true)
        #expect(Self.states(moved + pressed).isEmpty, "no pad report while suspended")
        #expect(rig.core.setSuspended(false).isEmpty)
        let resumed = try #require(Self.states(rig.motion(Self.one, MotionSample(timestampMicros: 8_000))).first)
        #expect(resumed.buttons.contains(.cross), "A is still held on the controller")
    }

    /// Giving and taking a pad on request is rate-limited per controller: each pad is a UHID
    /// device, a thread and a udev event. Taking one away is never refused (rest, then gone);
    /// a reconnect does not reset the count (it is by identity); the window passes.
    @Test func givingAPadIsRateLimitedPerController() {
        var rig = Rig(pads: VirtualPadSettings(forEvery: false))
        _ = rig.open(Self.one, identity: "name:phone")
        var out: [PipelineOutput] = []
        var given = 0
        for _ in 0..<10 {
            if rig.core.setPad(Self.one, on: true, now: rig.now, into: &out) == true { given += 1 }
            #expect(rig.core.setPad(Self.one, on: false, now: rig.now, into: &out) == false)
        }
        #expect(given == PadOpenLimit.limit)
        _ = rig.close(Self.one)
        _ = rig.open(Self.one, identity: "name:phone")
        #expect(rig.core.setPad(Self.one, on: true, now: rig.now, into: &out) == false, "a reconnect does not reset it")
        #expect(rig.core.setPad(Self.one, on: true, now: rig.now + .seconds(11), into: &out) == true)
    }
}
