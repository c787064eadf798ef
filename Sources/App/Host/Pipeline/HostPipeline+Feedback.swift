import RemotionProtocol
import RemotionHostLogic

/// Rumble and light back to the controllers (docs/GAMEPAD.md "Rumble and lightbar"): a game
/// writes them to a session's virtual pad, the engine paces them (`FeedbackPacer`), and the
/// feedback output (`ControllerFeedbackOutput`) sends each on the controller's own transport.
extension HostPipeline {
    /// A game wrote `change` to the pad of `id` (on the host's loop).
    package func padFeedback(_ id: SessionID, _ change: FeedbackChange, now: Instant) {
        let start = pending.count
        engine.padFeedback(id, change, now: now, into: &pending)
        route(from: start, now: now)
        // A change held back by the pacer goes at its deadline, not with the next sample.
        if let deadline = engine.feedbackDeadline { driver?.sinkWakes(at: deadline) }
    }
}
