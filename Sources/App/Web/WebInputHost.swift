import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// The page's touchpad, typing and presenter verbs of `ExternalControllerHost` on the real host.
extension PipelineControllers {
    package func buttonLabels(_ id: SessionID) async -> WebInputReply? {
        try? await loop.onLoop { pipeline, _ in pipeline.buttonLabels(id) }
    }

    package func input(_ id: SessionID, _ message: WebInputMessage, reply: @escaping @Sendable (WebInputReply?) -> Void) {
        // Enqueued on the host's loop in order with the session's motion and buttons. The
        // transport bounds what waits: a WebSocket awaits each reply (a page that floods fills
        // its own TCP window), a data channel's session drops past `WebSession.maxInputsInFlight`.
        loop.execute { pipeline, now in reply(pipeline.webInput(id, message, now: now)) }
    }
}
