import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// What the page's touchpad, typing and presenter controls need from the host, beside
/// `ExternalControllerHost` (a host without it ignores those messages): the session's
/// button map for the page's labels, and one path for the new messages into the host's
/// pipeline, in order with the socket's motion and button frames.
package protocol WebInputHost: Sendable {
    /// The session's button map as the page labels it (sent after the welcome).
    func buttonLabels(_ id: SessionID) async -> WebInputReply?
    /// One touchpad/typing/laser message; a reply for the page when there is one.
    func input(_ id: SessionID, _ message: WebInputMessage) async -> WebInputReply?
}

extension PipelineControllers: WebInputHost {
    package func buttonLabels(_ id: SessionID) async -> WebInputReply? {
        try? await loop.onLoop { $0.pipeline.buttonLabels(id) }
    }

    package func input(_ id: SessionID, _ message: WebInputMessage) async -> WebInputReply? {
        // Moves, scrolls, clicks, keys and the laser need no answer: hand them over in
        // order without waiting (like motion). Text waits for what could not be typed.
        guard case .text = message else {
            loop.execute { $0.pipeline.webInput(id, message) }
            return nil
        }
        return (try? await loop.onLoop { $0.pipeline.webInput(id, message) }) ?? nil
    }
}
