import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// The page's touchpad, typing and presenter verbs of `ExternalControllerHost` on the real host.
extension PipelineControllers {
    package func buttonLabels(_ id: SessionID) async -> WebInputReply? {
        try? await loop.onLoop { $0.pipeline.buttonLabels(id) }
    }

    package func input(_ id: SessionID, _ message: WebInputMessage, reply: @escaping @Sendable (WebInputReply?) -> Void) {
        // Enqueued on the host's loop in order with the session's motion and buttons. The
        // transport bounds what waits: a WebSocket awaits each reply (a page that floods fills
        // its own TCP window), a data channel's session drops past `WebSession.maxInputsInFlight`.
        let loop = self.loop
        loop.execute { context in
            reply(context.pipeline.webInput(id, message))
            guard case .text = message else { return }
            // Give the borrowed keycodes back soon after the text (issue 25 item 7).
            loop.eventLoop.scheduleTask(in: .milliseconds(1_050)) {   // typingRestoreDelay + a margin
                loop.execute { $0.pipeline.restoreTypingIfIdle() }
            }
        }
    }
}
