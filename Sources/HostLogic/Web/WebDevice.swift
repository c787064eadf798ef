import Crypto
import Foundation

/// A browser that paired with this host: what `web-controllers.json` keeps for it.
/// Only the SHA-256 of its credential is stored; the credential itself went to the phone once.
package struct WebDevice: Codable, Sendable, Hashable {
    /// 16 lowercase hex digits (8 random bytes), what the phone sends in `hello.id`.
    package var id: String
    package var name: String
    /// SHA-256 of the 32 credential bytes, lowercase hex.
    package var credentialHash: String
    package var created: Date
    /// May this phone type (text, Return, Tab, …: a full keyboard)? nil (older files) and
    /// true: yes; `remotion devices --no-typing NAME` sets false (docs/SECURITY.md §9).
    package var typing: Bool?

    /// Whether the phone may type.
    package var mayType: Bool { typing ?? true }

    package init(id: String, name: String, credentialHash: String, created: Date) {
        self.id = id
        self.name = name
        self.credentialHash = credentialHash
        self.created = created
    }

    package static let credentialLength = 32
    package static let maxNameLength = 64

    /// SHA-256 of a credential's bytes as lowercase hex.
    package static func hash(credential bytes: [UInt8]) -> String {
        Hex.encode(SHA256.hash(data: bytes))
    }

    /// Whether `credential` (base64url of 32 bytes) is this device's, comparing the
    /// SHA-256 digests with `equal` (constant time by default).
    package func accepts(
        credential: String,
        equal: (_ stored: [UInt8], _ presented: [UInt8]) -> Bool = { ConstantTime.equal($0, $1) }
    ) -> Bool {
        guard let bytes = Base64URL.decode(credential), bytes.count == Self.credentialLength,
              let stored = Hex.decode(credentialHash) else { return false }
        return equal(stored, Array(SHA256.hash(data: bytes)))
    }

    /// The name as the user typed it, made safe to store and show: control and format
    /// characters (including bidi overrides) removed, whitespace runs collapsed to one
    /// space, trimmed, at most 64 characters; empty becomes `fallback`.
    package static func cleanName(_ raw: String, fallback: String = "Web controller") -> String {
        var out = ""
        var pendingSpace = false
        for scalar in raw.unicodeScalars {
            let p = scalar.properties
            if p.isWhitespace || scalar.value == 0x85 {
                pendingSpace = !out.isEmpty
                continue
            }
            if p.generalCategory == .control || p.generalCategory == .format
                || p.generalCategory == .lineSeparator || p.generalCategory == .paragraphSeparator
                || p.generalCategory == .surrogate || p.generalCategory == .unassigned {
                continue
            }
            if pendingSpace { out.unicodeScalars.append(" "); pendingSpace = false }
            out.unicodeScalars.append(scalar)
        }
        let limited = String(out.prefix(maxNameLength))
        let trimmed = limited.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? fallback : trimmed
    }
}

package enum Hex {
    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }

    package static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(chars.count / 2)
        for i in stride(from: 0, to: chars.count, by: 2) {
            guard let h = nibble(chars[i]), let l = nibble(chars[i + 1]) else { return nil }
            out.append(h << 4 | l)
        }
        return out
    }
}
