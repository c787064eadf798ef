import Foundation
import Hummingbird
import RemotionHostLogic

/// `POST /api/rtc` (docs/WEB-CONTROLLER.md, "Transports"): the page's data-channel offer
/// with its device credential → the host's answer. Host, Origin and Content-Type are
/// checked as for pairing; only a paired, unrevoked device gets an answer. 503 tells the
/// page to use the WebSocket (no WebRTC on this host, or every peer slot taken).
struct WebRTCRoute: Sendable {
    let registry: WebDeviceRegistry
    let guardian: WebRequestGuard
    let stats: WebControllerStats
    let refuse: @Sendable (WebRequestGuard.Refusal) -> Response
    #if canImport(CWebRTCPeer)
    let peers: WebRTCPeers?
    let host: HostControllers
    let timeout: Duration
    #endif

    func add(to router: Router<WebRequestContext>) {
        router.post("/api/rtc") { request, _ in
            if let refused = self.guardian.check(request.head, write: true) { return self.refuse(refused) }
            guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
                return self.refuse(.notJSON)
            }
            var request = request
            guard let body = try? await request.collectBody(upTo: WebRTCOffer.maxBody) else {
                self.stats.drop(.rtcTooLong)
                return WebControllerRoutes.json(.contentTooLarge, ["error": "the offer is too long"])
            }
            let offer: WebRTCOffer
            switch WebRTCOffer.parse(body.readableBytesView) {
            case .success(let o): offer = o
            case .failure(let problem):
                self.stats.drop(.rtcOffer(problem))
                return WebControllerRoutes.json(.badRequest, ["error": "send {\"id\", \"credential\", \"sdp\"} with a data-channel offer (\(problem.rawValue))"])
            }
            guard let device = self.registry.verify(id: offer.id, credential: offer.credential) else {
                self.stats.count(refused: .unknown)
                return WebControllerRoutes.json(.forbidden, ["error": "this host does not know this phone (revoked or never paired); scan the host's QR code to pair"])
            }
            // Each offer costs a GStreamer pipeline and a UDP port: a paired phone gets a few.
            guard self.registry.allowOffer(from: device.id) else {
                self.stats.count(refused: .rtcRate)
                return WebControllerRoutes.json(.tooManyRequests, ["error": "too many data-channel offers from this phone; using the WebSocket"])
            }
            return await self.answer(offer, device: device)
        }
    }

    private func answer(_ offer: WebRTCOffer, device: WebDevice) async -> Response {
        #if canImport(CWebRTCPeer)
        guard let peers else { return Self.unavailable("this host has no WebRTC (GStreamer's webrtcbin)") }
        let session = WebRTCSession(host: host, registry: registry, stats: stats, device: device, timeout: timeout)
        switch await peers.answer(offer.sdp, fingerprint: offer.fingerprint, for: session) {
        case .success(let sdp):
            return WebControllerRoutes.json(.ok, ["type": "answer", "sdp": sdp])
        case .failure(.full):
            session.end(.refused)          // its input task ends with it: nothing left behind
            stats.count(refused: .rtcFull)
            return Self.unavailable("every data-channel slot is taken")
        case .failure(.failed(let why)):
            session.end(.refused)
            stats.drop(.rtcAnswer)
            return Self.unavailable(why)
        }
        #else
        return Self.unavailable("this host has no WebRTC")
        #endif
    }

    static func unavailable(_ why: String) -> Response {
        WebControllerRoutes.json(.serviceUnavailable, ["error": why + "; using the WebSocket"])
    }
}
