import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// Controllers on transports of their own — the page's WebSocket and data channels, a DSU
/// server's slot, a gamepad on this computer — join the host here, on its loop, with the
/// loop's time: `ExternalControllers` (HostLogic, sans-IO) gives each an id and a slot
/// beside the datagram sessions and its release guarantees, and the actions it returns go
/// the way a datagram session's do (`handle`). Nothing passes through the UDP handler; the
/// handler is only told (`HostSinkDriver.sinkChanged`) so that it counts the slots, reports
/// and keeps its one timer armed for the deadlines here.
extension HostPipeline {
    /// A controller from `origin`, shown as `name`, or nil when every slot is taken. With a
    /// `calibrationKey` (a DSU pad's MAC, a local pad's uniq) its remembered calibration is
    /// put back before its first sample; `notices` gets what the host tells it unasked
    /// (rumble and light, a calibration's progress), nil when its transport has no way back.
    package func open(from origin: HostControllerOrigin, name: String, calibrationKey: String? = nil,
                      notices: (@Sendable (ControllerNotice) -> Void)? = nil, now: Instant) -> SessionID? {
        var random = SecureRandom()
        let datagram = core.sessions.count - external.count
        guard let (id, actions) = external.open(from: origin, now: now, maximum: maximumControllers,
                                                datagramSessions: datagram, taken: { core.sessions[$0] != nil },
                                                random: &random) else {
            // Each transport says so in its own words, once (a DSU slot retries every second).
            logger.debug("controller refused: every slot is taken", metadata: ["from": "\(origin.displayText)",
                                                                              "slots": "\(maximumControllers)"])
            return nil
        }
        if let notices { noticeSinks[id] = notices }
        perform(actions, now: now)
        setName(id, name)
        if let calibrationKey { identify(id, as: calibrationKey, now: now) }
        driver?.sinkChanged(now: now, membership: true)
        return id
    }

    /// `latencyMicros`: one-way latency where the transport can estimate the clocks, else nil.
    package func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64?, now: Instant) {
        perform(external.motion(id, sample, latencyMicros: latencyMicros, now: now), now: now)
        driver?.sinkChanged(now: now, membership: false)
    }

    package func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant) {
        perform(external.button(id, button, isDown: isDown, now: now), now: now)
        driver?.sinkChanged(now: now, membership: false)
    }

    /// The transport heard from the controller without an event (a ping): the backstop
    /// (`ExternalControllers.timeout`) keeps an idle, live controller.
    package func heard(_ id: SessionID, now: Instant) { external.heard(id, now: now) }

    /// The transport ended it: every button it held released, then it closes.
    package func close(_ id: SessionID, reason: SessionCloseReason, now: Instant) {
        let actions = external.close(id, reason: reason)
        guard !actions.isEmpty else { return }
        perform(actions, now: now)
        driver?.sinkChanged(now: now, membership: true)
    }

    /// The controllers of other transports (their slots and ids for the datagram sessions).
    package var sessionsElsewhere: Set<SessionID> { external.ids }

    package func attached(to driver: any HostSinkDriver) { self.driver = driver }

    /// The backstop's deadline and the pipeline's own (typing's borrowed keycodes).
    package var nextDeadline: Instant? {
        earliest(external.nextDeadline, core.typingRestoreDeadline)
    }

    package func tick(now: Instant) {
        let expired = external.expire(now: now)
        if !expired.isEmpty {
            perform(expired, now: now)
            driver?.sinkChanged(now: now, membership: true)
        }
        restoreTypingIfIdle(now: now)
    }

    /// Every controller of another transport closes (the host stops): what it held released.
    func closeAllExternal(now: Instant) {
        perform(external.closeAll(reason: .hostShutdown), now: now)
    }

    private func perform(_ actions: [HostAction<SocketAddress>], now: Instant) {
        for action in actions { handle(action, now: now) }
    }
}
