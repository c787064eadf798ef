import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

extension HostPipeline {
    /// One touchpad, typing or laser message of `id` (docs/WEB-CONTROLLER.md, "What each control does by default"):
    /// the core decides (`PipelineCore.webInput`), the outputs are routed like a button's
    /// (output hooks first, exactly-once edges, released when the session ends), the text is
    /// typed here. Returns a reply for the page (typing refused, characters that could not be typed).
    @discardableResult
    package func webInput(_ id: SessionID, _ message: WebInputMessage, now: Instant) -> WebInputReply? {
        if case .reply(let reply)? = perform(.input(message), for: id, now: now) { return reply }
        return nil
    }

    /// One session's typing permission (its device's, set by the transport when it opens).
    package func setTyping(_ id: SessionID, allowed: Bool) { engine.setTyping(id, allowed: allowed) }

    /// Types what the engine let through (`PipelineOutput.text`) with the text output, the
    /// only output that takes text: whether it can type, and what it could not, are its to say.
    func type(_ text: String, now: Instant) -> WebInputReply? {
        // The driver's timer then also covers the keycodes' return (`nextDeadline`).
        driver?.sinkChanged(now: now, membership: false)
        // The engine let this text through only with a text output and the desktop session active.
        return self.text?.type(text)
    }

    /// The host's desktop session became active or inactive (logind's `Active`, a fast user
    /// switch): inactive releases every held input, shows every virtual pad at rest, tells the
    /// observers (the DSU server's slots, the laser) every session closed, and drops input,
    /// pad reports and observed motion until active again, when the observers see the open
    /// sessions come back (one rule for all the outputs: rest, release, then silence).
    package func setDesktopSessionActive(_ active: Bool, now: Instant) {
        let start = pending.count
        engine.setSuspended(!active, into: &pending)
        route(from: start, now: now)
        guard active == injector.isSuspended else { return }
        if active {
            injector.resume()
            logger.info("desktop session active again: injecting", metadata: ["dropped": "\(injector.droppedWhileSuspended)"])
        } else {
            if let error = injector.suspend() { fail(error) }
            text?.restoreBorrowedKeycodes()
            logger.info("desktop session inactive (another user's session is active): every held input released, input dropped until it is active again")
        }
    }

    /// How long after the last text the borrowed keycodes are given back (the core's).
    package static let typingRestoreDelay = PipelineCore.typingRestoreDelay
}
