/// Why a profile string was refused.
package enum ImpairmentProfileError: Error, Hashable, Sendable, CustomStringConvertible {
    case emptyItem(position: Int)
    case missingValue(key: String)
    case unknownKey(String)
    case repeatedKey(String)
    case invalidPercent(key: String, text: String)
    case percentOutOfRange(key: String, value: Double)
    case invalidDuration(key: String, text: String)
    case negativeDuration(key: String)

    package var description: String {
        switch self {
        case .emptyItem(let position):
            return "impairment profile: empty item at position \(position) (items are separated by ',')"
        case .missingValue(let key):
            return "impairment profile: '\(key)' needs a value, as in '\(key)=...'"
        case .unknownKey(let key):
            return "impairment profile: unknown key '\(key)' (known: \(ImpairmentProfile.knownKeys.joined(separator: ", ")))"
        case .repeatedKey(let key):
            return "impairment profile: '\(key)' is given more than once"
        case .invalidPercent(let key, let text):
            return "impairment profile: '\(key)=\(text)' is not a percentage (write e.g. \(key)=30 or \(key)=2.5%)"
        case .percentOutOfRange(let key, let value):
            return "impairment profile: '\(key)' must be within 0...100, got \(value)"
        case .invalidDuration(let key, let text):
            return "impairment profile: '\(key)=\(text)' is not a duration (write e.g. \(key)=5ms; units ns, us, ms, s)"
        case .negativeDuration(let key):
            return "impairment profile: '\(key)' must not be negative"
        }
    }
}

extension ImpairmentProfile {
    /// Keys accepted by `init(parsing:)`; aliases map to the same field.
    package static let knownKeys = ["loss", "dup", "reorder", "gap", "delay", "jitter"]

    private static let aliases: [String: String] = [
        "loss": "loss", "drop": "loss",
        "dup": "dup", "duplicate": "dup",
        "reorder": "reorder",
        "gap": "gap", "reorder-delay": "gap", "reorderdelay": "gap",
        "delay": "delay", "latency": "delay",
        "jitter": "jitter",
    ]

    /// Parses `"loss=30,dup=5,reorder=10,gap=20ms,delay=5ms,jitter=2ms"`.
    ///
    /// Unset keys keep their defaults; `""` and `"none"` mean a clean path. Percentages may
    /// carry a trailing `%`. Durations need a unit (`ns`, `us`, `ms`, `s`) unless they are `0`.
    /// Keys are case-insensitive; spaces around items are ignored.
    package init(parsing text: String) throws(ImpairmentProfileError) {
        self.init()
        let trimmed = Self.trim(Substring(text))
        if trimmed.isEmpty || trimmed.lowercased() == "none" { return }
        var seen: Set<String> = []
        for (index, rawItem) in trimmed.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
            let item = Self.trim(rawItem)
            if item.isEmpty { throw .emptyItem(position: index + 1) }
            guard let eq = item.firstIndex(of: "=") else { throw .missingValue(key: String(item)) }
            let rawKey = Self.trim(item[..<eq]).lowercased()
            let value = Self.trim(item[item.index(after: eq)...])
            guard let key = Self.aliases[rawKey] else { throw .unknownKey(rawKey) }
            if value.isEmpty { throw .missingValue(key: key) }
            guard seen.insert(key).inserted else { throw .repeatedKey(key) }
            switch key {
            case "loss": lossPercent = try Self.parsePercent(value, key: key)
            case "dup": duplicatePercent = try Self.parsePercent(value, key: key)
            case "reorder": reorderPercent = try Self.parsePercent(value, key: key)
            case "gap": reorderExtraDelay = try Self.parseDuration(value, key: key)
            case "delay": delay = try Self.parseDuration(value, key: key)
            default: jitter = try Self.parseDuration(value, key: key)
            }
        }
    }

    static func trim(_ s: Substring) -> Substring {
        var s = s
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return s
    }

    static func parsePercent(_ text: Substring, key: String) throws(ImpairmentProfileError) -> Double {
        let digits = text.hasSuffix("%") ? text.dropLast() : text
        guard let value = Double(digits), value.isFinite else {
            throw .invalidPercent(key: key, text: String(text))
        }
        guard (0...100).contains(value) else { throw .percentOutOfRange(key: key, value: value) }
        return value
    }

    static func parseDuration(_ text: Substring, key: String) throws(ImpairmentProfileError) -> Duration {
        let units: [(String, Double)] = [("ns", 1), ("us", 1e3), ("µs", 1e3), ("ms", 1e6), ("s", 1e9)]
        var number = text
        var scale: Double? = nil
        for (suffix, nanos) in units where text.hasSuffix(suffix) {
            number = text.dropLast(suffix.count)
            scale = nanos
            break
        }
        guard let value = Double(number), value.isFinite else {
            throw .invalidDuration(key: key, text: String(text))
        }
        if value < 0 { throw .negativeDuration(key: key) }
        guard let scale = scale ?? (value == 0 ? 1 : nil) else {
            throw .invalidDuration(key: key, text: String(text))
        }
        let nanos = (value * scale).rounded()
        guard nanos < 1e15 else { throw .invalidDuration(key: key, text: String(text)) }
        return .nanoseconds(Int64(nanos))
    }
}
