import RemotionProtocol

/// One thing the host's engine (`HostEngine`) decided, for the host's adapters to perform
/// in order: a session's pipeline outputs (input for the injector, pad states for the
/// virtual pads, notes, feedback, text, the laser), what the observers (the DSU server, the
/// laser overlay) see, and the session lifecycle the adapters keep their own per-session
/// state by (the log, where a session's notices go). Nothing here performs anything.
package enum EngineOutput<Address: Hashable & Sendable>: Sendable {
    /// A session opened from `origin`: the adapter says so and remembers where its notices go.
    case opened(SessionID, ControllerOrigin<Address>)
    /// A session ended; everything it held has been released and its pad rested by the
    /// outputs before this one.
    case closed(SessionID, SessionCloseReason)
    /// One pipeline output of a session, for the outputs of its kind (`PipelineOutput.kind`).
    case session(SessionID, PipelineOutput)
    /// One motion sample's decision (`PipelineCore.MotionOutput`), its parts for the outputs
    /// of their kind: the datagram path gets the same value straight from `HostEngine.motion`.
    case sample(SessionID, PipelineCore.MotionOutput)
    /// What the observers are told: never while the desktop session is suspended, and all
    /// sessions closed (then opened again) when it is suspended (resumed).
    case observe(SessionID, Observation)
    /// Typing's borrowed keycodes are due back (no text for `PipelineCore.typingRestoreDelay`).
    case restoreBorrowedKeycodes

    /// What an observer sees of a session.
    package enum Observation: Sendable, Equatable {
        case opened(ControllerOrigin<Address>)
        case button(Button, isDown: Bool)
        case closed
    }
}
