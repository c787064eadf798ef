import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// `pad = "on"`/`"off"` in a `[[profile]]`: the controller's virtual pad is made or taken
/// away (rest, then gone) while the profile is in force, and what it had is given back after.
@Suite struct FocusPadTests {
    static let game = FocusedApp(appID: "game")
    static let slides = FocusedApp(appID: "slides")
    static func entry(_ key: String, _ value: String) -> ConfigEntry { ConfigEntry(key: key, value: value, line: 1, quoted: true) }

    static func padEvents(_ h: EngineHarness, _ id: SessionID) -> [String] {
        h.outputs(id).compactMap { (output: PipelineOutput) -> String? in
            switch output {
            case .padOpened: return "opened"
            case .padClosed: return "closed"
            default: return nil
            }
        }
    }

    @Test func aProfileMakesAndTakesThePadAndGivesBackWhatItHad() throws {
        var h = EngineHarness(pads: VirtualPadSettings(forEvery: false))
        let config = try HostConfig.parse("""
            [[profile]]
            app = "game"
            pad = "on"

            [[profile]]
            app = "slides"
            pad = "off"
            """, path: "config.toml")
        #expect(config.profiles.list.map(\.pad) == [true, false])
        h.engine.setProfiles(config.profiles, now: h.now, into: &h.log)
        let opened = h.open(.web(device: "phone-2", peer: nil))
        let web = try #require(opened)
        h.clear()
        h.engine.focus(Self.game, now: h.now, into: &h.log)
        #expect(Self.padEvents(h, web) == ["opened"], "the game gets a pad")
        #expect(h.outputs(web).first == .releaseHeld)
        h.clear()
        h.engine.focus(Self.slides, now: h.now, into: &h.log)
        #expect(Self.padEvents(h, web) == ["closed"], "the slides take it away")
        h.clear()
        h.engine.focus(Self.game, now: h.now, into: &h.log)
        #expect(Self.padEvents(h, web) == ["opened"])
        h.clear()
        h.engine.focus(nil, now: h.now, into: &h.log)
        #expect(Self.padEvents(h, web) == ["closed"], "no profile: the controller had no pad before, so none again")
    }

    @Test func aBadPadValueIsOneLine() {
        #expect(throws: ConfigError.self) {
            try HostConfig.parse("[[profile]]\napp = \"x\"\npad = \"maybe\"\n", path: "config.toml")
        }
    }
}
