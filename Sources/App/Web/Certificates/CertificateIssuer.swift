import RemotionHostLogic
import Crypto
import Foundation
import SwiftASN1
import X509
import RemotionProtocol

/// Makes the local CA and its server certificates (P-256, ECDSA with SHA-256).
enum CertificateIssuer {
    /// Two years (730 days): renewed at start within `LocalCertificateAuthority.renewalMargin`
    /// of its end (phones then install and trust the new one).
    static let caLifetime: TimeInterval = 730 * 86_400
    /// Apple platforms refuse TLS server certificates valid for more than 398 days
    /// (support.apple.com/102028); 396 days plus the 1-hour backdating stays under 397.
    static let leafLifetime: TimeInterval = 396 * 86_400
    /// notBefore is set this far in the past so a phone whose clock is a little behind
    /// still accepts a certificate made a moment ago.
    static let backdating: TimeInterval = 3_600

    static func caName(hostname: String) throws -> DistinguishedName {
        try DistinguishedName {
            CommonName("Remotion local CA (\(hostname))")
            OrganizationName("Remotion")
        }
    }

    static func leafName(_ dnsName: String) throws -> DistinguishedName {
        try DistinguishedName { CommonName(dnsName) }
    }

    static func makeCA(hostname: String, now: Date) throws -> (Certificate, P256.Signing.PrivateKey) {
        let key = P256.Signing.PrivateKey()
        let publicKey = Certificate.PublicKey(key.publicKey)
        let name = try caName(hostname: hostname)
        let certificate = try Certificate(
            version: .v3,
            serialNumber: randomSerial(),
            publicKey: publicKey,
            notValidBefore: now - backdating,
            notValidAfter: now + caLifetime,
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                Critical(LANNameConstraints.extensionValue)
                SubjectKeyIdentifier(hash: publicKey)
            },
            issuerPrivateKey: Certificate.PrivateKey(key)
        )
        return (certificate, key)
    }

    static func makeLeaf(
        dnsName: String, names: CertificateNames, ca: Certificate, caKey: P256.Signing.PrivateKey, now: Date
    ) throws -> (Certificate, P256.Signing.PrivateKey) {
        let key = P256.Signing.PrivateKey()
        let publicKey = Certificate.PublicKey(key.publicKey)
        let caKeyID = try ca.extensions.subjectKeyIdentifier?.keyIdentifier
            ?? SubjectKeyIdentifier(hash: ca.publicKey).keyIdentifier
        let certificate = try Certificate(
            version: .v3,
            serialNumber: randomSerial(),
            publicKey: publicKey,
            notValidBefore: now - backdating,
            notValidAfter: now + leafLifetime,
            issuer: ca.subject,
            subject: try leafName(dnsName),
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames(names.generalNames)
                SubjectKeyIdentifier(hash: publicKey)
                AuthorityKeyIdentifier(keyIdentifier: caKeyID)
            },
            issuerPrivateKey: Certificate.PrivateKey(caKey)
        )
        return (certificate, key)
    }

    /// 20 random bytes with the top bit clear and the next set: a positive INTEGER whose DER
    /// content is exactly 20 octets (RFC 5280 §4.1.2.2's limit; swift-certificates' own random
    /// serial can need a 21st, a leading zero, which some stacks refuse), 158 random bits.
    static func randomSerial() -> Certificate.SerialNumber {
        var rng = SecureRandom()
        var bytes = (0..<20).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes[0] = (bytes[0] & 0x3F) | 0x40
        return Certificate.SerialNumber(bytes: bytes)
    }

    /// Whether `leaf` was signed by `ca`'s key and names it as issuer.
    static func isIssued(_ leaf: Certificate, by ca: Certificate) -> Bool {
        leaf.issuer == ca.subject && ca.publicKey.isValidSignature(leaf.signature, for: leaf)
    }
}
