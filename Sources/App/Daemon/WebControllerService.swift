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
    /// The pairing link opened at start, if one was.
    package let url: String?
    /// Where the pairing URL points (the first LAN address) and the certificate's fingerprint.
    package let reachable: String
    package let port: Int
    package let fingerprint: String
    /// The local CA's SHA-256, colon-separated hex, as the phone's certificate screens show it.
    package let caFingerprint: String

    /// A new phone pairing link (5 minutes, one phone), for the dashboard's "Pair a phone".
    package var openPairing: @Sendable () -> String? {
        let registry = server.registry, reachable = self.reachable, port = self.port, fingerprint = self.fingerprint
        return { WebControllerService.pairingURL(host: reachable, port: port, secret: registry.openPairing(), fingerprint: fingerprint) }
    }

    /// The control socket's commands for phones (docs/SECURITY.md §5.1, §9).
    package var controlHandlers: ControlCommands.Web {
        let registry = server.registry, reachable = self.reachable, port = self.port, fingerprint = self.fingerprint
        return Self.controlHandlers(registry: registry, stats: server.stats, caFingerprint: caFingerprint) { secret in
            WebControllerService.pairingURL(host: reachable, port: port, secret: secret, fingerprint: fingerprint)
        }
    }

    /// `web-pair-window`: a new one-time link for `remotion pair --web`, which shows it as a
    /// QR code and answers the phone that uses it (its requests carry `link`):
    ///     {"command":"web-pair-window"} → {"ok":true,"url":"https://…/#pair=…&fp=…","link":"…"}
    /// The phones waiting for the person at the computer, and the answer, which names the
    /// request by its code and id (a stale prompt's code may belong to a newer request):
    ///     {"command":"web-pair-requests"[,"link":"…"]} → {"ok":true,"requests":[{"code":"4821","request":"1a2b3c4d","link":…,"name":…,"address":…,"seconds":…}]}
    ///     {"command":"web-pair-decide","code":"4821","request":"1a2b3c4d","accept":true} → {"ok":true,"name":…}
    package static func controlHandlers(registry: WebDeviceRegistry, stats: WebControllerStats, caFingerprint ca: String,
                                        url: @escaping @Sendable (String) -> String) -> ControlCommands.Web {
        ControlCommands.Web(pairWindow: { _, _ in
            let opened = registry.openPairingLink()
            return .success(["url": .string(url(opened.secret)), "link": .string(opened.link),
                             "seconds": .number(WebPairingDesk.defaultWindow), "caSHA256": .string(ca)])
        }, stats: { _, _ in .success(stats.snapshot.controlFields) },
        pairRequests: { request, _ in
            let now = Date()
            return .success(["requests": .array(registry.pendingPairings(now: now, link: request.string("link")).map { r in
                .object(["code": .string(r.code), "request": .string(r.id), "link": .string(r.link), "name": .string(r.name),
                         "address": .string(r.address), "seconds": .number(max(0, r.expires.timeIntervalSince(now)).rounded())])
            })])
        }, pairDecide: { request, _ in
            guard let code = request.string("code"), let id = request.string("request"), let accept = request.bool("accept") else {
                return .failure("give the request's code, its id (request) and accept: true or false")
            }
            switch registry.decide(code: code, id: id, accept: accept) {
            case .accepted(let r)?: return .success(["name": .string(r.name), "address": .string(r.address), "accepted": .bool(true)])
            case .denied(let r)?: return .success(["name": .string(r.name), "address": .string(r.address), "accepted": .bool(false)])
            case nil: return .failure("no phone waits as request \(code)-\(id): it expired or was answered (see `remotion devices`)")
            }
        })
    }

    package struct Started: Sendable {
        package var service: WebControllerService
        package var port: Int
        package var url: String?
        package var fingerprint: String
        package var reissued: Bool
        package var caFingerprint: String
        package var replacedCA: WebCertificates.Replacement?
        /// Why phones get no data channels though they were asked for (GStreamer missing):
        /// said once at start; nil when they are on or were turned off.
        package var dataChannelsUnavailable: String?
    }

    /// `pairAtStart`: open a pairing window now (nil: only when interactive and no phone is
    /// paired yet — `interactive` says which). `onRequest`/`onPaired`: the host announces
    /// every phone that asks to pair and every phone paired.
    package static func start(host: HostLoop, hostName: String, bind: String, port: Int,
                              dataDirectory: URL, timeout: Duration,
                              rtcPorts: ClosedRange<Int>? = nil, pairAtStart: Bool? = nil, interactive: Bool = false,
                              onRequest: @escaping @Sendable (WebPairingConsent.Request) -> Void = { _ in },
                              onPaired: @escaping @Sendable (WebDevice) -> Void = { _ in }) async throws -> Started {
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
        do {
            registry = try WebDeviceRegistry(store: WebCredentialStore(directory: dataDirectory),
                                             onRequest: onRequest, onPaired: onPaired)
        }
        catch { throw HostStartError("\(error)") }
        let server = WebControllerServer(registry: registry, certificates: certificates)
        let localName = LocalCertificateAuthority.localName(for: machine)
        var configuration = WebControllerServer.Configuration(bind: bind, port: port,
                                                               names: addresses + [localName, "localhost"])
        configuration.timeout = timeout
        configuration.limits.total = WebConnectionGuard.Limits.total(openFileLimit: FileDescriptorLimit.current)
        configuration.rtc = rtcPorts.map { ports in
            var rtc = WebRTCConfiguration()
            rtc.ports = ports
            rtc.address = bind
            return rtc
        }
        let bound: Int
        do { bound = try await server.start(configuration, host: HostControllers(loop: host, name: hostName)) }
        catch { throw HostStartError("\(error); use --web-port to pick another port or --no-web") }
        let reachable = lan.first { !$0.contains(":") } ?? lan.first ?? "127.0.0.1"
        // A window at start only for the person at the terminal who has no phone yet (a
        // restart under systemd opens none: its output is the journal).
        let open = pairAtStart ?? (interactive && (try? registry.store.devices().isEmpty) ?? true)
        let url = open ? pairingURL(host: reachable, port: bound, secret: registry.openPairing(),
                                    fingerprint: certificates.fingerprint) : nil
        return Started(service: WebControllerService(server: server, url: url, reachable: reachable, port: bound,
                                                     fingerprint: certificates.fingerprint,
                                                     caFingerprint: certificates.caFingerprint), port: bound, url: url,
                       fingerprint: certificates.fingerprint, reissued: certificates.reissued,
                       caFingerprint: certificates.caFingerprint, replacedCA: certificates.replacedCA,
                       dataChannelsUnavailable: server.rtcUnavailable.withLock { $0 })
    }

    /// "FIRST-LAST" → the data channels' UDP port range.
    package static func rtcPorts(_ text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 2, (1...65535).contains(parts[0]), (parts[0]...65535).contains(parts[1]) else { return nil }
        return parts[0]...parts[1]
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
