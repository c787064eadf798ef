import NIOCore
import RemotionProtocol

/// Controllers that arrive by another transport (the web controller's WebSocket or data
/// channels, a DSU source) join the same host: the same state machine gives them a session slot, the
/// same sink maps and injects their motion, and the same release runs when they end.
/// Call these on the host's loop (HostService's methods hop there).
extension HostChannelHandler {
    /// A new controller from `origin` (the web page, a DSU slot, a local gamepad), or nil
    /// when the host is full.
    public func openExternal(from origin: ControllerOrigin<SocketAddress>) -> SessionID? {
        let now = loopNow()
        var random = SystemRandomNumberGenerator()
        guard let (id, actions) = machine.openExternal(from: origin, now: now, random: &random) else { return nil }
        perform(actions, now: now)
        afterExternalEvent(now: now)
        return id
    }

    public func externalMotion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64?) {
        let now = loopNow()
        perform(machine.externalMotion(id, sample, latencyMicros: latencyMicros, now: now), now: now)
        afterExternalEvent(now: now)
    }

    public func externalButton(_ id: SessionID, _ button: Button, isDown: Bool) {
        let now = loopNow()
        perform(machine.externalButton(id, button, isDown: isDown, now: now), now: now)
        afterExternalEvent(now: now)
    }

    /// The transport heard from the controller (a keep-alive): the state machine's
    /// backstop leaves an idle but live session open.
    public func externalHeard(_ id: SessionID) {
        machine.externalHeard(id, now: loopNow())
    }

    /// Rumble and light for a datagram session's controller: sent at once. False when
    /// `id` is not a datagram session (an external one's transport carries its own).
    @discardableResult
    public func sendFeedback(_ id: SessionID, _ feedback: ControllerFeedback) -> Bool {
        let actions = machine.feedback(id, feedback)
        guard !actions.isEmpty else { return false }
        let now = loopNow()
        perform(actions, now: now)
        flushWrites()
        return true
    }

    public func closeExternal(_ id: SessionID, reason: SessionCloseReason) {
        let now = loopNow()
        perform(machine.closeExternal(id, reason: reason), now: now)
        afterExternalEvent(now: now)
    }
}

extension HostService {
    /// Runs `body` on the host's loop without waiting; calls from one thread run in order.
    public func execute(_ body: @escaping @Sendable (HostChannelHandler<Framing, Sink>) -> Void) {
        let handler = self.handler
        channel.eventLoop.execute { body(handler.value) }
    }
}
