import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// `[[profile]]` in config.toml: parsing with one-line errors naming the line, matching by
/// WM_CLASS or app_id (first match wins), the profiles an earlier one hides, and a profile's
/// mapping over the host's.
@Suite struct FocusProfilesTests {
    static let file = """
        [mapping]
        mode = "pointer"
        sensitivity = 1.5

        [[profile]]
        app = "beta"
        mode = "fps"
        "gyro_stick.target" = "right"
        B = "key:space"

        [[profile]]
        app = "slides"
        controller = "phone"
        A = "none"
        """

    @Test func profilesAreReadInFileOrder() throws {
        let config = try HostConfig.parse(Self.file, path: "config.toml")
        let profiles = config.profiles.list
        try #require(profiles.count == 2)
        #expect(profiles[0].app == "beta" && profiles[0].line == 5 && profiles[0].controller == nil)
        #expect(profiles[0].mapping.map(\.key) == ["mode", "gyro_stick.target"])
        #expect(profiles[0].buttons == [.b: .key(Key(name: "space")!, modifiers: [])])
        #expect(profiles[1].app == "slides" && profiles[1].line == 11 && profiles[1].controller == .phone)
        #expect(profiles[1].buttons.count == 1 && profiles[1].buttons[.a]! == nil, "\"none\" unmaps the button")
        #expect(config.mapping.map(\.key) == ["mode", "sensitivity"], "a profile's keys stay out of [mapping]")
    }

    /// Each profile is the host's profile with its own entries; what it does not name is the host's.
    @Test func aProfileChangesOnlyWhatItNames() throws {
        let config = try HostConfig.parse(Self.file, path: "config.toml")
        let host = MappingProfile(settings: try config.mappingSettings(path: "config.toml"), buttons: config.buttons)
        let beta = config.profiles.list[0].applied(over: host)
        #expect(beta.settings.mode == .fps)
        #expect(beta.settings.sensitivity == 1.5)
        #expect(beta.settings.gyroStick.target == .right)
        #expect(beta.buttons[.b] == .key(Key(name: "space")!, modifiers: []))
        #expect(beta.buttons[.a] == host.buttons[.a])
        let slides = config.profiles.list[1].applied(over: host)
        #expect(slides.settings == host.settings)
        #expect(slides.buttons[.a] == nil)
    }

    static let bad: [(String, String)] = [
        ("[[profile]]\nmode = \"fps\"", "config.toml:1: [[profile]] needs the application it is for, e.g. app = \"firefox\""),
        ("[[profile]]\napp = \"beta\"\nmode = \"sideways\"", "config.toml:3: [[profile]] mode:"),
        ("[[profile]]\napp = \"beta\"\nsensitivity = \"much\"", "config.toml:3: [[profile]] sensitivity"),
        ("[[profile]]\napp = \"beta\"\ncolour = \"red\"", "config.toml:3: [[profile]] "),
        ("[[profile]]\napp = 3", "config.toml:2: [[profile]] app needs the application's name in quotes"),
        ("[[profile]]\napp = \"\"", "config.toml:2: [[profile]] app needs the application's name in quotes"),
        ("[[profile]]\napp = \"beta\"\ncontroller = \"mouse\"", "config.toml:3: [[profile]] controller must be \"phone\", \"dsu\", \"local-pad\" or \"udp\""),
        ("[[profile]]\napp = \"beta\"\nA = \"kick\"", "config.toml:3: [[profile]] button A: \"kick\" is not an action"),
        ("[[profile]]\napp = \"beta\"\nA = 1", "config.toml:3: [[profile]] button A needs a quoted action"),
        ("[profile]\napp = \"beta\"", "config.toml:1: write [[profile]] (double brackets)"),
        ("[[profile]]\napp = \"a\"\n[[profile]]\napp = \"b\"\n\n[[profile]]\nmode = \"fps\"", "config.toml:6: [[profile]] needs the application"),
    ]

    @Test(arguments: bad) func aBadProfileIsOneLineWithItsLine(text: String, expected: String) {
        #expect(throws: ConfigError.self) { try HostConfig.parse(text, path: "config.toml") }
        do {
            _ = try HostConfig.parse(text, path: "config.toml")
        } catch {
            #expect(error.description.hasPrefix(expected), "\(error.description)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func anAppLongerThanAnyWindowClassIsRefused() {
        let long = String(repeating: "x", count: FocusProfile.maxAppLength + 1)
        #expect(throws: ConfigError.self) { try HostConfig.parse("[[profile]]\napp = \"\(long)\"", path: "c") }
    }

    /// X11's WM_CLASS has an instance and a class ("beta", "Beta"): either names the app, in
    /// any case; a Wayland app_id is both.
    @Test func theInstanceOrTheClassMatchesInAnyCase() {
        let profiles = FocusProfiles([FocusProfile(app: "beta")])
        #expect(profiles.match(FocusedApp(instance: "beta", className: "Other"), kind: .phone) == 0)
        #expect(profiles.match(FocusedApp(instance: "x", className: "Beta"), kind: .phone) == 0)
        #expect(profiles.match(FocusedApp(appID: "BETA"), kind: .udp) == 0)
        #expect(profiles.match(FocusedApp(appID: "betamax"), kind: .phone) == nil, "a name, not a prefix")
        #expect(profiles.match(FocusedApp(appID: "alpha"), kind: .phone) == nil)
        #expect(profiles.match(nil, kind: .phone) == nil, "no focused app: the host's profile")
    }

    /// The first profile that matches the app and the controller's kind wins; one limited to
    /// another kind is passed over.
    @Test func theFirstMatchForTheControllersKindWins() {
        let profiles = FocusProfiles([
            FocusProfile(app: "game", controller: .dsu, line: 1),
            FocusProfile(app: "game", line: 5),
            FocusProfile(app: "Game", line: 9),
        ])
        let game = FocusedApp(instance: "game", className: "Game")
        #expect(profiles.match(game, kind: .dsu) == 0)
        #expect(profiles.match(game, kind: .phone) == 1)
        #expect(profiles.match(game, kind: .localPad) == 1)
        #expect(profiles.matches(game, kind: .dsu) == [0, 1, 2])
        #expect(profiles.shadowed.map(\.line) == [9] && profiles.shadowed.map(\.by) == [5],
                "the third is hidden by the second for every kind; the second only partly by the first")
    }

    @Test func aProfileForEveryControllerHidesALaterOneForOneKind() {
        let profiles = FocusProfiles([FocusProfile(app: "a", line: 1), FocusProfile(app: "a", controller: .phone, line: 4),
                                      FocusProfile(app: "b", controller: .phone, line: 7), FocusProfile(app: "b", controller: .dsu, line: 10)])
        #expect(profiles.shadowed.map(\.line) == [4])
    }

    /// `remotion doctor` and the host's start say which profile never applies, in one line.
    @Test func aHiddenProfileIsOneLineNamingBothLines() throws {
        let config = try HostConfig.parse("[[profile]]\napp = \"beta\"\nmode = \"fps\"\n\n[[profile]]\napp = \"Beta\"\nmode = \"seed\"\n",
                                          path: "config.toml")
        #expect(config.profiles.shadowNotes(path: "config.toml") == [
            "config.toml:5: [[profile]] never applies: the one at line 1 names the same app first; "
                + "merge them, or limit the first to one kind with controller = \"…\"",
        ])
        #expect(try HostConfig.parse(Self.file, path: "c").profiles.shadowNotes(path: "c").isEmpty)
    }

    /// WM_CLASS as the X server gives it: two NUL-ended strings; anything else reads safely.
    @Test func wmClassBytesAreReadSafely() {
        #expect(FocusedApp(wmClass: Array("beta\0Beta\0".utf8)) == FocusedApp(instance: "beta", className: "Beta"))
        #expect(FocusedApp(wmClass: Array("beta".utf8)) == FocusedApp(instance: "beta", className: "beta"))
        #expect(FocusedApp(wmClass: Array("\0Beta\0".utf8)) == FocusedApp(instance: "", className: "Beta"))
        #expect(FocusedApp(wmClass: [UInt8]()) == nil)
        #expect(FocusedApp(wmClass: [0, 0, 0]) == nil)
        #expect(FocusedApp(wmClass: [0xff, 0xfe, 0, 0x80]) != nil, "bad UTF-8 reads as replacement characters")
        let long = FocusedApp(wmClass: [UInt8](repeating: 0x61, count: 100_000) + [0, 0x62])
        #expect(long?.instance.utf8.count == FocusProfile.maxAppLength + 1 && long?.className == "b")
    }

    @Test func everyOriginHasItsKind() {
        typealias Origin = ControllerOrigin<String>
        #expect(ControllerKind(Origin.udp("a")) == .udp)
        #expect(ControllerKind(Origin.web(device: "d", peer: nil)) == .phone)
        #expect(ControllerKind(Origin.dsu(server: "s", slot: 0)) == .dsu)
        #expect(ControllerKind(Origin.localPad("event3")) == .localPad)
    }
}
