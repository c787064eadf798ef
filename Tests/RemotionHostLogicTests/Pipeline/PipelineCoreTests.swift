import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The host pipeline's decisions without a loop, a socket, an injector or a clock:
/// events and a virtual time in, `PipelineOutput`s out.
@Suite struct PipelineCoreTests {
    static let screen = ScreenGeometry(width: 1920, height: 1080)
    static let one = SessionID(1), two = SessionID(2)

    /// A core and the outputs of the last call.
    struct Rig {
        var core: PipelineCore
        var out: [PipelineOutput] = []
        /// What the page is told of its last message (`web`, PipelineCoreWebInputTests).
        var reply: WebInputReply?
        var now = Instant.zero

        init(_ profile: MappingProfile = MappingProfile(), trails: Bool = false, pads: VirtualPadSettings? = nil) {
            core = PipelineCore(profile: profile, keepsTrails: trails, pads: pads)
        }

        mutating func open(_ id: SessionID, identity: String = "address:10.0.0.2") -> [PipelineOutput] {
            out.removeAll()
            core.open(id, address: "10.0.0.2:5000", identity: identity, now: now, into: &out)
            return out
        }

        mutating func motion(_ id: SessionID, _ sample: MotionSample, latency: Int64? = 300) -> [PipelineOutput] {
            out.removeAll()
            core.motion(id, sample, latencyMicros: latency, screen: PipelineCoreTests.screen, now: now, into: &out)
            return out
        }

        mutating func button(_ id: SessionID, _ b: Button, _ down: Bool) -> [PipelineOutput] {
            out.removeAll()
            core.button(id, b, isDown: down, now: now, into: &out)
            return out
        }

        mutating func close(_ id: SessionID, _ reason: SessionCloseReason = .timedOut) -> [PipelineOutput] {
            out.removeAll()
            core.close(id, reason: reason, now: now, into: &out)
            return out
        }
    }

    static func attitude(_ yaw: Double, at micros: UInt64) -> MotionSample {
        MotionSample(timestampMicros: micros, attitude: Attitude(roll: 0, pitch: 0, yaw: yaw))
    }

    @Test func motionBecomesOnePointerFrameAndTelemetryOnVirtualTime() throws {
        var rig = Rig(trails: true)
        let r1 = rig.open(Self.one)
        #expect(r1.isEmpty, "no pads: nothing to open")
        rig.now = .seconds(1)
        let first = rig.motion(Self.one, Self.attitude(0, at: 1_000))
        guard case let .input(.moveTo(x, y))? = first.first, first.count == 1 else {
            Issue.record("expected one moveTo, got \(first)"); return
        }
        #expect((0..<1920).contains(x) && (0..<1080).contains(y), "pointer mode: a position on the screen")
        for i in 1...240 {
            rig.now = .seconds(1) + .milliseconds(i * 5)
            _ = rig.motion(Self.one, Self.attitude(0.001 * Double(i), at: 1_000 + UInt64(i) * 5_000), latency: Int64(i))
        }
        let t = try #require(rig.core.sessions[Self.one]?.telemetry)
        #expect(t.motionPackets == 241 && t.lastMotion == .seconds(1) + .milliseconds(1_200))
        #expect(abs(t.packetRate - 200) < 1, "200 Hz on the virtual clock: \(t.packetRate)")
        #expect(t.latency.totalCount == 241 && t.latency.max == 300)
        #expect(rig.core.sessions[Self.one]?.trail?.count == 241)
    }

    @Test func buttonsMapToInputOrToHostCommandsDoneInTheCore() {
        var profile = MappingProfile()
        profile.buttons[.c] = .key(.letter("i"), modifiers: [.control])
        profile.buttons[.p] = .host(.pause)
        profile.buttons[.o] = .host(.calibrate)
        var rig = Rig(profile)
        _ = rig.open(Self.one)
        let r2 = rig.button(Self.one, .a, true)
        #expect(r2 == [.input(.button(.left, down: true))])
        let r3 = rig.button(Self.one, .c, true)
        #expect(r3 == [.inputs([.key(.control, down: true), .key(.letter("i"), down: true)])])
        let r4 = rig.button(Self.one, .p, true)
        #expect(r4.isEmpty && rig.core.paused)
        let r5 = rig.motion(Self.one, Self.attitude(0, at: 1))
        #expect(r5.isEmpty, "paused: no pointer output")
        let r6 = rig.button(Self.one, .o, true)
        #expect(r6 == [.note(.calibration(started: true))])
        #expect(rig.core.sessions[Self.one]?.telemetry.buttonEdges == 4)
        let r7 = rig.button(Self.two, .a, true)
        #expect(r7.isEmpty, "no such session: nothing")
    }

    @Test func holdToEnableGatesMotionUntilHeld() {
        var profile = MappingProfile()
        profile.buttons[.b] = .host(.holdToEnableMotion)
        var rig = Rig(profile)
        _ = rig.open(Self.one)
        let r8 = rig.motion(Self.one, Self.attitude(0, at: 1))
        #expect(r8.isEmpty)
        _ = rig.button(Self.one, .b, true)
        let r9 = rig.motion(Self.one, Self.attitude(0.01, at: 2))
        #expect(r9.count == 1)
        _ = rig.button(Self.one, .b, false)
        let r10 = rig.motion(Self.one, Self.attitude(0.02, at: 3))
        #expect(r10.isEmpty)
    }

    @Test func aControllerWithoutAttitudeIsToldOnceInPointerMode() {
        var rig = Rig()
        _ = rig.open(Self.one)
        let rates = MotionSample(timestampMicros: 1, acceleration: Vector3(x: 0, y: 0, z: 1))   // nothing to fuse an attitude from
        let notes = (0..<3).flatMap { _ in rig.motion(Self.one, rates) }.filter { $0.kind == .note }
        #expect(notes.count == 1)
        #expect(rig.core.sessions[Self.one]?.telemetry.note?.contains("use FPS mode") == true)
    }

    @Test func closeAlwaysReleasesAndLeavesOnlyTotals() {
        var rig = Rig()
        for i in 1...1_000 {
            let id = SessionID(UInt32(i))
            _ = rig.open(id)
            _ = rig.motion(id, Self.attitude(0.01, at: 1_000))
            _ = rig.button(id, .a, true)
            let r11 = rig.close(id, i.isMultiple(of: 2) ? .timedOut : .clientDisconnected(.user))
            #expect(r11 == [.releaseHeld])
        }
        let r12 = rig.close(SessionID(9_999))
        #expect(r12 == [.releaseHeld], "the injector's tracker decides what is held, record or not")
        #expect(rig.core.sessions.isEmpty)
        #expect(rig.core.closedTotals.sessions == 1_000 && rig.core.closedTotals.buttonEdges == 1_000)
        #expect(rig.core.closedTotals.reasons == ["timed-out": 500, "client-disconnected:user": 500])
        #expect(rig.core.latencySummary()?.samples == 1_000)
    }

    @Test func aSessionsOwnProfileAndModeSurviveTheHostsChanges() {
        var rig = Rig()
        _ = rig.open(Self.one)
        _ = rig.open(Self.two)
        var presenter = MappingProfile()
        presenter.buttons[.a] = .key(.right, modifiers: [])
        let r13 = rig.core.setProfile(Self.one, presenter)
        #expect(r13)
        let r14 = rig.core.setMode(Self.two, .fps)
        #expect(r14 == .fps)
        var host = rig.core.profile.settings
        host.sensitivity = 2
        rig.core.update(settings: host)
        #expect(rig.core.profile(of: Self.one)?.settings.sensitivity == 1)
        #expect(rig.core.profile(of: Self.two)?.settings.mode == .fps && rig.core.profile(of: Self.two)?.settings.sensitivity == 2)
        let r15 = rig.button(Self.one, .a, true)
        #expect(r15 == [.input(.key(.right, down: true))])
        let r16 = rig.button(Self.two, .a, true)
        #expect(r16 == [.input(.button(.left, down: true))])
    }
}
