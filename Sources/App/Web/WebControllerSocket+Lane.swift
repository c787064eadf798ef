import RemotionHostLogic
import RemotionProtocol

/// The motion lane (docs/WEB-CONTROLLER.md, "The motion lane"; docs/SECURITY.md): a second
/// WebSocket of a phone whose first one holds a session. Over one TCP stream a lost segment
/// holds back every later frame; with two, the page sends each MOTION frame on a socket with
/// nothing unacknowledged, and the host takes the newest (the session's intake drops what
/// is older than a frame already taken, as `stale`).
///
/// Its first message is `{"type":"lane","v":1,"id","credential","session"}`: the same device
/// credential as the session's, and the session's label from its welcome. It attaches to
/// that live session only (`WebDeviceRegistry.attachLane`: never claims, replaces or ends a
/// session; one lane per device, a newer one replaces it) and then carries MOTION (its
/// button field replaced by the primary's state) and PING only; a BUTTON, a command or any
/// text is counted and dropped. It ends on silence, revocation, the session's end or a newer
/// lane, and its end closes nothing else: the session, and what it holds, stay.
extension WebControllerSocket {
    struct Lane: Sendable {
        let device: String
        let token: UInt64
        let core: WebSessionDriver
    }

    /// Verifies and attaches a lane hello: the text for the page, and the lane (nil when
    /// refused; the text says why).
    func attachLane(version: Int, id: String, credential: String, session: String, link: Link) -> (text: String, lane: Lane?) {
        guard version == 1, let device = registry.verify(id: id, credential: credential) else {
            return (refusedUnknown(), nil)
        }
        guard let attached = registry.attachLane(device.id, session: session, end: { link.replaced.store(true, ordering: .relaxed) }) else {
            stats.count(refused: .noSession)
            return (WebHostMessage.refused(
                reason: "no-session", message: "this phone has no open session here for a motion lane").text, nil)
        }
        link.lane.withLock { $0 = device.id }
        link.authenticated()
        stats.count(lanes: 1)
        return (WebHostMessage.lane(session: session).text, Lane(device: device.id, token: attached.token, core: attached.core))
    }
}
