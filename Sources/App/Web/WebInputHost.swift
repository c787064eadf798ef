import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// The page's touchpad, typing and presenter verbs of `ExternalControllerHost` on the real host.
extension PipelineControllers {
    package func buttonLabels(_ id: SessionID) async -> WebInputReply? {
        try? await loop.onLoop { $0.pipeline.buttonLabels(id) }
    }

    package func input(_ id: SessionID, _ message: WebInputMessage) async -> WebInputReply? {
        // Every message waits for the host's loop: one in flight per session, so a page that
        // floods touchpad or key messages fills its own transport's buffer (TCP's window, the
        // data channel's bounded queue, counted when full), never the host loop's queue.
        let reply = (try? await loop.onLoop { $0.pipeline.webInput(id, message) }) ?? nil
        guard case .text = message else { return reply }
        // Give the borrowed keycodes back soon after the text (issue 25 item 7).
        let loop = self.loop
        loop.eventLoop.scheduleTask(in: .milliseconds(1_050)) {   // typingRestoreDelay + a margin
            loop.execute { $0.pipeline.restoreTypingIfIdle() }
        }
        return reply
    }
}
