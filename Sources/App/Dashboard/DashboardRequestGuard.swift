import HTTPTypes
import Hummingbird
import RemotionHostLogic
import Synchronization

/// Who may use the dashboard: pages served by the dashboard itself, and local programs.
/// The dashboard can change the host's mapping, so a web page from anywhere else must
/// not be able to drive it through the user's browser (docs/SECURITY.md §5.3):
///
/// - `Host` must name the dashboard on loopback (`127.0.0.1:PORT`, `localhost:PORT`,
///   `[::1]:PORT`): a DNS-rebinding page reaches 127.0.0.1 under its own name and is refused;
/// - `Origin`, when sent (browsers send it on every WebSocket and every POST), must be
///   `http://` + one of those: another site's page is refused, also for the WebSocket;
/// - a write (POST, …) must say `Content-Type: application/json`: forms and
///   `text/plain` fetches, which a browser sends cross-origin without asking first, are refused.
///
/// - a write (POST, …) and the WebSocket (it carries settings changes) must present this
///   start's token (`X-Remotion-Token`, or `?token=` on the WebSocket's URL): any local
///   program can reach 127.0.0.1, but only the host's user can read the token
///   (its address file, 0600 in $XDG_RUNTIME_DIR; `remotion dashboard` opens the page with it).
///
/// Refusals are 403 (host, origin, token) and 415 (content type), counted by reason; a
/// refused WebSocket upgrade gets Hummingbird's 400 for a declined upgrade (counted the same way).
package struct DashboardRequestGuard: Sendable {
    package enum Verdict: Equatable, Sendable {
        case allow
        case refuse(Refusal)
    }

    package enum Refusal: String, Sendable, CaseIterable {
        case host = "bad-host"
        case origin = "bad-origin"
        case contentType = "not-json"
        case token = "no-token"

        package var status: HTTPResponse.Status { self == .contentType ? .unsupportedMediaType : .forbidden }

        package var message: String {
            switch self {
            case .host: "the dashboard answers only requests for 127.0.0.1, localhost or [::1] at its port"
            case .origin: "the dashboard answers only its own pages (Origin must be http://127.0.0.1:PORT, http://localhost:PORT or http://[::1]:PORT)"
            case .contentType: "send settings as Content-Type: application/json"
            case .token: "this needs the dashboard's token: open the dashboard with `remotion dashboard`"
            }
        }
    }

    /// The port the dashboard listens on (known once it is bound).
    let port: @Sendable () -> Int
    /// This start's secret for writes and the WebSocket (`DashboardToken`).
    let token: String

    package init(port: @escaping @Sendable () -> Int, token: String) {
        self.port = port
        self.token = token
    }

    /// Whether a request that writes (or opens the WebSocket) presented this start's token.
    package func authorize(method: HTTPRequest.Method, path: String, presented: String?) -> Verdict {
        let writes = ![.get, .head, .options].contains(method) || path == "/ws"
        guard writes else { return .allow }
        guard let presented, ConstantTime.equal(Array(presented.utf8), Array(token.utf8)) else { return .refuse(.token) }
        return .allow
    }

    /// The token a request presents: the header, or on the WebSocket's URL `?token=`
    /// (a browser cannot set headers on a WebSocket).
    package static func presentedToken(header: String?, uri: String) -> String? {
        if let header { return header }
        guard let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return nil }
        for pair in query.split(separator: "&") where pair.hasPrefix("token=") { return String(pair.dropFirst(6)) }
        return nil
    }

    package func check(method: HTTPRequest.Method, host: String?, origin: String?, contentType: String?) -> Verdict {
        let allowed = Self.authorities(port: port())
        guard let host, allowed.contains(host.lowercased()) else { return .refuse(.host) }
        if let origin {
            let lowered = origin.lowercased()
            guard lowered.hasPrefix("http://"), allowed.contains(String(lowered.dropFirst(7))) else { return .refuse(.origin) }
        }
        if ![.get, .head, .options].contains(method) {
            let type = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
            guard type == "application/json" else { return .refuse(.contentType) }
        }
        return .allow
    }

    package func check(_ request: Request) -> Verdict {
        let verdict = check(method: request.method, host: request.head.authority,
                            origin: request.headers[.origin], contentType: request.headers[.contentType])
        guard verdict == .allow else { return verdict }
        return authorize(method: request.method, path: request.uri.path,
                         presented: Self.presentedToken(header: request.headers[Self.tokenHeader], uri: request.uri.description))
    }

    /// The header the dashboard's page sends its token in.
    package static let tokenHeader = HTTPField.Name("X-Remotion-Token")!

    /// "127.0.0.1:7475", "localhost:7475", "[::1]:7475" (and without the port for port 80).
    static func authorities(port: Int) -> Set<String> {
        guard port > 0 else { return [] }
        let hosts = ["127.0.0.1", "localhost", "[::1]"]
        return Set(hosts.map { "\($0):\(port)" } + (port == 80 ? hosts : []))
    }
}

/// Refusals by reason, for the snapshot the page and `/api/snapshot` show.
package final class DashboardRefusals: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    package init() {}

    func count(_ refusal: DashboardRequestGuard.Refusal) { counts.withLock { $0[refusal.rawValue, default: 0] += 1 } }

    package var current: [String: Int] { counts.withLock { $0 } }
}

/// Applies the guard to every route (the WebSocket upgrade checks it itself).
struct DashboardGuardMiddleware<Context: RequestContext>: RouterMiddleware {
    let guardian: DashboardRequestGuard
    let refusals: DashboardRefusals

    func handle(_ request: Request, context: Context,
                next: (Request, Context) async throws -> Response) async throws -> Response {
        switch guardian.check(request) {
        case .allow:
            return try await next(request, context)
        case .refuse(let refusal):
            refusals.count(refusal)
            return DashboardRoutes.json(refusal.status, DashboardJSON.encode(["error": refusal.message]))
        }
    }
}
