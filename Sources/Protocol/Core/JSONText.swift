/// JSON text helpers for the log lines the host writes (no Foundation needed).
public enum JSONText {
    /// A JSON string literal for `s` (RFC 8259 escaping).
    public static func quote(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // C0 and C1 controls (a C1 CSI, U+009B, starts an escape sequence on a terminal
            // as ESC [ does) and the bidirectional overrides and isolates (a name that turns
            // the line around): escaped, so a status line on stderr cannot drive or disguise
            // the terminal of the person who reads it. The JSON reader gets the same text.
            case _ where scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value)
                || (0x200e...0x200f).contains(scalar.value) || (0x202a...0x202e).contains(scalar.value)
                || (0x2066...0x2069).contains(scalar.value):
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
