import Crypto
import Foundation
import Hummingbird
import RemotionHostLogic
import RemotionProtocol

/// How the launcher (`remotion dashboard`) tells this host's dashboard from whatever else
/// listens on the port its address file names (docs/SECURITY.md §5.3, "The launcher"): a
/// host that died leaves the file, and another local user may then listen on that port and
/// get the person's browser, with the token in the address.
///
/// The launcher sends a fresh random challenge (never the token) to `GET /api/proof`; the
/// dashboard answers HMAC-SHA256(token, "remotion-dashboard-proof", its own bound port,
/// challenge). Only a server that holds the token can answer; the port in the proof is the
/// one the server is bound to, not the one asked for, so a server on the stale port that
/// relays the challenge to the real dashboard on another port gets a proof for the wrong port.
/// Pure: the HTTP exchange is `DashboardProbe`'s.
package enum DashboardProof {
    package static let path = "/api/proof"
    /// A challenge: 16 random bytes as 32 lowercase hex digits.
    package static let challengeLength = 32
    /// The most of an answer the launcher reads.
    package static let maxResponse = 16 * 1024

    package static func challenge() -> String {
        var rng = SecureRandom()
        return hex((0..<16).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    package static func isChallenge(_ text: Substring) -> Bool {
        text.utf8.count == challengeLength && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// The proof (64 lowercase hex digits) a dashboard bound to `port` with `token` gives for `challenge`.
    package static func answer(token: String, port: Int, challenge: String) -> String {
        var mac = HMAC<SHA256>(key: SymmetricKey(data: Array(token.utf8)))
        mac.update(data: Array("remotion-dashboard-proof\n\(port)\n\(challenge)".utf8))
        return hex(Array(mac.finalize()))
    }

    /// Whether `proof` is the answer for this token, port and challenge (in constant time).
    package static func holds(proof: String, token: String, port: Int, challenge: String) -> Bool {
        ConstantTime.equal(Array(proof.utf8), Array(answer(token: token, port: port, challenge: challenge).utf8))
    }

    /// The request line and headers the launcher sends (no token anywhere in it).
    package static func request(port: Int, challenge: String) -> String {
        "GET \(path)?challenge=\(challenge) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: application/json\r\nConnection: close\r\n\r\n"
    }

    /// The proof in a raw HTTP response: status 200, a body that is `{"proof": "..."}`;
    /// nil for anything else (another status, a chunked or cut body, no JSON, no proof).
    package static func proof(inResponse bytes: [UInt8]) -> String? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard bytes.count <= maxResponse,
              let end = bytes.indices.dropLast(3).first(where: { bytes[$0..<$0 + 4].elementsEqual(separator) }),
              let head = String(validating: bytes[..<end], as: UTF8.self) else { return nil }
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let status = lines.first?.split(separator: " ", maxSplits: 2) ?? []
        guard status.count >= 2, status[0].hasPrefix("HTTP/1."), status[1] == "200" else { return nil }
        for line in lines.dropFirst() where line.lowercased().hasPrefix("transfer-encoding:") { return nil }
        let body = Data(bytes[(end + 4)...])
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
              let proof = object["proof"] as? String else { return nil }
        return proof
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes { out += [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]] }
        return String(decoding: out, as: UTF8.self)
    }
}

/// `GET /api/proof?challenge=HEX`: 200 {"proof": HEX}, 400 without a well-formed challenge.
/// Behind the same Host/Origin guard as every route; it needs no token (it is how a launcher
/// that has not yet trusted the server checks it) and tells nothing about the token.
struct DashboardProofRoute: Sendable {
    let token: String
    let port: @Sendable () -> Int

    func add(to router: Router<BasicRequestContext>) {
        router.get("/api/proof") { request, _ in
            guard let challenge = request.uri.queryParameters["challenge"], DashboardProof.isChallenge(challenge) else {
                return DashboardRoutes.json(.badRequest, DashboardJSON.encode(
                    ["error": "expected ?challenge= with \(DashboardProof.challengeLength) lowercase hex digits"]))
            }
            let proof = DashboardProof.answer(token: token, port: port(), challenge: String(challenge))
            return DashboardRoutes.json(.ok, DashboardJSON.encode(["proof": proof]))
        }
    }
}
