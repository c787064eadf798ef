import Foundation
import NIOCore
import RemotionHostLogic
import RemotionNetwork
import RemotionSystem
import ServiceLifecycle

/// Serves the web controller page on the LAN while the host runs (docs/WEB-CONTROLLER.md):
/// certificates from the local CA in the data directory, a pairing window opened at start,
/// and the device list re-read when `remotion devices --revoke` changes it.
package struct WebControllerService: Service {
    package let server: WebControllerServer
    package let url: String
    /// Where the pairing URL points (the first LAN address) and the certificate's fingerprint.
    package let reachable: String
    package let port: Int
    package let fingerprint: String

    /// The control socket's `web-pair-window`: a new one-time pairing URL (5 minutes, one
    /// phone) for `remotion pair --web`, which shows it as a QR code.
    ///     {"command":"web-pair-window"} → {"ok":true,"url":"https://…/#pair=…&fp=…"}
    /// A new phone pairing link (5 minutes, one phone), for the dashboard's "Pair a phone".
    package var openPairing: @Sendable () -> String? {
        let registry = server.registry, reachable = self.reachable, port = self.port, fingerprint = self.fingerprint
        return { WebControllerService.pairingURL(host: reachable, port: port, secret: registry.openPairing(), fingerprint: fingerprint) }
    }

    package var controlHandlers: [String: ControlHandler] {
        let open = openPairing, stats = server.stats
        return ["web-pair-window": { _, _ in
            guard let url = open() else { return .failure("the web controller cannot open a pairing window") }
            return .success(["url": .string(url), "seconds": .number(WebPairingDesk.defaultWindow)])
        }, "web-stats": { _, _ in .success(stats.snapshot.controlFields) }]
    }

    package struct Started: Sendable {
        package var service: WebControllerService
        package var port: Int
        package var url: String
        package var fingerprint: String
        package var reissued: Bool
    }

    package static func start(host: HostLoop, hostName: String, bind: String, port: Int,
                                      dataDirectory: URL, timeout: Duration) async throws -> Started {
        let machine = ProcessInfo.processInfo.hostName
        let lan = SocketAddress.reachableAddresses(for: try SocketAddress(ipAddress: bind == "::" ? "::" : bind, port: 0))
        let loopback = ["127.0.0.1", "::1"]
        let addresses = Array(Set(lan + loopback)).sorted()
        let certificates: WebCertificates
        do {
            certificates = try LocalCertificateAuthority.loadOrCreate(directory: dataDirectory, hostname: machine,
                                                                      addresses: addresses, now: Date())
        } catch { throw HostStartError("\(error)") }
        let registry: WebDeviceRegistry
        do { registry = try WebDeviceRegistry(store: WebCredentialStore(directory: dataDirectory)) }
        catch { throw HostStartError("\(error)") }
        let server = WebControllerServer(registry: registry, certificates: certificates)
        let localName = LocalCertificateAuthority.localName(for: machine)
        var configuration = WebControllerServer.Configuration(bind: bind, port: port,
                                                               names: addresses + [localName, "localhost"])
        configuration.timeout = timeout
        configuration.limits.total = WebConnectionGuard.Limits.total(openFileLimit: FileDescriptorLimit.current)
        let bound: Int
        do { bound = try await server.start(configuration, host: PipelineControllers(loop: host, name: hostName)) }
        catch { throw HostStartError("\(error); use --web-port to pick another port or --no-web") }
        let reachable = lan.first { !$0.contains(":") } ?? lan.first ?? "127.0.0.1"
        let secret = registry.openPairing()
        let url = pairingURL(host: reachable, port: bound, secret: secret, fingerprint: certificates.fingerprint)
        return Started(service: WebControllerService(server: server, url: url, reachable: reachable, port: bound,
                                                     fingerprint: certificates.fingerprint), port: bound, url: url,
                       fingerprint: certificates.fingerprint, reissued: certificates.reissued)
    }

    package static func pairingURL(host: String, port: Int, secret: String, fingerprint: String) -> String {
        let h = host.contains(":") ? "[\(host)]" : host
        return "https://\(h):\(port)/#pair=\(secret)&fp=\(fingerprint)"
    }

    /// Re-reads the device list every 250 ms (a `stat`; a read only on change), so a
    /// revoked phone is gone within a second; stops the server on shutdown.
    package func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            try? server.registry.reload()
            try? await Task.sleep(for: .milliseconds(250))
        }
        await server.shutdown()
    }
}
