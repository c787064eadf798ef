import RemotionHostLogic
import Testing

/// Errors repeat the user's bad values short and harmless: at most 60 characters of a
/// value (then "…"), control characters escaped (a 2 MB value once gave a 2-million-
/// character line; ESC and NUL went to the terminal raw).
@Suite struct ConfigEchoTests {
    static func error(_ text: String) -> String {
        do {
            _ = try HostConfig.parse(text, path: "config.toml")
            return "no error"
        } catch {
            return error.description
        }
    }

    static func raw(_ s: String) -> Bool {
        s.unicodeScalars.contains { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }
    }

    @Test func aHugeValueGivesAShortLine() {
        let huge = String(repeating: "x", count: 2_000_000)
        for text in ["[buttons]\nA = \"\(huge)\"", "[buttons]\n\(huge) = \"left\"", "[\(huge)]",
                     "[buttons]\nA = \(huge)", "[buttons]\nA = \"left\" \(huge)", "\(huge)"] {
            let message = Self.error(text)
            #expect(message.count < 250, "\(message.prefix(120))… (\(message.count) characters)")
            #expect(message.contains("…"))
            #expect(message.hasPrefix("config.toml:"))
        }
    }

    @Test func controlCharactersAreEscaped() {
        // TOML escapes make ESC and NUL in a string value; a bare ESC in the file too.
        let cases = [
            ("[buttons]\nA = \"\\u001b[31mred\\u0000\"", "\\e[31mred\\0"),
            ("[buttons]\nA = \"key:\\u001b]0;title\\u0007\"", "\\e]0;title\\u{7}"),
            ("[buttons]\n\u{1B}[2J = \"left\"", "\\e[2J"),
            ("[buttons]\n\"A\\u202E\" = \"left\"", "A\\u{202e}"),
        ]
        for (text, shown) in cases {
            let message = Self.error(text)
            #expect(!Self.raw(message), "raw control characters in \(message.debugDescription)")
            #expect(message.contains(shown), "\(message.debugDescription) should show \(shown)")
        }
    }

    @Test func mappingValuesAreEchoedTheSameWay() {
        var settings = MappingSettings()
        for (key, value) in [("sensitivity", String(repeating: "9", count: 100_000)), ("mode", "\u{1B}[2Jfps"),
                             ("sensi\u{0}tivity", "1"), ("sensitivity", "1e999999\u{1B}")] {
            do {
                try settings.set(key, to: value)
                Issue.record("\(key) = \(value.prefix(20)) was accepted")
            } catch {
                #expect(!error.message.contains(String(repeating: "9", count: 61)), "\(error.message.prefix(100))…")
                #expect(!Self.raw(error.message), "\(error.message.debugDescription)")
            }
        }
    }

    @Test func echoedValueRules() {
        #expect(EchoedValue.quoted("left") == "\"left\"")
        #expect(EchoedValue.text(String(repeating: "a", count: 61)) == String(repeating: "a", count: 60) + "…")
        #expect(EchoedValue.text(String(repeating: "a", count: 60)) == String(repeating: "a", count: 60))
        #expect(EchoedValue.text("\u{1B}\u{0}\t\n\r\u{7F}\u{85}") == "\\e\\0\\t\\n\\r\\u{7f}\\u{85}")
        // An escape is never cut in half: it fits whole or gives way to the "…".
        #expect(EchoedValue.text(String(repeating: "a", count: 58) + "\u{1B}\u{1B}") == String(repeating: "a", count: 58) + "\\e…")
    }
}
