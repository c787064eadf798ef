import Hummingbird
import Synchronization

extension WebControllerServer {
    /// `POST /api/rtc` and the peers behind it. Without `configuration.rtc`, or where
    /// GStreamer's webrtcbin cannot start (`rtcUnavailable` says why; the host prints it), the route answers 503 and
    /// pages use the WebSocket.
    func addRTC(_ configuration: Configuration, host: HostControllers, guardian: WebRequestGuard,
                routes: WebControllerRoutes, router: Router<WebRequestContext>) throws {
        #if canImport(CWebRTCPeer)
        var peers: WebRTCPeers?
        if let rtc = configuration.rtc {
            guard (1...65535).contains(rtc.ports.lowerBound), (1...65535).contains(rtc.ports.upperBound) else {
                throw WebServerError("the data-channel ports \(rtc.ports) are not between 1 and 65535")
            }
            do {
                peers = try WebRTCPeers(rtc)
                rtcPeers.withLock { $0 = peers }
            } catch {
                rtcUnavailable.withLock { $0 = "\(error)" }
            }
        }
        WebRTCRoute(registry: registry, guardian: guardian, stats: stats, refuse: { routes.refuse($0) },
                    peers: peers, host: host, timeout: configuration.timeout).add(to: router)
        #else
        WebRTCRoute(registry: registry, guardian: guardian, stats: stats, refuse: routes.refuse).add(to: router)
        #endif
    }

    /// Ends every data-channel session (their sessions end, releasing what they held).
    func shutdownRTC() {
        #if canImport(CWebRTCPeer)
        (rtcPeers.withLock { $0 } as? WebRTCPeers)?.shutdown()
        #endif
    }
}
