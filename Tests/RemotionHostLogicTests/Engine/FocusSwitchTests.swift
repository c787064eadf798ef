import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Profiles that follow the focused application, in the engine on virtual time: a focus
/// change switches every controller a profile applies to within that one event, cleanly —
/// held input released first, the gyro stick rested, the mapping fresh, then the new
/// profile — and injects nothing into the application being left.
@Suite struct FocusSwitchTests {
    static let beta = FocusedApp(instance: "beta", className: "Beta")
    static let alpha = FocusedApp(instance: "alpha", className: "Alpha")

    static func entry(_ key: String, _ value: String) -> ConfigEntry { ConfigEntry(key: key, value: value, line: 1, quoted: true) }
    /// beta: FPS mode with the gyro as the right stick.
    static let fpsInBeta = FocusProfile(app: "beta", mapping: [entry("mode", "fps"), entry("gyro_stick.target", "right")])

    static func turn(_ radians: Float, at micros: UInt64, buttons: ButtonSet = .none) -> MotionSample {
        MotionSample(timestampMicros: micros, gyro: Vector3(x: 0, y: radians, z: radians), buttons: buttons)
    }

    /// The pointer events a session's samples gave, in order.
    static func pointers(_ h: EngineHarness, _ id: SessionID) -> [InputEvent] {
        h.log.compactMap { if case let .sample(s, m) = $0, s == id { m.pointer } else { nil } }
    }

    static func stream(_ h: inout EngineHarness, _ id: SessionID, from micros: UInt64, count: Int) {
        for k in 0..<count {
            h.now = h.now + .milliseconds(10)
            h.send(.motion(turn(0.5, at: micros + UInt64(k) * 10_000, buttons: ButtonSet([.a])), latencyMicros: nil), to: id)
        }
    }

    static func isAbsolute(_ e: InputEvent) -> Bool { if case .moveTo = e { true } else { false } }
    static func isRelative(_ e: InputEvent) -> Bool { if case .moveBy = e { true } else { false } }

    @Test func aFocusChangeSwitchesCleanlyAndBack() throws {
        var h = EngineHarness()
        h.engine.setProfiles(FocusProfiles([Self.fpsInBeta]), now: h.now, into: &h.log)
        h.engine.focus(Self.alpha, now: h.now, into: &h.log)
        let opened = h.open(.web(device: "phone-2", peer: nil))
        let web = try #require(opened)
        h.send(.button(.a, isDown: true), to: web)
        #expect(h.outputs(web).contains(.input(.button(.left, down: true))))
        Self.stream(&h, web, from: 0, count: 20)
        #expect(!Self.pointers(h, web).isEmpty && Self.pointers(h, web).allSatisfy(Self.isAbsolute), "alpha: pointer mode")

        h.clear()
        h.engine.focus(Self.beta, now: h.now, into: &h.log)
        #expect(h.outputs(web).first == .releaseHeld, "what it holds is released before the mapping changes")
        #expect(!h.outputs(web).contains { if case .input = $0 { true } else { false } }, "nothing injected into alpha")
        #expect(h.engine.core.profile(of: web)?.settings.mode == .fps)
        #expect(h.engine.core.focusProfile(of: web) == 0)
        Self.stream(&h, web, from: 200_000, count: 20)
        #expect(!Self.pointers(h, web).isEmpty && Self.pointers(h, web).allSatisfy(Self.isRelative), "beta: FPS mode")
        let turned = try #require(h.padStates(web).last)
        #expect(turned.rightStick != .centre, "the gyro moves the right stick in beta")

        h.clear()
        h.engine.focus(Self.alpha, now: h.now, into: &h.log)
        #expect(h.outputs(web).first == .releaseHeld)
        let rested = try #require(h.padStates(web).last)
        #expect(rested.rightStick == .centre, "the gyro stick rests as beta's profile goes")
        #expect(h.engine.core.profile(of: web)?.settings.mode == .pointer)
        #expect(h.engine.core.profile(of: web)?.settings.gyroStick.target == .off)
        Self.stream(&h, web, from: 400_000, count: 20)
        #expect(!Self.pointers(h, web).isEmpty && Self.pointers(h, web).allSatisfy(Self.isAbsolute), "alpha again: pointer mode")
        #expect(Self.pointers(h, web).first == .moveTo(x: 960, y: 540),
                "the mapping starts afresh: where the controller points at the switch is the centre")
    }

    /// Another window of the application in force, or a focus event told twice, costs nothing:
    /// what is held stays held.
    @Test func theSameProfileAgainChangesNothing() throws {
        var h = EngineHarness()
        h.engine.setProfiles(FocusProfiles([Self.fpsInBeta]), now: h.now, into: &h.log)
        let opened = h.open(.web(device: "phone-2", peer: nil))
        let web = try #require(opened)
        h.engine.focus(Self.beta, now: h.now, into: &h.log)
        h.send(.button(.a, isDown: true), to: web)
        h.clear()
        h.engine.focus(FocusedApp(instance: "beta-2", className: "Beta"), now: h.now, into: &h.log)
        h.engine.focus(Self.beta, now: h.now, into: &h.log)
        #expect(h.log.isEmpty, "\(h.log)")
    }

    /// A profile for one kind of controller switches only those: the page's phone keeps its
    /// mapping and sees nothing.
    @Test func aProfileForOneKindSwitchesOnlyThatKind() throws {
        var h = EngineHarness()
        var dsuOnly = Self.fpsInBeta
        dsuOnly.controller = .dsu
        h.engine.setProfiles(FocusProfiles([dsuOnly]), now: h.now, into: &h.log)
        let openedWeb = h.open(.web(device: "phone-2", peer: nil))
        let openedDSU = h.open(.dsu(server: EngineHarness.Address(host: "127.0.0.1", port: 26_760), slot: 0))
        let (web, dsu) = (try #require(openedWeb), try #require(openedDSU))
        h.clear()
        h.engine.focus(Self.beta, now: h.now, into: &h.log)
        #expect(h.outputs(web).isEmpty)
        #expect(h.outputs(dsu).first == .releaseHeld)
        #expect(h.engine.core.profile(of: web)?.settings.mode == .pointer)
        #expect(h.engine.core.profile(of: dsu)?.settings.mode == .fps)
    }

    /// A controller that connects while beta has the focus starts in beta's profile; when
    /// beta's window closes (no focused app) it falls back to the host's.
    @Test func aNewControllerStartsInTheProfileInForceAndAClosedWindowFallsBack() throws {
        var h = EngineHarness()
        h.engine.setProfiles(FocusProfiles([Self.fpsInBeta]), now: h.now, into: &h.log)
        h.engine.focus(Self.beta, now: h.now, into: &h.log)
        h.connect(SessionID(77), from: EngineHarness.Address(host: "192.0.2.7", port: 5_000))
        #expect(h.engine.core.profile(of: SessionID(77))?.settings.mode == .fps)
        h.engine.focus(nil, now: h.now, into: &h.log)
        #expect(h.engine.core.profile(of: SessionID(77))?.settings.mode == .pointer)
        #expect(h.engine.core.focusProfile(of: SessionID(77)) == nil)
    }

    /// Profiles read again: each session takes the one in force under the new list.
    @Test func newProfilesApplyAtOnce() throws {
        var h = EngineHarness()
        h.engine.focus(Self.beta, now: h.now, into: &h.log)
        let opened = h.open(.web(device: "phone-2", peer: nil))
        let web = try #require(opened)
        #expect(h.engine.core.profile(of: web)?.settings.mode == .pointer)
        h.engine.setProfiles(FocusProfiles([Self.fpsInBeta]), now: h.now, into: &h.log)
        #expect(h.engine.core.profile(of: web)?.settings.mode == .fps)
        h.engine.setProfiles(FocusProfiles(), now: h.now, into: &h.log)
        #expect(h.engine.core.profile(of: web)?.settings.mode == .pointer)
    }
}
