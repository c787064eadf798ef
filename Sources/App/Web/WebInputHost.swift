import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// What the page's touchpad, typing and presenter controls need from the host, beside
/// `WebControllerHost` (a host without it ignores those messages): the button map for the
/// page's labels, and one path for the new messages into the host's pipeline, in order
/// with the socket's motion and button frames.
package protocol WebInputHost: Sendable {
    /// The button map as the page labels it (sent after the welcome).
    func buttonLabels() async -> WebInputReply?
    /// One touchpad/typing/laser message; a reply for the page when there is one.
    func input(_ id: SessionID, _ message: WebInputMessage) async -> WebInputReply?
}

extension PipelineWebHost: WebInputHost {
    package func buttonLabels() async -> WebInputReply? {
        try? await host.onLoop { $0.sink.buttonLabels }
    }

    package func input(_ id: SessionID, _ message: WebInputMessage) async -> WebInputReply? {
        // Moves, scrolls, clicks, keys and the laser need no answer: hand them over in
        // order without waiting (like motion). Text waits for what could not be typed.
        guard case .text = message else {
            host.execute { $0.sink.webInput(id, message) }
            return nil
        }
        return (try? await host.onLoop { $0.sink.webInput(id, message) }) ?? nil
    }
}
