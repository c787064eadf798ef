import Foundation
import Testing
import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import RemotionTestSupport

/// Checks the written PEM files with the openssl command-line tool (Debian: openssl).
@Suite struct CertificateOpenSSLTests {
    @Test func opensslVerifiesTheChainAndShowsTheNames() throws {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        // openssl checks validity against the real clock, so issue for now.
        let certs = try LocalCertificateAuthority.loadOrCreate(
            directory: dir.url, hostname: "studio", addresses: ["192.168.1.20", "fe80::1c2d:3e4f:5a6b:7c8d", "127.0.0.1"], now: Date())
        let ca = dir.path + "/web-ca.pem", leaf = dir.path + "/web-cert.pem"

        let verify = try runTool("openssl", ["verify", "-CAfile", ca, "-purpose", "sslserver",
                                             "-verify_hostname", "studio.local", leaf])
        #expect(verify.status == 0, "\(verify.stderr)")
        #expect(verify.stdout == "\(leaf): OK\n")
        let byIP = try runTool("openssl", ["verify", "-CAfile", ca, "-purpose", "sslserver", "-verify_ip", "192.168.1.20", leaf])
        #expect(byIP.status == 0 && byIP.stdout == "\(leaf): OK\n", "\(byIP.stderr)")
        let wrongIP = try runTool("openssl", ["verify", "-CAfile", ca, "-verify_ip", "192.168.1.21", leaf])
        #expect(wrongIP.status != 0)

        let text = try runTool("openssl", ["x509", "-in", leaf, "-noout", "-text"])
        #expect(text.status == 0)
        let sanLine = sanLine(of: text.stdout)
        #expect(sanLine == "DNS:localhost, DNS:studio.local, IP Address:127.0.0.1, IP Address:192.168.1.20, IP Address:FE80:0:0:0:1C2D:3E4F:5A6B:7C8D")
        #expect(text.stdout.contains("TLS Web Server Authentication"))
        #expect(text.stdout.contains("Subject: CN = studio.local"))
        #expect(text.stdout.contains("Public-Key: (256 bit)") && text.stdout.contains("ecdsa-with-SHA256"))

        let caText = try runTool("openssl", ["x509", "-in", ca, "-noout", "-text"])
        #expect(caText.stdout.contains("CA:TRUE, pathlen:0"))
        #expect(caText.stdout.contains("Certificate Sign, CRL Sign"))
        #expect(caText.stdout.contains("Subject: CN = Remotion local CA (studio), O = Remotion"))

        // The fingerprint the host prints is openssl's SHA-256 fingerprint, shortened.
        let fp = try runTool("openssl", ["x509", "-in", leaf, "-noout", "-fingerprint", "-sha256"])
        let hex = fp.stdout.split(separator: "=").last.map { $0.replacingOccurrences(of: ":", with: "") }?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let grouped = stride(from: 0, to: 32, by: 4).map { i in
            String(hex[hex.index(hex.startIndex, offsetBy: i)..<hex.index(hex.startIndex, offsetBy: i + 4)])
        }.joined(separator: "-")
        #expect(certs.fingerprint == grouped)

        // The private keys are P-256 keys openssl can read, and match their certificates.
        for (key, cert) in [("web-key.pem", leaf), ("web-ca-key.pem", ca)] {
            let fromKey = try runTool("openssl", ["pkey", "-in", dir.path + "/" + key, "-pubout"])
            let fromCert = try runTool("openssl", ["x509", "-in", cert, "-noout", "-pubkey"])
            #expect(fromKey.status == 0 && fromKey.stdout == fromCert.stdout)
        }
    }

    func sanLine(of text: String) -> String? {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let i = lines.firstIndex(of: "X509v3 Subject Alternative Name:"), i + 1 < lines.count else { return nil }
        return lines[i + 1]
    }
}
