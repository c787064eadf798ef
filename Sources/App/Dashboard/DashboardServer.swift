import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import RemotionHostLogic
import ServiceLifecycle
import Synchronization
import RemotionProtocol

/// The host's web dashboard: the page, a JSON API and a WebSocket feed of the host's
/// snapshots. Off the injection path: it reads `SnapshotPublisher` by copying and sends
/// settings changes through `SettingsControl`; nothing on the host's loop waits for it.
package final class DashboardServer: Sendable {
    private let logger: Logger
    private let running = RunningServer()
    private let boundPort = BoundPort()
    /// Requests refused by the Host/Origin/Content-Type/token guard, by reason.
    package let refusals = DashboardRefusals()
    /// This start's secret for writes and the WebSocket: 256 random bits, base64url.
    package let token = DashboardToken.random()

    package init(logger: Logger? = nil) {
        if let logger {
            self.logger = logger
        } else {
            var quiet = Logger(label: "remotion.dashboard")
            quiet.logLevel = .warning
            self.logger = quiet
        }
    }

    /// Starts serving on `host`:`port` (0 picks a free port) and returns the bound port.
    /// Binds 127.0.0.1 unless told otherwise: the dashboard can change the host's settings.
    package func start(host: String = "127.0.0.1", port: Int, publisher: SnapshotPublisher,
                      settings: any SettingsControl, devices: PairedDevices? = nil) async throws -> Int {
        guard (0...65535).contains(port) else {
            throw DashboardStartError(message: "dashboard port \(port) is not between 0 and 65535")
        }
        let guardian = DashboardRequestGuard(port: { [boundPort] in boundPort.value }, token: token)
        let (router, routes) = try Self.build(publisher: publisher, settings: settings, devices: devices, guardian: guardian,
                                              refusals: refusals)
        let socket = DashboardSocket(publisher: publisher, routes: routes)
        let boundPort = self.boundPort, refusals = self.refusals

        let (bound, boundSink) = AsyncStream<Int>.makeStream()
        let failure = Mutex<String?>(nil)
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade { request, _, _ in
                guard request.path?.split(separator: "?").first == "/ws" else { return .dontUpgrade }
                // Hummingbird answers a declined upgrade with 400 (the socket never opens).
                if case .refuse(let refusal) = guardian.check(method: request.method, host: request.authority,
                                                              origin: request.headerFields[.origin], contentType: nil) {
                    refusals.count(refusal)
                    return .dontUpgrade
                }
                let presented = DashboardRequestGuard.presentedToken(
                    header: request.headerFields[DashboardRequestGuard.tokenHeader], uri: request.path ?? "")
                if case .refuse(let refusal) = guardian.authorize(method: request.method, path: "/ws", presented: presented) {
                    refusals.count(refusal)
                    return .dontUpgrade
                }
                return .upgrade([:]) { inbound, outbound, _ in
                    try await socket.run(inbound: inbound, outbound: outbound)
                }
            },
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                boundPort.set(channel.localAddress?.port ?? 0)
                boundSink.yield(channel.localAddress?.port ?? -1)
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            do { try await group.run() } catch {
                failure.withLock { $0 = DashboardStartError.describe(error, host: host, port: port).message }
            }
            boundSink.finish()
        }
        for await port in bound where port >= 0 {
            running.started(task: task, group: group)
            return port
        }
        task.cancel()
        throw DashboardStartError(message: failure.withLock { $0 }
                                  ?? "cannot serve on \(host) port \(port): the server stopped before it was listening")
    }

    /// The dashboard's routes behind the request guard (what the route tests drive).
    package static func router(publisher: SnapshotPublisher, settings: any SettingsControl, devices: PairedDevices? = nil,
                               guardian: DashboardRequestGuard,
                               refusals: DashboardRefusals) throws -> Router<BasicRequestContext> {
        try build(publisher: publisher, settings: settings, devices: devices, guardian: guardian, refusals: refusals).0
    }

    static func build(publisher: SnapshotPublisher, settings: any SettingsControl, devices: PairedDevices?,
                      guardian: DashboardRequestGuard,
                      refusals: DashboardRefusals) throws -> (Router<BasicRequestContext>, DashboardRoutes) {
        let routes = DashboardRoutes(assets: try StaticAssets.load(), publisher: publisher, settings: settings,
                                     refusals: refusals)
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: DashboardGuardMiddleware(guardian: guardian, refusals: refusals))
        routes.add(to: router)
        DashboardProfileRoutes(settings: settings).add(to: router)
        DashboardDeviceRoutes(devices: devices).add(to: router)
        DashboardOutputRoute(settings: settings).add(to: router)
        DashboardProofRoute(token: guardian.token, port: guardian.port).add(to: router)
        return (router, routes)
    }

    /// Stops serving: closes the listening socket and every open page's WebSocket
    /// (gracefully; whatever is still open after `gracePeriod` is cancelled).
    package func shutdown(gracePeriod: Duration = .seconds(2)) async {
        await running.shutdown(gracePeriod: gracePeriod)
    }
}

/// The dashboard's per-start secret (docs/SECURITY.md §5.3).
package enum DashboardToken {
    package static func random() -> String {
        var rng = SecureRandom()
        return Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    /// The page's address with the token in its fragment (never sent in a request line).
    package static func url(port: Int, token: String) -> String { "http://127.0.0.1:\(port)/#token=\(token)" }
}

/// The port the server is bound to, once it is (0 before: every request is refused).
final class BoundPort: Sendable {
    private let port = Atomic<Int>(0)
    func set(_ value: Int) { port.store(value, ordering: .releasing) }
    var value: Int { port.load(ordering: .acquiring) }
}
