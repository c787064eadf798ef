import Foundation
import RemotionApp

/// The phones that asked a running host to pair and wait for an answer from this computer
/// (docs/SECURITY.md §9): listed by `remotion devices`, answered by `--accept`/`--deny` and
/// by `remotion pair --web`, all through the host's control socket (0600: its user only).
enum WaitingPhones {
    struct Waiting: Sendable {
        var code: String
        var name: String
        var address: String
        var seconds: Int
    }

    /// The waiting phones, or nil when no host runs for this data directory.
    static func fetch(dataDirectory: URL) async -> [Waiting]? {
        guard let client = try? await ControlClient.connect(path: ControlServer.path(dataDirectory: dataDirectory)) else { return nil }
        let response = try? await client.send(ControlRequest("web-pair-requests"))
        await client.close()
        guard let response, response.ok, case .array(let items)? = response.fields["requests"] else { return [] }
        return items.compactMap { item in
            guard case .object(let o) = item, case .string(let code)? = o["code"] else { return nil }
            var w = Waiting(code: code, name: "", address: "", seconds: 0)
            if case .string(let n)? = o["name"] { w.name = n }
            if case .string(let a)? = o["address"] { w.address = a }
            if case .number(let s)? = o["seconds"] { w.seconds = Int(s) }
            return w
        }
    }

    /// Lines for `remotion devices` (none when no host runs or nobody waits).
    static func list(dataDirectory: URL) async -> [String] {
        guard let waiting = await fetch(dataDirectory: dataDirectory), !waiting.isEmpty else { return [] }
        return ["phones waiting to pair (\(waiting.count)); answer with --accept CODE or --deny CODE:"]
            + waiting.map { "  \($0.code)  '\(Sanitized.text($0.name))' at \($0.address)  (\($0.seconds) s left)" }
    }

    /// Answers one waiting phone; the line to print.
    static func decide(code: String, accept: Bool, dataDirectory: URL) async throws -> String {
        let client: ControlClient
        do { client = try await ControlClient.connect(path: ControlServer.path(dataDirectory: dataDirectory)) } catch {
            throw UserError("no `remotion host` runs with data directory \(dataDirectory.path): no phone can be waiting")
        }
        let response = try await client.send(ControlRequest("web-pair-decide", ["code": .string(code), "accept": .bool(accept)]))
        await client.close()
        guard response.ok else { throw UserError(response.error ?? "the host refused") }
        let who = "'\(Sanitized.text(response.string("name") ?? ""))' at \(response.string("address") ?? "?")"
        return accept ? "accepted phone \(who): it pairs now" : "refused phone \(who): nothing was stored"
    }
}
