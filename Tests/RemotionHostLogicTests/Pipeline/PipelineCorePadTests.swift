import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The virtual pad's side of the pipeline (issue 28 item 1): each session's pad state is
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
        var rig = Rig(pads: VirtualPadSettings(gyroStick: GyroStick()))
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
}
