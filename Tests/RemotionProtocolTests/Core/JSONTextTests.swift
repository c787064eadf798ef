import Foundation
import RemotionProtocol
import Testing

/// Status lines are JSON on stderr, read by people in a terminal as much as by programs: a
/// name from outside must not carry a control or a bidirectional override onto the screen.
@Suite struct JSONTextTests {
    @Test func controlsAndOverridesAreEscapedAndTheTextSurvives() throws {
        let name = "a\u{1B}[2Jb\u{9B}31mc\u{7F}d\u{202E}e\u{2066}f\u{200F}g \"q\" \\ ü ☃"
        let quoted = JSONText.quote(name)
        for scalar in quoted.unicodeScalars {
            let v = scalar.value
            #expect(v >= 0x20 && !(0x7f...0x9f).contains(v) && !(0x202a...0x202e).contains(v)
                    && !(0x2066...0x2069).contains(v) && !(0x200e...0x200f).contains(v),
                    "U+\(String(v, radix: 16)) reaches the line raw: \(quoted)")
        }
        #expect(quoted.contains("\\u009b") && quoted.contains("\\u202e") && quoted.contains("ü ☃"))
        // A JSON reader gets the name back exactly.
        let decoded = try JSONDecoder().decode(String.self, from: Data(quoted.utf8))
        #expect(decoded == name)
    }
}
