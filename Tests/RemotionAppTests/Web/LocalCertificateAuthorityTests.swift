import RemotionNetwork
import Crypto
import Foundation
import SwiftASN1
import Testing
@_spi(FixedExpiryValidationTime) import X509
import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import RemotionTestSupport

@Suite struct LocalCertificateAuthorityTests {
    let start = Date(timeIntervalSince1970: 1_760_000_000)   // 2025-10-09
    let addresses = ["192.168.1.20", "10.0.0.7", "fe80::1c2d:3e4f:5a6b:7c8d%en0", "::1", "127.0.0.1"]

    func files(_ dir: TemporaryDirectory) throws -> [String: Data] {
        var out: [String: Data] = [:]
        for name in ["web-ca.pem", "web-ca-key.pem", "web-cert.pem", "web-key.pem"] {
            out[name] = try Data(contentsOf: dir.url.appendingPathComponent(name))
        }
        return out
    }

    @Test func madeOnceThenReusedAcrossRestarts() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let first = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio", addresses: addresses, now: start)
        #expect(first.issuedCA && first.issuedLeaf)
        let onDisk = try files(dir)
        // A "restart" a day later with the same addresses in another order and spelling.
        let again = try LocalCertificateAuthority.loadOrCreate(
            directory: dir.url, hostname: "studio", addresses: ["127.0.0.1", "0:0::1", "10.0.0.7", "FE80::1C2D:3E4F:5A6B:7C8D", "192.168.1.20"],
            now: start + 86_400)
        #expect(!again.reissued)
        #expect(again.caDER == first.caDER)
        #expect(again.leafDER == first.leafDER)
        #expect(again.leafKeyPEM == first.leafKeyPEM)
        #expect(again.fingerprint == first.fingerprint)
        #expect(try files(dir) == onDisk)
    }

    @Test func leafCarriesTheWantedNamesAndProfile() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let certs = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "Studio-Mac.local", addresses: addresses, now: start)
        let leaf = try Certificate(derEncoded: certs.leafDER)
        let ca = try Certificate(derEncoded: certs.caDER)
        let san = try #require(try leaf.extensions.subjectAlternativeNames)
        var dns: Set<String> = [], ips: Set<String> = []
        for name in san {
            switch name {
            case let .dnsName(n): dns.insert(n)
            case let .ipAddress(o): ips.insert(IPAddressBytes.format(o.bytes))
            default: Issue.record("unexpected SAN \(name)")
            }
        }
        #expect(dns == ["studio-mac.local", "localhost"])
        #expect(ips == ["192.168.1.20", "10.0.0.7", "fe80::1c2d:3e4f:5a6b:7c8d", "::1", "127.0.0.1"])
        #expect(leaf.subject.description == "CN=studio-mac.local")
        #expect(ca.subject.description.contains("CN=Remotion local CA (Studio-Mac.local)"))
        #expect(try leaf.extensions.extendedKeyUsage == ExtendedKeyUsage([.serverAuth]))
        #expect(try leaf.extensions.keyUsage == KeyUsage(digitalSignature: true))
        #expect(try leaf.extensions.basicConstraints == .notCertificateAuthority)
        #expect(try ca.extensions.basicConstraints == .isCertificateAuthority(maxPathLength: 0))
        #expect(try ca.extensions.keyUsage == KeyUsage(keyCertSign: true, cRLSign: true))
        let leafDays = leaf.notValidAfter.timeIntervalSince(leaf.notValidBefore) / 86_400
        #expect(leafDays <= 397 && leafDays > 390)
        let caDays = ca.notValidAfter.timeIntervalSince(ca.notValidBefore) / 86_400
        #expect(caDays > 729.9 && caDays < 730.1)   // two years, renewed at start near the end
        let constraints = try #require(ca.extensions[oid: .X509ExtensionID.nameConstraints])
        #expect(constraints.critical)
        #expect(try NameConstraints(constraints).permittedDNSDomains.sorted() == ["local", "localhost"])
        #expect(leaf.serialNumber != ca.serialNumber)
        for serial in [leaf.serialNumber, ca.serialNumber] {
            #expect(serial.bytes.count == 20 && serial.bytes.first! & 0xC0 == 0x40)   // positive, 20 DER octets
        }
    }

    @Test func changedAddressesReissueTheLeafButKeepTheCA() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let first = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio", addresses: addresses, now: start)
        let moved = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio",
                                                               addresses: ["192.168.1.21", "::1"], now: start + 60)
        #expect(!moved.issuedCA && moved.issuedLeaf)
        #expect(moved.caDER == first.caDER)
        #expect(moved.leafDER != first.leafDER && moved.fingerprint != first.fingerprint)
        #expect(try CertificateNames(of: Certificate(derEncoded: moved.leafDER)).ipAddresses
            == [[192, 168, 1, 21], IPAddressBytes.parse("::1")!])
        let renamed = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "attic",
                                                                 addresses: ["192.168.1.21", "::1"], now: start + 120)
        #expect(!renamed.issuedCA && renamed.issuedLeaf && renamed.caDER == first.caDER)
        #expect(try Certificate(derEncoded: renamed.leafDER).subject.description == "CN=attic.local")
    }

    @Test func leafExpiringWithin30DaysIsReissued() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let first = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio", addresses: addresses, now: start)
        let day365 = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio", addresses: addresses,
                                                                now: start + 365 * 86_400)
        #expect(!day365.reissued)   // 31 days left
        let day367 = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio", addresses: addresses,
                                                                now: start + 367 * 86_400)
        #expect(day367.issuedLeaf && !day367.issuedCA && day367.caDER == first.caDER)
        #expect(day367.leafNotAfter > start + 760 * 86_400)
    }

    @Test func leafVerifiesAgainstTheCA() async throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let certs = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio", addresses: addresses, now: start)
        let ca = try Certificate(pemEncoded: certs.caPEM)
        let leaf = try Certificate(pemEncoded: certs.leafPEM)
        #expect(leaf.issuer == ca.subject)
        #expect(ca.publicKey.isValidSignature(leaf.signature, for: leaf))
        for (host, ip) in [("studio.local", nil), (nil, "192.168.1.20"), (nil, "fe80::1c2d:3e4f:5a6b:7c8d"), ("localhost", nil)] as [(String?, String?)] {
            var verifier = Verifier(rootCertificates: CertificateStore([ca])) {
                RFC5280Policy(fixedExpiryValidationTime: start + 3_600)
                ServerIdentityPolicy(serverHostname: host, serverIP: ip)
            }
            let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore())
            guard case .validCertificate = result else {
                Issue.record("leaf did not verify for \(host ?? ip ?? "?"): \(result)")
                continue
            }
        }
        // And a name it is not for is refused.
        var wrong = Verifier(rootCertificates: CertificateStore([ca])) {
            RFC5280Policy(fixedExpiryValidationTime: start + 3_600)
            ServerIdentityPolicy(serverHostname: nil, serverIP: "192.168.1.99")
        }
        guard case .couldNotValidate = await wrong.validate(leaf: leaf, intermediates: CertificateStore()) else {
            Issue.record("a leaf for other addresses verified"); return
        }
    }

    @Test func filesArePrivate() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let data = dir.url.appendingPathComponent("nested/remotion")
        _ = try LocalCertificateAuthority.loadOrCreate(directory: data, hostname: "studio", addresses: addresses, now: start)
        #expect(PrivateFiles.mode(of: data.path) == 0o700)
        for name in ["web-ca.pem", "web-ca-key.pem", "web-cert.pem", "web-key.pem"] {
            #expect(PrivateFiles.mode(of: data.appendingPathComponent(name).path) == 0o600, "\(name)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: data.path).sorted()
        #expect(left == ["web-ca-key.pem", "web-ca.pem", "web-cert.pem", "web-key.pem"])
    }

    @Test func fingerprintDisplayForm() throws {
        let digest: [UInt8] = [0x1A, 0x2B, 0x3C, 0x4D, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0xBC, 0xDE, 0xF0, 0x00, 0xFF, 0x10, 0x99]
        #expect(WebCertificates.displayFingerprint(digest) == "1A2B-3C4D-0506-0708-090A-BCDE-F000-FF10")
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let certs = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio", addresses: [], now: start)
        #expect(certs.fingerprint == WebCertificates.displayFingerprint(Array(SHA256.hash(data: certs.leafDER))))
        #expect(certs.fingerprint.count == 39)
    }

    @Test func errorsAreOneClearLine() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        #expect(throws: PrivateFileError("cannot issue the server certificate: \"not-an-ip\" is not an IP address")) {
            try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "h", addresses: ["not-an-ip"], now: start)
        }
        // A file where the directory should be.
        let blocker = dir.url.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        do {
            _ = try LocalCertificateAuthority.loadOrCreate(directory: blocker, hostname: "h", addresses: [], now: start)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "cannot create \(blocker.path): a file of that name is in the way")
        }
        // A corrupt CA is reported, not silently replaced.
        let data = dir.url.appendingPathComponent("data")
        _ = try LocalCertificateAuthority.loadOrCreate(directory: data, hostname: "h", addresses: [], now: start)
        try Data("garbage".utf8).write(to: data.appendingPathComponent("web-ca.pem"))
        do {
            _ = try LocalCertificateAuthority.loadOrCreate(directory: data, hostname: "h", addresses: [], now: start)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("\(data.path)/web-ca.pem is corrupt"))
            #expect(!error.description.contains("\n"))
        }
        // A failing write names the file and the reason.
        let long = String(repeating: "n", count: 300)
        #expect(throws: PrivateFileError("cannot write \(dir.path)/\(long): File name too long")) {
            try PrivateFiles.write([1], directory: dir.path, name: long)
        }
    }
}
