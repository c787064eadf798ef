import RemotionProtocol
import RemotionHostLogic

/// Rumble and light back to the controllers (docs/GAMEPAD.md "Rumble and lightbar"): a game
/// writes them to a session's virtual pad, `PipelineCore` paces them (`FeedbackPacer`), and
/// this sends each on the controller's own transport — a `feedback` datagram for a UDP
/// controller, a message on the page's WebSocket or data channel for a phone's page.
extension HostPipeline {
    /// A game wrote `change` to the pad of `id` (on the host's loop).
    package func padFeedback(_ id: SessionID, _ change: FeedbackChange, now: Instant) {
        let start = pending.count
        engine.padFeedback(id, change, now: now, into: &pending)
        route(from: start, now: now)
        // A change held back by the pacer goes at its deadline, not with the next sample.
        if let deadline = engine.feedbackDeadline { driver?.sinkWakes(at: deadline) }
    }

    /// Hands `feedback` to the transport of `id`'s controller.
    func send(_ feedback: ControllerFeedback, to id: SessionID) {
        if let sink = noticeSinks[id] {
            sink(.feedback(feedback))
        } else if driver?.sendFeedback(id, feedback) != true {
            feedbackUnsendable += 1     // a DSU source or a local pad: no way back (yet)
            return
        }
        feedbackSent += 1
    }
}
