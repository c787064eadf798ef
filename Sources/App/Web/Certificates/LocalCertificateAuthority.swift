import RemotionNetwork
import RemotionHostLogic
import Crypto
import Foundation
import X509

/// The per-host certificate authority behind the web controller's HTTPS (docs/WEB-CONTROLLER.md).
///
/// Files in the data directory (0700), all PEM, all 0600, each written atomically:
///
///     web-ca.pem       the CA certificate (the one phones are asked to trust)
///     web-ca-key.pem   its P-256 private key (PKCS#8)
///     web-cert.pem     the server certificate for <host>.local, localhost and the addresses
///     web-key.pem      its P-256 private key (PKCS#8)
///
/// The CA is made once and kept (a new CA means every phone has to trust it again); it is
/// only replaced when its files are missing, it expires within `renewalMargin`, or it lacks
/// the critical LAN-only NameConstraints (`LANNameConstraints`; CAs made before them). The
/// server certificate is re-issued when the wanted names differ from its SANs, it expires
/// within `renewalMargin`, it is not yet valid, or it (or its key) does not fit the CA.
package enum LocalCertificateAuthority {
    package static let caFile = "web-ca.pem"
    package static let caKeyFile = "web-ca-key.pem"
    package static let leafFile = "web-cert.pem"
    package static let leafKeyFile = "web-key.pem"
    /// Certificates expiring within 30 days are renewed.
    package static let renewalMargin: TimeInterval = 30 * 86_400

    /// Loads the CA and server certificate from `directory`, making or re-issuing what is
    /// missing or no longer fits `hostname` and `addresses` (IPv4 or IPv6 text).
    package static func loadOrCreate(
        directory: URL, hostname: String, addresses: [String], now: Date
    ) throws(PrivateFileError) -> WebCertificates {
        let dir = directory.path
        let names = try wantedNames(hostname: hostname, addresses: addresses)
        let dnsName = localName(for: hostname)
        try PrivateFiles.prepareDirectory(dir)

        var issuedCA = false
        var replaced: WebCertificates.Replacement?
        var ca: (certificate: Certificate, key: P256.Signing.PrivateKey)
        let existingCA = try loadCA(directory: dir)
        if let existing = existingCA,
           existing.certificate.notValidAfter.timeIntervalSince(now) > renewalMargin,
           LANNameConstraints.isConstrained(existing.certificate) {
            ca = existing
        } else {
            if let old = existingCA?.certificate {
                replaced = LANNameConstraints.isConstrained(old) ? .expiring : .unconstrained
            }
            ca = try attempt("make the local CA") { try CertificateIssuer.makeCA(hostname: hostname, now: now) }
            try writePEM(ca.key.pemRepresentation, dir, caKeyFile)
            try writePEM(try attempt("encode the CA") { try ca.certificate.serializeAsPEM().pemString }, dir, caFile)
            issuedCA = true
        }

        var issuedLeaf = false
        var leaf: (certificate: Certificate, key: P256.Signing.PrivateKey)
        if !issuedCA, let existing = try? loadPair(dir, leafFile, leafKeyFile),
           leafFits(existing.certificate, ca: ca.certificate, dnsName: dnsName, names: names, now: now) {
            leaf = existing
        } else {
            leaf = try attempt("issue the server certificate") {
                try CertificateIssuer.makeLeaf(dnsName: dnsName, names: names, ca: ca.certificate, caKey: ca.key, now: now)
            }
            try writePEM(leaf.key.pemRepresentation, dir, leafKeyFile)
            try writePEM(try attempt("encode the server certificate") { try leaf.certificate.serializeAsPEM().pemString },
                         dir, leafFile)
            issuedLeaf = true
        }
        return try attempt("encode the certificates") {
            try WebCertificates(ca: ca.certificate, leaf: leaf.certificate, leafKey: leaf.key,
                                issuedCA: issuedCA, issuedLeaf: issuedLeaf, replacedCA: replaced)
        }
    }

    /// The mDNS name the certificate is for: the first label of `hostname`, lowercased,
    /// anything outside letters, digits and '-' replaced by '-', plus ".local".
    package static func localName(for hostname: String) -> String {
        let label = hostname.lowercased().split(separator: ".").first.map(String.init) ?? ""
        let cleaned = String(label.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
        let trimmed = cleaned.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return (trimmed.isEmpty ? "remotion" : trimmed) + ".local"
    }

    /// `<host>.local`, `localhost` and every address the CA may vouch for (private, loopback,
    /// link-local: a public address in the leaf would make phones refuse the whole
    /// certificate); an address that does not parse is an error.
    package static func wantedNames(hostname: String, addresses: [String]) throws(PrivateFileError) -> CertificateNames {
        var ips = Set<[UInt8]>()
        for address in addresses {
            guard let bytes = IPAddressBytes.parse(address) else {
                throw PrivateFileError("cannot issue the server certificate: \"\(address)\" is not an IP address")
            }
            if LANNameConstraints.permits(address: bytes) { ips.insert(bytes) }
        }
        return CertificateNames(dnsNames: [localName(for: hostname), "localhost"], ipAddresses: ips)
    }

    static func leafFits(_ leaf: Certificate, ca: Certificate, dnsName: String, names: CertificateNames, now: Date) -> Bool {
        guard CertificateIssuer.isIssued(leaf, by: ca),
              leaf.notValidBefore <= now,
              leaf.notValidAfter.timeIntervalSince(now) > renewalMargin,
              leaf.subject == (try? CertificateIssuer.leafName(dnsName)),
              let have = try? CertificateNames(of: leaf)
        else { return false }
        return have == names
    }

    /// The CA and its key, or nil when either file is missing. A file that exists but does not
    /// parse, or a key that does not belong to the certificate, is an error: replacing the CA
    /// silently would break every phone that trusts it.
    static func loadCA(directory: String) throws(PrivateFileError) -> (certificate: Certificate, key: P256.Signing.PrivateKey)? {
        do {
            return try loadPair(directory, caFile, caKeyFile)
        } catch let error as PrivateFileError {
            throw PrivateFileError("\(error.description); delete \(directory)/\(caFile) and \(caKeyFile) to make a new CA (phones must then trust it again)")
        } catch {
            throw PrivateFileError("\(directory)/\(caFile) is unusable: \(error)")
        }
    }

    /// A certificate and its private key from two PEM files; nil if either is missing.
    static func loadPair(_ dir: String, _ certFile: String, _ keyFile: String) throws -> (certificate: Certificate, key: P256.Signing.PrivateKey)? {
        guard let certPEM = try PrivateFiles.read(dir + "/" + certFile),
              let keyPEM = try PrivateFiles.read(dir + "/" + keyFile) else { return nil }
        let certificate: Certificate
        let key: P256.Signing.PrivateKey
        do { certificate = try Certificate(pemEncoded: String(decoding: certPEM, as: UTF8.self)) } catch {
            throw PrivateFileError("\(dir)/\(certFile) is corrupt (not a PEM certificate)")
        }
        do { key = try P256.Signing.PrivateKey(pemRepresentation: String(decoding: keyPEM, as: UTF8.self)) } catch {
            throw PrivateFileError("\(dir)/\(keyFile) is corrupt (not a PEM P-256 private key)")
        }
        guard certificate.publicKey == Certificate.PublicKey(key.publicKey) else {
            throw PrivateFileError("\(dir)/\(keyFile) does not belong to \(dir)/\(certFile)")
        }
        return (certificate, key)
    }

    static func writePEM(_ pem: String, _ dir: String, _ name: String) throws(PrivateFileError) {
        let text = pem.hasSuffix("\n") ? pem : pem + "\n"
        try PrivateFiles.write(Array(text.utf8), directory: dir, name: name)
    }

    /// Runs a swift-certificates / swift-crypto step, turning its error into one line.
    static func attempt<T>(_ what: String, _ body: () throws -> T) throws(PrivateFileError) -> T {
        do { return try body() } catch { throw PrivateFileError("cannot \(what): \(error)") }
    }
}
