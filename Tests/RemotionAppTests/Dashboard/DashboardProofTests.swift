import Foundation
import Glibc
import RemotionApp
import RemotionNetwork
import RemotionTestSupport
import Testing

/// The launcher opens only a dashboard that proves it holds the address's token
/// (`DashboardProof`, `DashboardProbe`): a host killed with SIGKILL leaves its address file,
/// and another local user listening on that port must not get the browser (with the token
/// in the address). scripts/dashboard-launch-test.sh runs the real command against another
/// user's server.
@Suite(.timeLimit(.minutes(1)))
struct DashboardProofTests {
    static let token = "AbC-_123xyz"
    static let challenge = String(repeating: "0f", count: 16)

    @Test func theProofNeedsTheTokenThePortAndTheChallenge() {
        let proof = DashboardProof.answer(token: Self.token, port: 7475, challenge: Self.challenge)
        #expect(proof.count == 64 && proof.allSatisfy(\.isHexDigit))
        #expect(DashboardProof.holds(proof: proof, token: Self.token, port: 7475, challenge: Self.challenge))
        #expect(!DashboardProof.holds(proof: proof, token: Self.token + "x", port: 7475, challenge: Self.challenge))
        // A server on the stale port that relays the challenge to the real dashboard on
        // another port gets that port's proof: refused.
        #expect(!DashboardProof.holds(proof: proof, token: Self.token, port: 7476, challenge: Self.challenge))
        #expect(!DashboardProof.holds(proof: proof, token: Self.token, port: 7475, challenge: DashboardProof.challenge()))
        #expect(!DashboardProof.holds(proof: String(repeating: "0", count: 64), token: Self.token, port: 7475, challenge: Self.challenge))
        // The request carries the challenge, never the token.
        let request = DashboardProof.request(port: 7475, challenge: Self.challenge)
        #expect(request.hasPrefix("GET /api/proof?challenge=\(Self.challenge) HTTP/1.1\r\nHost: 127.0.0.1:7475\r\n"))
        #expect(!request.contains(Self.token))
        let a = DashboardProof.challenge(), b = DashboardProof.challenge()
        #expect(a != b && DashboardProof.isChallenge(Substring(a)))
        for bad in ["", "0f", String(repeating: "0F", count: 16), String(repeating: "0g", count: 16), Self.challenge + "00"] {
            #expect(!DashboardProof.isChallenge(Substring(bad)), "\(bad)")
        }
    }

    @Test func onlyAPlain200WithAProofIsRead() {
        func response(_ head: String, _ body: String) -> [UInt8] { Array((head + "\r\n\r\n" + body).utf8) }
        #expect(DashboardProof.proof(inResponse: response("HTTP/1.1 200 OK\r\nContent-Type: application/json", "{\"proof\":\"ab\"}")) == "ab")
        #expect(DashboardProof.proof(inResponse: response("HTTP/1.1 404 Not Found", "{\"proof\":\"ab\"}")) == nil)
        #expect(DashboardProof.proof(inResponse: response("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked", "e\r\n{\"proof\":\"ab\"}")) == nil)
        #expect(DashboardProof.proof(inResponse: response("HTTP/1.1 200 OK", "<html>")) == nil)
        #expect(DashboardProof.proof(inResponse: response("HTTP/1.1 200 OK", "{\"proof\":7}")) == nil)
        #expect(DashboardProof.proof(inResponse: Array("HTTP/1.1 200 OK\r\n".utf8)) == nil)
        #expect(DashboardProof.proof(inResponse: [0xFF, 0xFE, 13, 10, 13, 10]) == nil)
        #expect(DashboardProof.proof(inResponse: response("HTTP/1.1 200 OK", "{\"proof\":\"" + String(repeating: "a", count: 20_000) + "\"}")) == nil)
    }

    @Test func theAddressFileIsPerDataDirectoryInTheRuntimeDirectory() throws {
        let runtime = ["XDG_RUNTIME_DIR": "/run/user/1000"]
        let one = try #require(DashboardAddressFile.path(dataDirectory: URL(fileURLWithPath: "/home/a/.local/share/remotion"), environment: runtime))
        let two = try #require(DashboardAddressFile.path(dataDirectory: URL(fileURLWithPath: "/tmp/keys"), environment: runtime))
        #expect(one.hasPrefix("/run/user/1000/remotion/dashboard-address-") && one.count == "/run/user/1000/remotion/dashboard-address-".count + 16)
        #expect(one != two)
        #expect(DashboardAddressFile.path(dataDirectory: URL(fileURLWithPath: "/tmp/keys/"), environment: runtime) == two)
        #expect(DashboardAddressFile.path(dataDirectory: URL(fileURLWithPath: "/tmp/keys"), environment: [:]) == nil)
        #expect(DashboardAddressFile.path(dataDirectory: URL(fileURLWithPath: "/tmp/keys"), environment: ["XDG_RUNTIME_DIR": "run"]) == nil)
        #expect(DashboardAddressFile.parse("http://127.0.0.1:7475/#token=\(Self.token)")! == (7475, Self.token))
        for bad in ["http://127.0.0.1:0/#token=a", "http://127.0.0.1:65536/#token=a", "http://127.0.0.1:7475/#token=",
                    "http://127.0.0.1:7475/", "http://evil.example:7475/#token=a", "http://127.0.0.1:7475/#token=a\"b",
                    "http://127.0.0.1:99999999999999999999/#token=a", "http://127.0.0.1:٣٣/#token=a"] {
            #expect(DashboardAddressFile.parse(bad) == nil, "\(bad)")
        }
    }

    @Test func aFileIsRemovedOnlyWhenNoLiveDashboardServesIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = try #require(DashboardAddressFile.path(dataDirectory: dir.url, environment: ["XDG_RUNTIME_DIR": dir.url.path]))
        let url = "http://127.0.0.1:7475/#token=\(Self.token)"
        try DashboardAddressFile.write(url: url, path: path)
        #expect(PrivateFiles.mode(of: path) == 0o600 && DashboardAddressFile.read(path) == url)
        #expect(!DashboardAddressFile.removeUnlessServed(path, check: { _ in .ours }) && DashboardAddressFile.read(path) == url)
        #expect(DashboardAddressFile.removeUnlessServed(path, check: { _ in .other }) && DashboardAddressFile.read(path) == nil)
        try DashboardAddressFile.write(url: url, path: path)
        #expect(DashboardAddressFile.removeUnlessServed(path, check: { _ in .nobody }) && DashboardAddressFile.read(path) == nil)
        // At the stop a host removes the file only while it still holds its own address.
        try DashboardAddressFile.write(url: "http://127.0.0.1:7476/#token=other", path: path)
        DashboardAddressFile.remove(path, holding: url)
        #expect(DashboardAddressFile.read(path) != nil)
        DashboardAddressFile.remove(path, holding: "http://127.0.0.1:7476/#token=other")
        #expect(DashboardAddressFile.read(path) == nil)
    }

    /// The real dashboard proves its token; the wrong token, a closed port and a server that
    /// accepts and says nothing do not pass.
    /// `DashboardProbe.check` on a thread of its own, so the test's wait holds no pool thread.
    private func probe(_ url: String, timeout: TimeInterval) async -> DashboardProbe.Verdict {
        await withCheckedContinuation { done in
            Thread.detachNewThread { done.resume(returning: DashboardProbe.check(url: url, timeout: timeout)) }
        }
    }

    @Test func theProbeTellsTheRealDashboardFromOthers() async throws {
        let fixture = try await Fixture.start()
        let url = DashboardToken.url(port: fixture.port, token: fixture.server.token)
        // The probe blocks: off the concurrency pool, with a bound far from an answer's time (a
        // full parallel run of the suite once kept the real server past the launcher's 5 s).
        #expect(await probe(url, timeout: 30) == .ours)
        #expect(await probe(DashboardToken.url(port: fixture.port, token: DashboardToken.random()), timeout: 30) == .other)

        let silent = try SilentListener()
        #expect(DashboardProbe.check(url: DashboardToken.url(port: silent.port, token: fixture.server.token), timeout: 0.5) == .other)
        let port = silent.port
        silent.close()
        #expect(DashboardProbe.check(url: DashboardToken.url(port: port, token: fixture.server.token)) == .nobody)
        await fixture.server.shutdown()
    }
}

/// A TCP listener on 127.0.0.1 that accepts into its backlog and never answers.
final class SilentListener {
    let fd: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 4) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { Glibc.close(fd); throw POSIXError(.EADDRNOTAVAIL) }
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { Glibc.close(fd) }
}
