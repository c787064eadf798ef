import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Profiles edited while the host runs (the dashboard's editor: `HostEngine.setProfiles` with a
/// new list): a controller whose profile in force is edited or removed switches cleanly — what
/// it held through the old profile is released first, before its new mapping is in force.
@Suite struct FocusEditTests {
    static let beta = FocusedApp(appID: "beta")

    static func profiles(_ drafts: [ProfileDraft]) throws -> FocusProfiles { try ProfileDraft.validate(drafts) }
    static let spaceOnB = ProfileDraft(app: "beta", entries: [.init(key: "B", value: "key:space")])

    static func space(down: Bool) -> PipelineOutput { .input(.key(Key(name: "space")!, down: down)) }

    @Test func aHeldButtonIsReleasedWhenItsProfileIsEditedAway() throws {
        var h = EngineHarness()
        h.engine.setProfiles(try Self.profiles([Self.spaceOnB]), now: h.now, into: &h.log)
        h.engine.focus(Self.beta, now: h.now, into: &h.log)
        let opened = h.open(.web(device: "phone-2", peer: nil))
        let web = try #require(opened)
        h.send(.button(.b, isDown: true), to: web)
        #expect(h.outputs(web).contains(Self.space(down: true)), "beta's profile: B holds space")
        h.clear()
        h.engine.setProfiles(try Self.profiles([]), now: h.now, into: &h.log)
        #expect(h.outputs(web).first == .releaseHeld, "space is released as the profile goes: \(h.outputs(web))")
        #expect(!h.outputs(web).contains { if case .input = $0 { true } else { false } }, "nothing injected on the switch")
        #expect(h.engine.core.focusProfile(of: web) == nil)
        h.clear()
        h.send(.button(.b, isDown: false), to: web)
        #expect(!h.outputs(web).contains(Self.space(down: false)), "the release does not come again from the host's B")
    }

    @Test func anEditedProfileInForceSwitchesCleanlyToItsNewMapping() throws {
        var h = EngineHarness()
        h.engine.setProfiles(try Self.profiles([Self.spaceOnB]), now: h.now, into: &h.log)
        h.engine.focus(Self.beta, now: h.now, into: &h.log)
        let opened = h.open(.web(device: "phone-2", peer: nil))
        let web = try #require(opened)
        h.send(.button(.b, isDown: true), to: web)
        h.clear()
        let edited = ProfileDraft(app: "beta", entries: [.init(key: "B", value: "key:Return"), .init(key: "mode", value: "fps")])
        h.engine.setProfiles(try Self.profiles([edited]), now: h.now, into: &h.log)
        #expect(h.outputs(web).first == .releaseHeld, "\(h.outputs(web))")
        #expect(h.engine.core.focusProfile(of: web) == 0 && h.engine.core.profile(of: web)?.settings.mode == .fps)
        #expect(h.engine.core.profile(of: web)?.buttons[.b] == .key(Key(name: "Return")!, modifiers: []))
    }
}
