@testable import RemotionHostLogic
import Testing

/// `[inject] output` written by the dashboard's output picker: a pure text rewrite that keeps
/// every other line, and reads back as the name it was given.
@Suite struct InjectOutputUpdateTests {
    private func update(_ name: String, _ text: String) throws -> String {
        try HostConfig.updatingInjectOutput(name, in: text, path: "config.toml")
    }

    @Test func replacesTheValueOfAnExistingOutputLineAndKeepsItsComment() throws {
        let text = "# my desk\n[inject]\n  output = \"HEADLESS-1\"   # the left one\n\n[mapping]\nsensitivity = 1.5\n"
        let updated = try update("HEADLESS-2", text)
        #expect(updated == "# my desk\n[inject]\n  output = \"HEADLESS-2\"   # the left one\n\n[mapping]\nsensitivity = 1.5\n")
        let parsed = try HostConfig.parse(updated, path: "c.toml")
        #expect(parsed.inject.output == "HEADLESS-2" && parsed.mapping.map(\.value) == ["1.5"])
    }

    @Test func aLiteralStringOrAQuotedKeyIsReplacedToo() throws {
        #expect(try update("DP-1", "[inject]\n\"output\"='eDP-1'#laptop\n") == "[inject]\n\"output\"= \"DP-1\"#laptop\n")
        #expect(try update("DP-1", "[inject]\noutput = \"a \\\" # b\" # c\n") == "[inject]\noutput = \"DP-1\" # c\n",
                "a quote escaped inside the old value does not end it")
    }

    @Test func addsTheKeyToAnExistingInjectTableWithoutOutput() throws {
        let text = "[inject] # where the pointer goes\n# no output yet\n\n[buttons]\nA = \"left\"\n"
        let updated = try update("DP-2", text)
        #expect(updated == "[inject] # where the pointer goes\noutput = \"DP-2\"\n# no output yet\n\n[buttons]\nA = \"left\"\n")
        #expect(try HostConfig.parse(updated, path: "c.toml").inject.output == "DP-2")
    }

    @Test func addsTheTableAtTheEndWhenThereIsNone() throws {
        let text = "[mapping]\nmode = \"fps\"\n\n[[profile]]\napp = \"inject\"\noutput = 1\n"
        // `output` under [[profile]] is no [inject] key (the parser would refuse it; the rewrite leaves it alone).
        let updated = try update("HEADLESS-2", text)
        #expect(updated == text + "\n[inject]\noutput = \"HEADLESS-2\"\n")
        #expect(try update("HEADLESS-2", "") == "[inject]\noutput = \"HEADLESS-2\"\n")
        let parsed = try HostConfig.parse(try update("HEADLESS-2", "[mapping]\nmode = \"fps\"\n"), path: "c.toml")
        #expect(parsed.inject.output == "HEADLESS-2" && parsed.mapping.map(\.value) == ["fps"])
    }

    @Test func keepsCarriageReturnLines() throws {
        let text = "[inject]\r\noutput = \"A\"\r\n[mapping]\r\nmode = \"fps\"\r\n"
        #expect(try update("B", text) == "[inject]\r\noutput = \"B\"\r\n[mapping]\r\nmode = \"fps\"\r\n")
    }

    @Test func oddButAllowedNamesReadBackExactly() throws {
        for name in ["we\"ird\\name", "\u{22}\u{301}x", "Bildschirm-ü", String(repeating: "x", count: 63)] {
            let parsed = try HostConfig.parse(try update(name, "[inject]\noutput = \"old\"\n"), path: "c.toml")
            #expect(parsed.inject.output == name)
        }
    }

    @Test func refusesWhatTheConfigFileWouldRefuse() {
        let hostile = ["", "a b", "x\"\n[buttons]\nA = \"key:ctrl+alt+Delete\"", "DP-1\n", "\u{1b}[2J", "a\u{7f}", "a\u{85}",
                       String(repeating: "x", count: 64), "\t"]
        for name in hostile {
            #expect(!InjectConfig.isOutputName(name))
            #expect(throws: ConfigError.self) { try update(name, "[inject]\noutput = \"A\"\n") }
            // The file's own parser refuses the same name, written with TOML's escapes.
            let escaped = name.unicodeScalars.map { s -> String in
                let hex = String(s.value, radix: 16)
                return "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
            }.joined()
            #expect(throws: ConfigError.self) { try HostConfig.parse("[inject]\noutput = \"\(escaped)\"\n", path: "c") }
        }
        do {
            _ = try update("a b", "")
            Issue.record("a name with a space was written")
        } catch {
            #expect("\(error)" == "config.toml: " + InjectConfig.nameRule)
        }
    }
}
