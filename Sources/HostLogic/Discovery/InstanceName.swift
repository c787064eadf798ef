/// A DNS-SD service instance name (RFC 6763 §4.1.1): 1–63 bytes of UTF-8 (Net-Unicode),
/// no control characters. Spaces, dots and punctuation are allowed.
package struct InstanceName: Hashable, Sendable, CustomStringConvertible {
    package static let maxBytes = 63

    package let value: String

    package init(_ value: String) throws(DiscoveryNameError) {
        guard !value.isEmpty else { throw .emptyInstanceName }
        if let bad = value.unicodeScalars.first(where: { $0.properties.generalCategory == .control }) {
            throw .instanceNameControlCharacter(value, scalar: bad.value)
        }
        let bytes = value.utf8.count
        guard bytes <= Self.maxBytes else { throw .instanceNameTooLong(value, bytes: bytes) }
        self.value = value
    }

    package var description: String { value }

    /// "Remotion on <host>", built from the machine's host name: only the first label is
    /// used (`desk.example.org` → `desk`), control characters are dropped, and the result is
    /// cut to 63 bytes on a character boundary. An empty host name gives "Remotion".
    package static func defaultName(hostName: String) -> InstanceName {
        let firstLabel = hostName.split(separator: ".", maxSplits: 1).first.map(String.init) ?? ""
        var cleaned = String.UnicodeScalarView()
        cleaned.append(contentsOf: firstLabel.unicodeScalars.filter { $0.properties.generalCategory != .control })
        let host = String(cleaned)
        let text = host.isEmpty ? "Remotion" : "Remotion on \(host)"
        // Cannot throw: text is non-empty, has no control characters, and fits after truncation.
        return InstanceName(unchecked: truncate(text, maxBytes: maxBytes))
    }

    /// Longest prefix of whole characters (grapheme clusters) whose UTF-8 form fits `maxBytes`.
    package static func truncate(_ text: String, maxBytes: Int) -> String {
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > maxBytes { break }
            result.append(character)
            used += size
        }
        return result
    }

    private init(unchecked value: String) { self.value = value }
}
