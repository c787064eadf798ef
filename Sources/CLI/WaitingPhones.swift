import Foundation
import RemotionApp
import RemotionHostLogic

/// The phones that asked a running host to pair and wait for an answer from this computer
/// (docs/SECURITY.md §9): listed by `remotion devices`, answered by `--accept`/`--deny` and
/// by `remotion pair --web`, all through the host's control socket (0600: its user only).
/// An answer names the request (`CODE-ID`, as the host's prompt and the list show it), not
/// only its 4-digit code, which a newer request may have drawn again.
enum WaitingPhones {
    struct Waiting: Sendable {
        var code: String
        var request: String
        var link: String
        var name: String
        var address: String
        var seconds: Int
        var reference: String { "\(code)-\(request)" }
    }

    /// The waiting phones (with `link`: only those that used that link), or nil when no
    /// host runs for this data directory.
    static func fetch(dataDirectory: URL, link: String? = nil) async -> [Waiting]? {
        guard let client = try? await ControlClient.connect(path: ControlServer.path(dataDirectory: dataDirectory)) else { return nil }
        let response = try? await client.send(ControlRequest("web-pair-requests", link.map { ["link": .string($0)] } ?? [:]))
        await client.close()
        guard let response, response.ok, case .array(let items)? = response.fields["requests"] else { return [] }
        return items.compactMap { item in
            guard case .object(let o) = item, case .string(let code)? = o["code"], case .string(let id)? = o["request"] else { return nil }
            var w = Waiting(code: code, request: id, link: "", name: "", address: "", seconds: 0)
            if case .string(let l)? = o["link"] { w.link = l }
            if case .string(let n)? = o["name"] { w.name = n }
            if case .string(let a)? = o["address"] { w.address = a }
            if case .number(let s)? = o["seconds"] { w.seconds = Int(s) }
            return w
        }
    }

    /// Lines for `remotion devices` (none when no host runs or nobody waits).
    static func list(dataDirectory: URL) async -> [String] {
        guard let waiting = await fetch(dataDirectory: dataDirectory), !waiting.isEmpty else { return [] }
        return ["phones waiting to pair (\(waiting.count)); answer with --accept CODE-ID or --deny CODE-ID:"]
            + waiting.map { DeviceListLines.waitingPhone(reference: $0.reference, name: $0.name, address: $0.address, seconds: $0.seconds) }
    }

    /// Answers one waiting phone, named by `CODE-ID`; the line to print.
    static func decide(reference: String, accept: Bool, dataDirectory: URL) async throws -> String {
        guard let (code, id) = WebPairingConsent.Request.parse(reference: reference) else {
            throw UserError("give the waiting phone as the host shows it, CODE-ID (e.g. `--accept 4821-1a2b3c4d`), "
                            + "not the code alone: `remotion devices` lists the phones waiting")
        }
        let client: ControlClient
        do { client = try await ControlClient.connect(path: ControlServer.path(dataDirectory: dataDirectory)) } catch {
            throw UserError("no `remotion host` runs with data directory \(dataDirectory.path): no phone can be waiting")
        }
        let response = try await client.send(ControlRequest("web-pair-decide", ["code": .string(code), "request": .string(id),
                                                                                 "accept": .bool(accept)]))
        await client.close()
        guard response.ok else { throw UserError(response.error ?? "the host refused") }
        let who = DeviceListLines.phone(name: response.string("name") ?? "", address: response.string("address") ?? "?")
        return accept ? "accepted phone \(who): it pairs now" : "refused phone \(who): nothing was stored"
    }
}
