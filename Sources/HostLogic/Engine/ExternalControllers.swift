import RemotionProtocol

/// The controllers that reach the host by a transport of their own — the page's WebSocket
/// or data channels, a DSU server's slot, a gamepad on this computer — as the host's engine
/// keeps them (docs/ARCHITECTURE.md, "Controllers on other transports"). Sans-IO: events
/// and the time in, the same `HostAction`s a datagram session makes out.
///
/// The transport authenticates a controller and decides when it ends; this table gives it
/// an id and a slot under the host's limit (shared with the datagram sessions, whose
/// count and ids the caller passes in), and the guarantees every controller has: a button
/// edge is delivered once, the motion sample's buttons are the truth, and every button it
/// held is released when it ends — also when its transport fails to end it: a controller
/// silent for `timeout` is closed by `expire` (the backstop behind the transport's own
/// watchdog, e.g. a WebSocket stuck on a phone that stopped reading).
package struct ExternalControllers<Address: Hashable & Sendable>: Sendable {
    package struct Controller: Sendable, Equatable {
        /// Where it came from (never `.udp`: those are datagram sessions).
        package var origin: ControllerOrigin<Address>
        package var buttons: ButtonSet = .none
        /// The last motion, edge or keep-alive from its transport.
        package var lastHeard: Instant
    }

    /// Silence after which a controller is closed although its transport did not end it:
    /// well behind the transports' own timeouts (the page's 2.5 s), so it fires only when
    /// a transport is stuck.
    package var timeout: Duration = .seconds(10)
    /// While controllers are open the host looks in at least this often (`nextDeadline`), so
    /// a longer gap between the times it is given means the host itself did not run.
    package var heartbeat: Duration = .seconds(1)
    /// A gap longer than this between two times the host gives (its loop blocked or starved:
    /// a drain of a loaded pad's backlog took 12 s in a TCG guest) is the host's, not the
    /// controllers' silence: it is added to every controller's last-heard time. Without it
    /// the backstop closed a local pad that was being read all along, and the pad stayed
    /// dead until plugged in again.
    package var stallAllowance: Duration {
        get { stall.allowance }
        set { stall.allowance = newValue }
    }
    package private(set) var controllers: [SessionID: Controller] = [:]
    /// When the host last ran (any event, `expire`).
    private var stall = StallClock(allowance: .seconds(3))
    /// Opens refused because every slot was taken.
    package private(set) var refusedFull = 0

    package init() {}

    package var count: Int { controllers.count }
    package var ids: Set<SessionID> { Set(controllers.keys) }

    /// When the oldest silent controller reaches the backstop, or the next heartbeat if that
    /// comes first (nil: none open).
    package var nextDeadline: Instant? {
        guard let oldest = controllers.values.map(\.lastHeard).min() else { return nil }
        let silence = oldest + timeout
        guard let awake = stall.awake else { return silence }
        return Swift.min(silence, awake + heartbeat)
    }

    /// The host runs at `now`. A gap since it last ran longer than `stallAllowance` was the
    /// host's stall: nobody could be heard in it, so it does not count as silence.
    private mutating func wake(_ now: Instant) {
        guard let gap = stall.wake(now) else { return }
        for i in controllers.indices {
            controllers.values[i].lastHeard = Swift.min(controllers.values[i].lastHeard + gap, now)
        }
    }

    /// A controller from `origin`: its id and `.sessionOpened`, or nil when the host holds
    /// `maximum` controllers already (`datagramSessions` of them on its own socket). The id
    /// is random, never 0, never one in use here or by a datagram session (`taken`).
    package mutating func open(from origin: ControllerOrigin<Address>, now: Instant, maximum: Int,
                               datagramSessions: Int, taken: (SessionID) -> Bool,
                               random: inout some RandomNumberGenerator) -> (SessionID, [HostAction<Address>])? {
        wake(now)
        guard controllers.count + datagramSessions < maximum else {
            refusedFull += 1
            return nil
        }
        var id = SessionID(0)
        while id.rawValue == 0 || controllers[id] != nil || taken(id) {
            id = SessionID(UInt32.random(in: 1...UInt32.max, using: &random))
        }
        controllers[id] = Controller(origin: origin, lastHeard: now)
        return (id, [.sessionOpened(id, origin)])
    }

    /// A button edge; a repeated press or release of the same button delivers nothing.
    package mutating func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant) -> [HostAction<Address>] {
        wake(now)
        guard controllers[id] != nil else { return [] }
        controllers[id]?.lastHeard = now
        return edge(id, button, isDown: isDown)
    }

    /// A motion sample. Its button field is the truth: edges the transport lost or
    /// reordered are delivered first (releases before presses), then the motion.
    package mutating func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64?,
                                 now: Instant) -> [HostAction<Address>] {
        wake(now)
        guard let c = controllers[id] else { return [] }
        controllers[id]?.lastHeard = now
        var actions: [HostAction<Address>] = []
        let changed = c.buttons.changes(to: sample.buttons)
        for b in changed where c.buttons.contains(b) { actions += edge(id, b, isDown: false) }
        for b in changed where !c.buttons.contains(b) { actions += edge(id, b, isDown: true) }
        actions.append(.motion(id, sample, latencyMicros: latencyMicros.flatMap(HostStateMachine<Address>.plausibleLatency)))
        return actions
    }

    /// The transport heard from the controller without an event (a page's ping): the
    /// backstop leaves an idle but live controller open.
    package mutating func heard(_ id: SessionID, now: Instant) {
        wake(now)
        controllers[id]?.lastHeard = now
    }

    /// The transport ended it (closed, timed out, revoked, the host stops): every button it
    /// held is released, then `.sessionClosed`. Nothing for an id not open.
    package mutating func close(_ id: SessionID, reason: SessionCloseReason) -> [HostAction<Address>] {
        guard let c = controllers.removeValue(forKey: id) else { return [] }
        return c.buttons.buttons.map { .button(id, $0, isDown: false) } + [.sessionClosed(id, reason)]
    }

    /// The backstop: controllers silent for `timeout`, oldest first.
    package mutating func expire(now: Instant) -> [HostAction<Address>] {
        wake(now)
        let expired = controllers.filter { now - $0.value.lastHeard >= timeout }
            .sorted { ($0.value.lastHeard, $0.key) < ($1.value.lastHeard, $1.key) }.map(\.key)
        return expired.flatMap { close($0, reason: .timedOut) }
    }

    /// The host stops: every controller closed, in id order.
    package mutating func closeAll(reason: SessionCloseReason) -> [HostAction<Address>] {
        controllers.keys.sorted().flatMap { close($0, reason: reason) }
    }

    private mutating func edge(_ id: SessionID, _ button: Button, isDown: Bool) -> [HostAction<Address>] {
        guard var c = controllers[id], c.buttons.contains(button) != isDown else { return [] }
        c.buttons.set(button, down: isDown)
        controllers[id] = c
        return [.button(id, button, isDown: isDown)]
    }
}
