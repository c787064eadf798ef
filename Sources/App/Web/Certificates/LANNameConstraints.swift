import SwiftASN1
import X509

/// What the local CA may vouch for (docs/SECURITY.md §11.1): a critical NameConstraints extension
/// that permits only `.local` names, `localhost`, and the private, loopback and link-local
/// address ranges. A certificate it signs for any other name (www.example.com, a public
/// address) fails path validation in every RFC 5280 client (OpenSSL, iOS, Android, browsers),
/// so a stolen `web-ca-key.pem` cannot impersonate a public site to a phone that trusts the CA.
enum LANNameConstraints {
    /// DNS subtrees: "local" permits every name under .local (RFC 5280 §4.2.1.10).
    static let dnsDomains = ["local", "localhost"]

    /// (network, prefix length) for IPv4 and IPv6: RFC 1918, loopback, link-local; ::1, ULA, link-local.
    static let ranges: [(network: [UInt8], prefix: Int)] = [
        ([10, 0, 0, 0], 8), ([172, 16, 0, 0], 12), ([192, 168, 0, 0], 16),
        ([127, 0, 0, 0], 8), ([169, 254, 0, 0], 16),
        ([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1], 128),
        ([0xfc] + [UInt8](repeating: 0, count: 15), 7),
        ([0xfe, 0x80] + [UInt8](repeating: 0, count: 14), 10),
    ]

    /// The iPAddress subtrees: address then mask (8 bytes for IPv4, 32 for IPv6).
    static var ipRanges: [ASN1OctetString] {
        ranges.map { ASN1OctetString(contentBytes: ($0.network + mask($0.prefix, bytes: $0.network.count))[...]) }
    }

    static var extensionValue: NameConstraints {
        NameConstraints(permittedDNSDomains: dnsDomains, permittedIPRanges: ipRanges)
    }

    /// Whether 4 or 16 address bytes fall in one of the permitted ranges.
    static func permits(address: [UInt8]) -> Bool {
        ranges.contains { range in
            guard range.network.count == address.count else { return false }
            let m = mask(range.prefix, bytes: address.count)
            return zip(zip(address, range.network), m).allSatisfy { ($0.0 & $1) == ($0.1 & $1) }
        }
    }

    /// Whether `ca` carries exactly these constraints, marked critical.
    static func isConstrained(_ ca: Certificate) -> Bool {
        guard let ext = ca.extensions[oid: .X509ExtensionID.nameConstraints], ext.critical,
              let constraints = try? NameConstraints(ext) else { return false }
        return constraints == extensionValue
    }

    static func mask(_ prefix: Int, bytes: Int) -> [UInt8] {
        (0..<bytes).map { i in
            let bits = max(0, min(8, prefix - 8 * i))
            return bits == 0 ? 0 : UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
        }
    }
}
