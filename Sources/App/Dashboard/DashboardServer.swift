import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// The host's web dashboard: the page, a JSON API and a WebSocket feed of the host's
/// snapshots. Off the injection path: it reads `SnapshotPublisher` by copying and sends
/// settings changes through `SettingsControl`; nothing on the host's loop waits for it.
package final class DashboardServer: Sendable {
    private let logger: Logger
    private let running = Mutex<(task: Task<Void, Never>, group: ServiceGroup)?>(nil)

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
                      settings: any SettingsControl) async throws -> Int {
        guard (0...65535).contains(port) else {
            throw DashboardStartError(message: "dashboard port \(port) is not between 0 and 65535")
        }
        let routes = DashboardRoutes(assets: try StaticAssets.load(), publisher: publisher, settings: settings)
        let router = Router(context: BasicRequestContext.self)
        routes.add(to: router)
        let socket = DashboardSocket(publisher: publisher, routes: routes)

        let (bound, boundSink) = AsyncStream<Int>.makeStream()
        let failure = Mutex<String?>(nil)
        let app = Application(
            router: router,
            server: .http1WebSocketUpgrade { request, _, _ in
                guard request.path?.split(separator: "?").first == "/ws" else { return .dontUpgrade }
                return .upgrade([:]) { inbound, outbound, _ in
                    try await socket.run(inbound: inbound, outbound: outbound)
                }
            },
            configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                boundSink.yield(channel.localAddress?.port ?? -1)
            },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            do { try await group.run() } catch { failure.withLock { $0 = "\(error)" } }
            boundSink.finish()
        }
        for await port in bound where port >= 0 {
            running.withLock { $0 = (task, group) }
            return port
        }
        task.cancel()
        let why = failure.withLock { $0 } ?? "the server stopped before it was listening"
        throw DashboardStartError(message: "cannot serve the dashboard on \(host) port \(port): \(why)")
    }

    /// Stops serving: closes the listening socket and every open page's WebSocket
    /// (gracefully; whatever is still open after `gracePeriod` is cancelled).
    package func shutdown(gracePeriod: Duration = .seconds(2)) async {
        guard let (task, group) = running.withLock({ r in defer { r = nil }; return r }) else { return }
        await group.triggerGracefulShutdown()
        let deadline = Task {
            try? await Task.sleep(for: gracePeriod)
            task.cancel()
        }
        await task.value
        deadline.cancel()
    }
}
