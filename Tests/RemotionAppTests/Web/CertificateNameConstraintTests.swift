import Foundation
import Testing
import RemotionApp
import RemotionHostLogic
import RemotionTestSupport

/// The local CA can vouch only for the LAN. Checked with the openssl
/// command-line tool against the real files the host writes: a leaf for a public name or a
/// public address signed with web-ca-key.pem fails `openssl verify`, the host's own leaf
/// and a leaf for another .local name or a private address verify. Before the fix the
/// www.example.com leaf verified.
@Suite struct CertificateNameConstraintTests {
    /// Signs a new P-256 leaf for `san` (an openssl subjectAltName value) with the host's CA.
    func signWithHostCA(_ dir: TemporaryDirectory, cn: String, san: String) throws -> String {
        let name = san.replacingOccurrences(of: ":", with: "_").replacingOccurrences(of: ",", with: "_")
        let key = dir.path + "/\(name).key", csr = dir.path + "/\(name).csr", leaf = dir.path + "/\(name).pem"
        let ext = dir.path + "/\(name).ext"
        try "subjectAltName=\(san)\nextendedKeyUsage=serverAuth\n".write(toFile: ext, atomically: true, encoding: .utf8)
        let gen = try runTool("openssl", ["req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                          "-keyout", key, "-out", csr, "-subj", "/CN=\(cn)"])
        #expect(gen.status == 0, "\(gen.stderr)")
        let sign = try runTool("openssl", ["x509", "-req", "-in", csr, "-CA", dir.path + "/web-ca.pem",
                                           "-CAkey", dir.path + "/web-ca-key.pem", "-CAcreateserial", "-days", "30",
                                           "-extfile", ext, "-out", leaf])
        #expect(sign.status == 0, "\(sign.stderr)")
        return leaf
    }

    func verify(_ dir: TemporaryDirectory, _ leaf: String) throws -> ToolResult {
        try runTool("openssl", ["verify", "-CAfile", dir.path + "/web-ca.pem", "-purpose", "sslserver", leaf])
    }

    @Test func aLeafForAPublicNameOrAddressFailsAndTheHostsOwnVerifies() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        _ = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio",
                                                       addresses: ["192.168.1.20", "fe80::1", "127.0.0.1", "::1"], now: Date())
        let own = try verify(dir, dir.path + "/web-cert.pem")
        #expect(own.status == 0 && own.stdout.hasSuffix(": OK\n"), "\(own.stdout)\(own.stderr)")

        for (cn, san) in [("www.example.com", "DNS:www.example.com"), ("bank", "DNS:bank.example"),
                          ("ip", "IP:93.184.216.34"), ("ip6", "IP:2001:db8::1"),
                          ("mixed", "DNS:studio.local,DNS:www.example.com")] {
            let result = try verify(dir, try signWithHostCA(dir, cn: cn, san: san))
            #expect(result.status != 0, "\(san) verified: \(result.stdout)")
            #expect((result.stdout + result.stderr).contains("subtree violation"), "\(san): \(result.stdout)\(result.stderr)")
        }
        for (cn, san) in [("other", "DNS:printer.local"), ("ip", "IP:10.1.2.3"), ("ula", "IP:fd00::5"),
                          ("ll", "IP:169.254.9.9"), ("lo", "DNS:localhost")] {
            let result = try verify(dir, try signWithHostCA(dir, cn: cn, san: san))
            #expect(result.status == 0, "\(san) refused: \(result.stdout)\(result.stderr)")
        }

        let text = try runTool("openssl", ["x509", "-in", dir.path + "/web-ca.pem", "-noout", "-text"])
        #expect(text.stdout.contains("X509v3 Name Constraints: critical"))
    }

    @Test func publicAddressesAreLeftOutOfTheLeaf() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        _ = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio",
                                                       addresses: ["192.168.1.20", "203.0.113.7", "2a01:4f8::1"], now: Date())
        let text = try runTool("openssl", ["x509", "-in", dir.path + "/web-cert.pem", "-noout", "-ext", "subjectAltName"])
        #expect(text.stdout.contains("192.168.1.20") && !text.stdout.contains("203.0.113.7") && !text.stdout.contains("2A01"),
                "\(text.stdout)")
        #expect(try verify(dir, dir.path + "/web-cert.pem").status == 0)
    }

    @Test func anUnconstrainedCAFromBeforeIsReplaced() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        // The old CA: like the host's before name constraints (10 years, no NameConstraints).
        let gen = try runTool("openssl", ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                                          "-keyout", dir.path + "/web-ca-key.pem", "-out", dir.path + "/web-ca.pem",
                                          "-days", "3650", "-subj", "/CN=Remotion local CA (studio)/O=Remotion",
                                          "-addext", "basicConstraints=critical,CA:TRUE,pathlen:0",
                                          "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        #expect(gen.status == 0, "\(gen.stderr)")
        let old = try Data(contentsOf: URL(fileURLWithPath: dir.path + "/web-ca.pem"))
        let certs = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio",
                                                               addresses: ["192.168.1.20"], now: Date())
        #expect(certs.issuedCA && certs.replacedCA == .unconstrained)
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path + "/web-ca.pem")) != old)
        let again = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio",
                                                               addresses: ["192.168.1.20"], now: Date())
        #expect(!again.issuedCA && again.replacedCA == nil && again.caDER == certs.caDER)
        // The fingerprint the host prints is openssl's SHA-256 fingerprint of the CA, unchanged.
        let fp = try runTool("openssl", ["x509", "-in", dir.path + "/web-ca.pem", "-noout", "-fingerprint", "-sha256"])
        #expect(fp.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "=").last.map(String.init)
                == certs.caFingerprint)
    }

    @Test func theCALivesTwoYearsAndIsRenewedNearItsEnd() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let first = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio",
                                                               addresses: ["192.168.1.20"], now: start)
        let text = try runTool("openssl", ["x509", "-in", dir.path + "/web-ca.pem", "-noout", "-enddate"])
        #expect(text.stdout.contains("2028") || text.stdout.contains("2029"), "\(text.stdout)")
        let day690 = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio",
                                                                addresses: ["192.168.1.20"], now: start + 690 * 86_400)
        #expect(!day690.issuedCA && day690.caDER == first.caDER)
        let day710 = try LocalCertificateAuthority.loadOrCreate(directory: dir.url, hostname: "studio",
                                                                addresses: ["192.168.1.20"], now: start + 710 * 86_400)
        #expect(day710.issuedCA && day710.replacedCA == .expiring && day710.caDER != first.caDER)
    }
}
