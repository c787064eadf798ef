import RemotionProtocol
/// Small text helpers the views share (no Foundation: the UI core stays pure).
package enum TextFormat {
    /// `value` with exactly `decimals` digits after the point, rounded half away from
    /// zero: fixed(3.14159, 1) = "3.1", fixed(-0.04, 1) = "0.0". Non-finite: "nan", "inf", "-inf".
    package static func fixed(_ value: Double, _ decimals: Int, plusSign: Bool = false) -> String {
        if value.isNaN { return "nan" }
        if value.isInfinite { return value < 0 ? "-inf" : "inf" }
        let decimals = min(max(decimals, 0), 9)
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e18 else { return value < 0 ? "-inf" : "inf" }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        var text = String(units / divisor)
        if decimals > 0 {
            let frac = String(units % divisor)
            text += "." + String(repeating: "0", count: decimals - frac.count) + frac
        }
        if units == 0 { return plusSign ? "+" + text : text }
        if value < 0 { return "-" + text }
        return plusSign ? "+" + text : text
    }

    /// `s` padded with spaces on the left to `width` characters (longer strings unchanged).
    package static func padLeft(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    /// `s` padded with spaces on the right to `width` characters (longer strings unchanged).
    package static func padRight(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    /// `s` cut to at most `width` characters, ending in "…" when cut.
    package static func truncate(_ s: String, _ width: Int) -> String {
        guard s.count > width else { return s }
        guard width > 1 else { return String(s.prefix(max(0, width))) }
        return String(s.prefix(width - 1)) + "…"
    }

    /// Removes control characters (ESC, CR, BEL, C1 controls, …) from text that came
    /// from the network so it cannot move the cursor or change the terminal.
    package static func sanitize(_ s: String) -> String {
        String(String.UnicodeScalarView(s.unicodeScalars.filter { scalar in
            !(scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value)
              || scalar.properties.generalCategory == .format)
        }))
    }

    /// A JSON string literal for `s` (RFC 8259 escaping).
    package static func jsonString(_ s: String) -> String { JSONText.quote(s) }

    /// A JSON number with `decimals` digits, or `null` when not finite or absent.
    package static func jsonNumber(_ value: Double?, _ decimals: Int) -> String {
        guard let value, value.isFinite else { return "null" }
        return fixed(value, decimals)
    }
}
