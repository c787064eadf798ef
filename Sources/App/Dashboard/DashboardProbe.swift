import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Asks the server at a dashboard address whether it is that dashboard (`DashboardProof`):
/// one `GET /api/proof` on 127.0.0.1 with a fresh challenge, bounded in time and size. The
/// token stays here: it only checks the answer. Blocking; for the launcher and the host's
/// start-up (where a failed bind decides whether a stale address file goes).
package enum DashboardProbe {
    package enum Verdict: Equatable, Sendable {
        /// The server proved it holds the address's token.
        case ours
        /// Nothing accepts connections on the port.
        case nobody
        /// Something listens, but did not prove it holds the token.
        case other
    }

    /// How long the whole exchange may take: a server that accepts and says nothing is not ours.
    /// Generous: a busy machine's real dashboard must not be taken for another's.
    package static let timeout: TimeInterval = 5

    /// The verdict for `url` (`http://127.0.0.1:PORT/#token=…`); `.other` for an address that is not one.
    package static func check(url: String, timeout: TimeInterval = timeout) -> Verdict {
        guard let (port, token) = DashboardAddressFile.parse(url) else { return .other }
        let challenge = DashboardProof.challenge()
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return .other }
        defer { close(fd) }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1e6))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return errno == ECONNREFUSED ? .nobody : .other }
        let request = Array(DashboardProof.request(port: port, challenge: challenge).utf8)
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == request.count else { return .other }
        guard let response = receive(fd, deadline: Date().addingTimeInterval(timeout)),
              let proof = DashboardProof.proof(inResponse: response) else { return .other }
        return DashboardProof.holds(proof: proof, token: token, port: port, challenge: challenge) ? .ours : .other
    }

    /// Reads until the server closes (the request said `Connection: close`), at most
    /// `DashboardProof.maxResponse` bytes, before `deadline`; nil on an error or a timeout.
    static func receive(_ fd: Int32, deadline: Date) -> [UInt8]? {
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return response }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            response += chunk[0..<n]
            guard response.count <= DashboardProof.maxResponse else { return nil }
        }
        return nil
    }
}
