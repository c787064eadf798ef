import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The dashboard's profile editor, sans-IO: a draft goes through the file's own rules with one
/// line naming the profile and the field, and `HostConfig.updatingProfiles` rewrites only the
/// `[[profile]]` tables, in a text that reads back (through the real parser) as the same profiles.
@Suite struct ProfileEditTests {
    static let file = """
        # Remotion's config
        [mapping]
        mode = "pointer"   # the host's mode
        sensitivity = 1.5

        # games
        [[profile]]
        app = "beta"
        # FPS in beta
        mode = "fps"
        B = "key:space"

        [[dsu]]
        address = "127.0.0.1:26760"

        [[profile]]
        app = "slides"
        controller = "phone"
        A = "none"

        # where the pointer goes
        [inject]
        output = "DP-1"
        """

    static func draft(_ app: String, _ controller: String? = nil, _ entries: [(String, String)]) -> ProfileDraft {
        ProfileDraft(app: app, controller: controller, entries: entries.map { ProfileDraft.Entry(key: $0.0, value: $0.1) })
    }

    /// The drafts written, read back by `HostConfig.parse`.
    static func roundTrip(_ drafts: [ProfileDraft], in text: String) throws -> (String, HostConfig) {
        let profiles = try ProfileDraft.validate(drafts)
        let written = HostConfig.updatingProfiles(profiles, in: text)
        return (written, try HostConfig.parse(written, path: "config.toml"))
    }

    @Test func theProfilesAreReplacedWhereTheFirstWasAndEverythingElseStays() throws {
        let drafts = [Self.draft("gamma", "dsu", [("sensitivity", "2"), ("gyro_stick.target", "right"), ("c", "key:ctrl+c"), ("pad", "on")]),
                      Self.draft("beta", nil, [("mode", "fps")])]
        let (written, config) = try Self.roundTrip(drafts, in: Self.file)
        #expect(written == """
            # Remotion's config
            [mapping]
            mode = "pointer"   # the host's mode
            sensitivity = 1.5

            # games
            [[profile]]
            app = "gamma"
            controller = "dsu"
            sensitivity = 2
            "gyro_stick.target" = "right"
            C = "key:ctrl+c"
            pad = "on"

            [[profile]]
            app = "beta"
            mode = "fps"

            [[dsu]]
            address = "127.0.0.1:26760"

            # where the pointer goes
            [inject]
            output = "DP-1"

            """, "written where the first was; a comment among a profile's keys is the profile's, the rest stays")
        #expect(config.profiles.list.map(\.draft) == [Self.draft("gamma", "dsu", [("sensitivity", "2"), ("gyro_stick.target", "right"),
                                                                              ("C", "key:ctrl+c"), ("pad", "on")]), drafts[1]],
                "read back the same, the button letter upper case")
        #expect(config.mapping.map(\.key) == ["mode", "sensitivity"] && config.dsuSources.count == 1 && config.inject.output == "DP-1")
        #expect(config.profiles.list.map(\.line) == [7, 15], "the lines are the new file's")
    }

    @Test func withoutProfilesTheyAreAppendedAndAnEmptyListRemovesThem() throws {
        let plain = "[mapping]\nmode = \"fps\"\n"
        let (added, config) = try Self.roundTrip([Self.draft("beta", nil, [])], in: plain)
        #expect(added == "[mapping]\nmode = \"fps\"\n\n[[profile]]\napp = \"beta\"\n")
        #expect(config.profiles.list.map(\.app) == ["beta"])
        #expect(HostConfig.updatingProfiles(FocusProfiles(), in: plain) == plain, "nothing to do: the text as it was")
        let (emptied, none) = try Self.roundTrip([], in: Self.file)
        #expect(none.profiles.isEmpty && none.dsuSources.count == 1 && none.inject.output == "DP-1")
        #expect(emptied.split(separator: "\n").map(String.init) == Self.file.split(separator: "\n").map(String.init).filter {
            !["[[profile]]", "app = \"beta\"", "# FPS in beta", "mode = \"fps\"", "B = \"key:space\"",
              "app = \"slides\"", "controller = \"phone\"", "A = \"none\""].contains($0)
        }, "only the profiles' lines go: \(emptied)")
        let (fromNothing, _) = try Self.roundTrip([Self.draft("beta", nil, [])], in: "")
        #expect(fromNothing == "[[profile]]\napp = \"beta\"\n")
        let (trailing, _) = try Self.roundTrip([], in: "[mapping]\nmode = \"fps\"\n\n[[profile]]\napp = \"x\"\n\n")
        #expect(trailing == "[mapping]\nmode = \"fps\"\n", "no blank lines left where the last profile was")
    }

    /// Quotes, backslashes, line breaks and other control characters in an app name are
    /// escaped: the file still parses, to the same name, and nothing else appears in it.
    @Test(arguments: ["a\"b", "back\\slash", "two\nlines", "cr\rlf", "nul\u{0}del\u{7F}", "tab\tbell\u{7}",
                      "x\"\n[[profile]]\napp = \"evil", "ends with \\", "'single'", "# not a comment", "é\u{301}ü", "]]"])
    func aHostileAppNameIsEscapedAndReadsBack(app: String) throws {
        let (written, config) = try Self.roundTrip([Self.draft(app, nil, [("mode", "fps")])], in: Self.file)
        #expect(config.profiles.list.map(\.app) == [app])
        #expect(config.profiles.list[0].draft.entries == [ProfileDraft.Entry(key: "mode", value: "fps")])
        #expect(written.split(separator: "\n").filter { $0 == "[[profile]]" }.count == 1, "\(written)")
    }

    /// A value or key that would break the file never gets that far: the file's rules refuse it.
    @Test func hostileValuesAndKeysAreRefused() {
        let cases: [(ProfileDraft, String)] = [
            (Self.draft("beta", nil, [("mode", "fps\"\nsensitivity = 99")]), "profile 1 (\"beta\"): mode: "),
            (Self.draft("beta", nil, [("B", "key:space\"\n[inject]")]), "profile 1 (\"beta\"): button B: "),
            (Self.draft("beta", nil, [("mode\" = \"fps", "x")]), "profile 1 (\"beta\"): unknown setting "),
            (Self.draft("beta", "phone\"\nx", []), "profile 1 (\"beta\"): controller must be "),
        ]
        for (draft, expected) in cases {
            do throws(ProfileEditError) {
                _ = try ProfileDraft.validate([draft])
                Issue.record("accepted \(draft)")
            } catch {
                #expect(error.message.hasPrefix(expected), "\(error.message)")
                #expect(!error.message.contains("\n"), "one line: \(error.message)")
            }
        }
    }

    static let bad: [([ProfileDraft], String)] = [
        ([draft("", nil, [])], "profile 1: app needs the application's name"),
        ([draft("beta", nil, []), draft("gamma", "mouse", [])], "profile 2 (\"gamma\"): controller must be \"phone\", \"dsu\", \"local-pad\" or \"udp\""),
        ([draft("beta", nil, [("sensitivity", "much")])], "profile 1 (\"beta\"): sensitivity: \"much\" is not a number"),
        ([draft("beta", nil, [("mode", "sideways")])], "profile 1 (\"beta\"): mode: "),
        ([draft("beta", nil, [("pad", "maybe")])], "profile 1 (\"beta\"): pad must be \"on\" or \"off\""),
        ([draft("beta", nil, [("A", "kick")])], "profile 1 (\"beta\"): button A: \"kick\" is not an action"),
        ([draft("beta", nil, [("colour", "red")])], "profile 1 (\"beta\"): unknown setting \"colour\""),
        ([draft("beta", nil, [("B", "left"), ("b", "right")])], "profile 1 (\"beta\"): B is set twice; keep one"),
        ([draft("beta", nil, [("app", "gamma")])], "profile 1 (\"beta\"): app is the profile's own field"),
        ([draft("beta", nil, [("", "x")])], "profile 1 (\"beta\"): entry 1 needs a key"),
        (Array(repeating: draft("beta", nil, []), count: ProfileDraft.maxProfiles + 1), "at most 64 profiles"),
    ]

    @Test(arguments: bad) func aBadDraftIsOneLineNamingTheProfileAndTheField(drafts: [ProfileDraft], expected: String) {
        do throws(ProfileEditError) {
            _ = try ProfileDraft.validate(drafts)
            Issue.record("accepted \(drafts)")
        } catch {
            #expect(error.message.hasPrefix(expected), "\(error.message)")
            #expect(!error.message.contains("\n"))
        }
    }

    /// What the file holds is what the editor shows: a profile read from the file gives its
    /// entries back in file order, and those entries validate to the same profile.
    @Test func aProfileFromTheFileIsItsOwnDraft() throws {
        let config = try HostConfig.parse(Self.file, path: "config.toml")
        let drafts = config.profiles.list.map(\.draft)
        #expect(drafts == [Self.draft("beta", nil, [("mode", "fps"), ("B", "key:space")]),
                           Self.draft("slides", "phone", [("A", "none")])])
        let again = try ProfileDraft.validate(drafts)
        #expect(again.list.map(\.buttons) == config.profiles.list.map(\.buttons))
        #expect(again.list.map { $0.mapping.map(\.value) } == config.profiles.list.map { $0.mapping.map(\.value) })
    }

    /// Values are bare only where the parser reads back the same text: "0x10" (a number to
    /// Swift's Double, not to the TOML subset) is quoted, so the file still parses.
    @Test func aValueIsBareOnlyWhereItReadsBackTheSame() throws {
        let (written, config) = try Self.roundTrip([Self.draft("beta", nil, [("sensitivity", "0x2"), ("gyro_stick.rate", "1e3"),
                                                                                ("calibration.rest_gate", "true")])], in: "")
        #expect(written.contains("sensitivity = \"0x2\"") && written.contains("\"gyro_stick.rate\" = 1e3")
                && written.contains("\"calibration.rest_gate\" = true"), "\(written)")
        #expect(config.profiles.list[0].draft.entries.map(\.value) == ["0x2", "1e3", "true"])
    }
}
