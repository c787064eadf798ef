import Foundation
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import Synchronization

/// The web controller server (docs/WEB-CONTROLLER.md): HTTPS on the LAN with the local
/// CA's certificate, the controller page, pairing, and one WebSocket per phone. It never
/// injects anything itself: each socket's frames go to the host's loop through
/// `HostControllers`, which owns the sessions.
package final class WebControllerServer: Sendable {
    package struct Configuration: Sendable {
        package var bind: String
        package var port: Int
        /// Names the page may be reached at (the certificate's SANs): LAN addresses,
        /// `<name>.local`, localhost.
        package var names: [String]
        package var timeout: Duration = .milliseconds(2500)
        /// TLS-handshake and idle timeouts, per-address and total caps before authentication.
        package var limits = WebConnectionGuard.Limits()
        /// Data channels beside the WebSocket (nil: WebSocket only).
        package var rtc: WebRTCConfiguration?
        package init(bind: String, port: Int, names: [String]) {
            self.bind = bind; self.port = port; self.names = names
        }
    }

    package let registry: WebDeviceRegistry
    package let stats = WebControllerStats()
    package let certificates: WebCertificates
    let logger: Logger
    private let running = RunningServer()
    private let boundPort = Mutex<Int?>(nil)
    let rtcPeers = Mutex<(any Sendable)?>(nil)
    /// Why data channels were asked for and cannot run (set at start; the host says it).
    package let rtcUnavailable = Mutex<String?>(nil)

    package init(registry: WebDeviceRegistry, certificates: WebCertificates, logger: Logger? = nil) {
        self.registry = registry
        self.certificates = certificates
        var quiet = logger ?? Logger(label: "remotion.web")
        // Hummingbird logs every connection that closes before its request at .error (a
        // refused or timed-out neighbour's too: a line per connection under a flood); the
        // connection guard counts those instead (web-stats). Start failures are reported.
        if logger == nil { quiet.logLevel = .critical }
        self.logger = quiet
    }

    /// The bound port once serving.
    package var port: Int? { boundPort.withLock { $0 } }

    /// Serves until `shutdown`; returns the bound port (0 picks a free one).
    package func start(_ configuration: Configuration, host: HostControllers) async throws -> Int {
        guard (0...65535).contains(configuration.port) else {
            throw WebServerError("web controller port \(configuration.port) is not between 0 and 65535")
        }
        let tls: TLSConfiguration
        do {
            let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificates.chainPEM.utf8)).map { NIOSSLCertificateSource.certificate($0) }
            let key = try NIOSSLPrivateKey(bytes: Array(certificates.leafKeyPEM.utf8), format: .pem)
            tls = TLSConfiguration.makeServerConfiguration(certificateChain: chain, privateKey: .privateKey(key))
        } catch {
            throw WebServerError("the web controller's certificate cannot be loaded (\(error)); delete the web-*.pem files in the data directory to make new ones")
        }
        let registry = self.registry, stats = self.stats
        let assets = try WebPageAssets.load()
        let guardian = WebRequestGuard(names: configuration.names)
        let failure = Mutex<String?>(nil)
        let (bound, boundSink) = AsyncStream<Int>.makeStream()
        let routes = WebControllerRoutes(assets: assets, registry: registry, certificates: certificates,
                                         guardian: guardian, stats: stats, hostName: host.name)
        let router = Router(context: WebRequestContext.self)
        routes.add(to: router)
        try addRTC(configuration, host: host, guardian: guardian, routes: routes, router: router)
        let socket = WebControllerSocket(host: host, registry: registry, stats: stats, timeout: configuration.timeout)
        let connections = WebConnectionGuard(limits: configuration.limits, stats: stats)
        let app = Application(
            router: router,
            server: HTTPServerBuilder { responder in
                GuardedChannel(base: try TLSChannel(WebControllerChannel(responder: responder, admit: { request in
                    guard request.path?.split(separator: "?").first == "/ws" else { return false }
                    if let refused = guardian.check(request, write: true) {
                        stats.count(refusedRequest: refused.rawValue)
                        return false
                    }
                    return true
                }, makeHandler: { channel in WebControllerSocketHandler(socket: socket, channel: channel) }), tlsConfiguration: tls), owner: connections)
            },
            configuration: .init(address: .hostname(configuration.bind, port: configuration.port), serverName: nil,
                                 reuseAddress: false),
            onServerRunning: { channel in boundSink.yield(channel.localAddress?.port ?? -1) },
            logger: logger)
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let task = Task {
            do { try await group.run() } catch { failure.withLock { $0 = "\(error)" } }
            boundSink.finish()
        }
        for await port in bound where port >= 0 {
            running.started(task: task, group: group)
            boundPort.withLock { $0 = port }
            return port
        }
        task.cancel()
        let why = failure.withLock { $0 } ?? "the server stopped before it was listening"
        throw WebServerError("cannot serve the web controller on \(configuration.bind) port \(configuration.port): \(WebServerError.plain(why))")
    }

    /// Stops serving: the listening socket and every phone's WebSocket (their sessions
    /// end, releasing what they held).
    package func shutdown(gracePeriod: Duration = .seconds(2)) async {
        shutdownRTC()
        await running.shutdown(gracePeriod: gracePeriod)
    }
}

extension WebServerError {
    /// An error's text without library type names (the one line a user reads).
    static func plain(_ text: String) -> String {
        if text.contains("Address already in use") || text.contains("EADDRINUSE") { return "the port is in use by another program" }
        if text.contains("Permission denied") || text.contains("EACCES") { return "permission denied (ports below 1024 need root)" }
        if text.contains("Cannot assign requested address") { return "this machine has no such address" }
        return text
    }
}
