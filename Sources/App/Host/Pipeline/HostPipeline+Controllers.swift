import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// Controllers on transports of their own — the page's WebSocket and data channels, a DSU
/// server's slot, a gamepad on this computer — join the host here, on its loop, with the
/// loop's time: the engine (`HostEngine.open`, `perform`) gives each an id and a slot beside
/// the datagram sessions and its release guarantees, and its outputs are routed like a
/// datagram session's. Nothing passes through the UDP handler; the host's loop driver is
/// told (`HostSinkDriver.sinkChanged`) so that it counts the slots, reports and keeps its one
/// timer armed for the engine's deadlines.
extension HostPipeline {
    /// A controller from `origin`, shown as `name`, or nil when every slot is taken. With a
    /// `calibrationKey` (a DSU pad's MAC, a local pad's uniq) its remembered calibration is
    /// put back before its first sample; `notices` gets what the host tells it unasked
    /// (rumble and light, a calibration's progress), nil when its transport has no way back.
    package func open(from origin: HostControllerOrigin, name: String, calibrationKey: String? = nil,
                      notices: (@Sendable (ControllerNotice) -> Void)? = nil, now: Instant) -> SessionID? {
        var random = SecureRandom()
        let start = pending.count
        guard let id = engine.open(from: origin, name: name, screen: injector.screen, now: now, random: &random,
                                   into: &pending) else {
            // Each transport says so in its own words, once (a DSU slot retries every second).
            logger.debug("controller refused: every slot is taken", metadata: ["from": "\(origin.displayText)",
                                                                              "slots": "\(maximumControllers)"])
            return nil
        }
        if let notices { feedback.sinks[id] = notices }
        route(from: start, now: now)
        if let calibrationKey { identify(id, as: calibrationKey, now: now) }
        driver?.sinkChanged(now: now, membership: true)
        return id
    }

    package func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant) {
        perform(.button(button, isDown: isDown), for: id, now: now)
    }

    /// The transport heard from the controller without an event (a ping): the backstop
    /// (`ExternalControllers.timeout`) keeps an idle, live controller.
    package func heard(_ id: SessionID, now: Instant) { perform(.heard, for: id, now: now) }

    /// The transport ended it: every button it held released, then it closes.
    package func close(_ id: SessionID, reason: SessionCloseReason, now: Instant) {
        perform(.close(reason), for: id, now: now)
    }

    /// The controllers of other transports (their slots and ids for the datagram sessions).
    package var sessionsElsewhere: Set<SessionID> { engine.sessionsElsewhere }

    package func attached(to driver: any HostSinkDriver) { self.driver = driver }

    /// The engine's deadlines (the backstop, typing's borrowed keycodes).
    package var nextDeadline: Instant? { engine.nextDeadline }

    package func tick(now: Instant) {
        let start = pending.count
        let before = engine.external.count
        engine.tick(now: now, screen: injector.screen, into: &pending)
        route(from: start, now: now)
        if engine.external.count != before { driver?.sinkChanged(now: now, membership: true) }
    }

    /// Every controller of another transport closes (the host stops): what it held released.
    func closeAllExternal(now: Instant) {
        let start = pending.count
        engine.closeAll(reason: .hostShutdown, screen: injector.screen, now: now, into: &pending)
        route(from: start, now: now)
    }
}
