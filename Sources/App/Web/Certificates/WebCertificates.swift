import RemotionHostLogic
import Crypto
import Foundation
import SwiftASN1
import X509

/// What the HTTPS server needs from the local CA, and what the host prints and serves.
package struct WebCertificates: Sendable, Equatable {
    /// The CA certificate (PEM and DER): served at /ca.crt and inside /ca.mobileconfig.
    package var caPEM: String
    package var caDER: [UInt8]
    /// The server (leaf) certificate and its private key (PKCS#8 PEM) for the TLS server.
    package var leafPEM: String
    package var leafDER: [UInt8]
    package var leafKeyPEM: String
    /// The chain the TLS server sends: leaf then CA.
    package var chainPEM: String { leafPEM + caPEM }
    /// SHA-256 of the leaf's DER.
    package var leafSHA256: [UInt8]
    /// `leafSHA256` as shown to people and put in the pairing URL's `fp=`.
    package var fingerprint: String { Self.displayFingerprint(leafSHA256) }
    package var leafNotAfter: Date
    /// SHA-256 of the CA's DER, as the phone's own certificate screens show it.
    package var caSHA256: [UInt8]
    /// `caSHA256` as colon-separated uppercase hex ("AB:CD:…", 32 bytes): what Android's
    /// and Firefox's certificate details show (iOS shows the same bytes with spaces).
    package var caFingerprint: String { Self.colonHex(caSHA256) }
    /// Why an existing CA was replaced (nil: kept, or made for the first time).
    package enum Replacement: Sendable, Equatable { case unconstrained, expiring }
    package var replacedCA: Replacement?
    /// Whether this load made a new CA (phones must trust it again) or a new leaf.
    package var issuedCA: Bool
    package var issuedLeaf: Bool
    package var reissued: Bool { issuedCA || issuedLeaf }

    /// The first 16 bytes of a digest as uppercase hex, grouped by 4 digits with '-':
    /// "1A2B-3C4D-5E6F-7081-92A3-B4C5-D6E7-F809".
    package static func displayFingerprint(_ digest: some Collection<UInt8>) -> String {
        let hex = digest.prefix(16).map { byte in
            let s = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + s : s
        }.joined()
        let chars = Array(hex)
        return stride(from: 0, to: chars.count, by: 4).map { String(chars[$0..<min($0 + 4, chars.count)]) }
            .joined(separator: "-")
    }

    package static func colonHex(_ digest: some Collection<UInt8>) -> String {
        digest.map { byte in
            let s = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + s : s
        }.joined(separator: ":")
    }

    init(ca: Certificate, leaf: Certificate, leafKey: P256.Signing.PrivateKey, issuedCA: Bool, issuedLeaf: Bool,
         replacedCA: Replacement? = nil) throws {
        caPEM = try ca.serializeAsPEM().pemString + "\n"
        caDER = try ca.derBytes()
        caSHA256 = Array(SHA256.hash(data: caDER))
        self.replacedCA = replacedCA
        leafPEM = try leaf.serializeAsPEM().pemString + "\n"
        leafDER = try leaf.derBytes()
        leafKeyPEM = leafKey.pemRepresentation + "\n"
        leafSHA256 = Array(SHA256.hash(data: leafDER))
        leafNotAfter = leaf.notValidAfter
        self.issuedCA = issuedCA
        self.issuedLeaf = issuedLeaf
    }
}

/// The names a leaf certificate is for: DNS names (lowercase) and IP address bytes.
package struct CertificateNames: Sendable, Hashable {
    package var dnsNames: Set<String>
    package var ipAddresses: Set<[UInt8]>

    package init(dnsNames: Set<String>, ipAddresses: Set<[UInt8]>) {
        self.dnsNames = dnsNames
        self.ipAddresses = ipAddresses
    }

    /// The SAN entries in a stable order: DNS names, then IPv4, then IPv6, each sorted.
    var generalNames: [GeneralName] {
        dnsNames.sorted().map { GeneralName.dnsName($0) }
            + ipAddresses.sorted { $0.count != $1.count ? $0.count < $1.count : $0.lexicographicallyPrecedes($1) }
            .map { GeneralName.ipAddress(ASN1OctetString(contentBytes: $0[...])) }
    }

    /// The names in a certificate's subjectAlternativeName extension (empty if it has none).
    package init(of certificate: Certificate) throws {
        var dns = Set<String>()
        var ips = Set<[UInt8]>()
        for name in try certificate.extensions.subjectAlternativeNames ?? SubjectAlternativeNames() {
            switch name {
            case let .dnsName(n): dns.insert(n.lowercased())
            case let .ipAddress(octets): ips.insert(Array(octets.bytes))
            default: continue
            }
        }
        self.init(dnsNames: dns, ipAddresses: ips)
    }
}

extension Certificate {
    func derBytes() throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(self)
        return serializer.serializedBytes
    }
}
