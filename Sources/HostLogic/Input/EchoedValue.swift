/// A value the user wrote, as an error message repeats it: control characters escaped
/// (`\e`, `\0`, `\n`, `\u{7f}`, …, also invisible format characters such as U+202E) so
/// nothing reaches the terminal raw, and at most `maxCharacters` characters (then `…`), so
/// a 2 MB value gives a short line. `text` for bare values, `quoted` in double quotes.
package enum EchoedValue {
    package static let maxCharacters = 60

    package static func quoted(_ value: some StringProtocol) -> String { "\"" + text(value) + "\"" }

    package static func text(_ value: some StringProtocol) -> String {
        var out = ""
        var count = 0
        for scalar in value.unicodeScalars {
            let piece = escaped(scalar)
            if count + piece.count > maxCharacters { return out + "…" }
            out += piece
            count += piece.count
        }
        return out
    }

    /// Control and format characters escaped everywhere in `text` (no length limit).
    package static func escapingControls(_ text: String) -> String {
        text.unicodeScalars.map(escaped).joined()
    }

    static func escaped(_ scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0x00: return "\\0"
        case 0x09: return "\\t"
        case 0x0A: return "\\n"
        case 0x0D: return "\\r"
        case 0x1B: return "\\e"
        case 0x01...0x1F, 0x7F...0x9F:
            return "\\u{" + String(scalar.value, radix: 16) + "}"
        default:
            if scalar.properties.generalCategory == .format { return "\\u{" + String(scalar.value, radix: 16) + "}" }
            return String(scalar)
        }
    }
}
