/// A DNS-SD TXT record (RFC 6763 §6): an ordered list of `key=value` strings.
///
/// Keys are 1+ printable ASCII characters (0x20–0x7E) without `=`, compared case-insensitively
/// and stored in lower case; each encoded string `key=value` is at most 255 bytes.
/// Encoding validates and throws; decoding data from the network is tolerant: strings with an
/// empty key are skipped, a string without `=` is a key with an empty value, and only the first
/// occurrence of a key counts (RFC 6763 §6.4).
package struct TXTRecord: Hashable, Sendable, CustomStringConvertible {
    package struct Entry: Hashable, Sendable {
        package let key: String
        package let value: String
    }

    package static let maxStringBytes = 255

    package private(set) var entries: [Entry]

    package init() { entries = [] }

    /// Builds a record from a dictionary; keys are emitted in sorted order.
    package init(_ dictionary: [String: String]) throws(TXTError) {
        self.init()
        for key in dictionary.keys.sorted() { try set(key, dictionary[key]!) }
    }

    /// Adds or replaces `key` (keeps its position when replacing).
    package mutating func set(_ key: String, _ value: String) throws(TXTError) {
        let key = try Self.validatedKey(key)
        let size = key.utf8.count + 1 + value.utf8.count
        guard size <= Self.maxStringBytes else {
            throw .entryTooLong(key: key, bytes: size)
        }
        let entry = Entry(key: key, value: value)
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index] = entry
        } else {
            entries.append(entry)
        }
    }

    package subscript(key: String) -> String? {
        let key = key.lowercased()
        return entries.first(where: { $0.key == key })?.value
    }

    package var dictionary: [String: String] {
        Dictionary(entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The DNS TXT strings, `["v=1", "id=…"]`.
    package var strings: [String] { entries.map { "\($0.key)=\($0.value)" } }

    /// Tolerant decoding of TXT strings as received from the network.
    package init(decoding strings: [String]) {
        self.init()
        for string in strings {
            let parts = string.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = String(parts[0]).lowercased()
            let value = parts.count > 1 ? String(parts[1]) : ""
            guard !key.isEmpty, (try? Self.validatedKey(key)) != nil else { continue }
            guard !entries.contains(where: { $0.key == key }) else { continue }
            entries.append(Entry(key: key, value: value))
        }
    }

    package var description: String { strings.joined(separator: " ") }

    static func validatedKey(_ key: String) throws(TXTError) -> String {
        guard !key.isEmpty else { throw .emptyKey }
        for scalar in key.unicodeScalars where !(0x20...0x7E).contains(scalar.value) || scalar == "=" {
            throw .keyCharacter(key: key, scalar: scalar.value)
        }
        return key.lowercased()
    }
}

/// Why a TXT record or one of its entries was refused.
package enum TXTError: Error, Hashable, Sendable, CustomStringConvertible {
    case emptyKey
    case keyCharacter(key: String, scalar: UInt32)
    case entryTooLong(key: String, bytes: Int)
    case missingKey(String)
    case badValue(key: String, value: String, expected: String)

    package var description: String {
        switch self {
        case .emptyKey:
            return "TXT key is empty: use a short printable ASCII key such as 'v'"
        case let .keyCharacter(key, scalar):
            let hex = String(scalar, radix: 16, uppercase: true)
            return "TXT key '\(key.debugDescription)' contains U+\(hex): use printable ASCII without '='"
        case let .entryTooLong(key, bytes):
            return "TXT entry '\(key)=…' is \(bytes) bytes: shorten it to at most 255 bytes"
        case let .missingKey(key):
            return "TXT record has no '\(key)' entry: the host must publish \(key)=…"
        case let .badValue(key, value, expected):
            return "TXT entry \(key)=\(value) is invalid: expected \(expected)"
        }
    }
}

extension TXTRecord {
    /// DNS TXT RDATA: each string as one length byte plus its bytes (RFC 1035 §3.3.14).
    /// An empty record is a single zero byte (RFC 6763 §6.1).
    package var wireBytes: [UInt8] {
        if entries.isEmpty { return [0] }
        var bytes: [UInt8] = []
        for string in strings {
            let utf8 = Array(string.utf8)
            bytes.append(UInt8(utf8.count)) // ≤ 255, checked by `set`
            bytes.append(contentsOf: utf8)
        }
        return bytes
    }

    /// Tolerant decoding of TXT RDATA; a truncated last string is dropped.
    package init(wireBytes: [UInt8]) {
        var strings: [String] = []
        var index = 0
        while index < wireBytes.count {
            let length = Int(wireBytes[index])
            index += 1
            guard index + length <= wireBytes.count else { break }
            if length > 0 {
                strings.append(String(decoding: wireBytes[index..<(index + length)], as: UTF8.self))
            }
            index += length
        }
        self.init(decoding: strings)
    }
}
