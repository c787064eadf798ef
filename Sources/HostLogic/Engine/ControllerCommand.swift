import RemotionProtocol

/// What a controller's transport asks of the host for a session it opened: the engine's
/// input events from the page's WebSocket or data channels (docs/ARCHITECTURE.md,
/// "Controllers on other transports"). The host performs each on its loop with its time,
/// in the order its transport sent them, and answers with at most one `ControllerAnswer`.
/// Opening a session is not a command: it has no id yet.
package enum ControllerCommand: Sendable, Equatable {
    /// A sample (its button field the session's button state); `latencyMicros`: one-way
    /// latency where the transport can estimate the clocks, else nil.
    case motion(MotionSample, latencyMicros: Int64?)
    /// An edge, delivered once.
    case button(Button, isDown: Bool)
    /// The transport heard from the controller without an event (a ping): the backstop
    /// (`ExternalControllers.timeout`) keeps an idle, live session.
    case heard
    /// The transport ended it: every button it held released, then it closes.
    case close(SessionCloseReason)
    case recenter
    /// The session's device may type, or not (after opening, again when the owner changes it).
    case setTyping(allowed: Bool)
    /// Sets (or, with nil, reads) the session's mode. Answer: `.mode`, the mode in effect.
    case mode(set: MappingSettings.Mode?)
    /// Gives the session a virtual pad or takes it away (not when the host gives every
    /// controller one). Answer: `.pad`, whether it has one now.
    case pad(on: Bool)
    /// The session's gyro as a pad stick (its page's choice). Answer: `.gyroStick`, the
    /// target in effect.
    case gyroStick(GyroStickSettings.Target)
    /// A manual gyro calibration (its page's Calibrate). Answer: `.calibration`, what came
    /// of it; none when the session is gone. Progress and the end follow as notices.
    case calibrate
    /// The session's button map as the phone page labels it. Answer: `.reply`.
    case buttonLabels
    /// One touchpad, typing or laser message of the page. Answer: `.reply` when the page
    /// is told something, else none.
    case input(WebInputMessage)
}

/// The host's answer to a `ControllerCommand` (`ControllerCommand` says which has one).
package enum ControllerAnswer: Sendable, Equatable {
    case mode(MappingSettings.Mode)
    /// Whether the session has a virtual pad now; nil when this host makes no pads (or the
    /// session is gone).
    case pad(Bool?)
    case gyroStick(GyroStickSettings.Target)
    case calibration(CalibrationReport)
    /// What to tell the page (its button labels, the answer to its input).
    case reply(WebInputReply)
}
