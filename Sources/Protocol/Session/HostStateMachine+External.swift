/// A controller session that another transport carries (a WebSocket from the web
/// controller page, a DSU source's slot). The transport authenticates it and decides
/// when it ends; the host's state machine gives it an id, a slot under
/// `maximumSessions`, and the same guarantees as a datagram session: button edges are
/// delivered once, and every button it held is released when it ends — also when the
/// transport fails to end it: a session that hears nothing for
/// `Configuration.externalTimeout` is closed by `tick` (the backstop behind the
/// transport's own timeout, e.g. a WebSocket whose watchdog is stuck).
public struct ExternalSession<Address: Hashable & Sendable>: Sendable, Equatable {
    /// Where the controller came from (never `.udp`: those are datagram sessions).
    public var origin: ControllerOrigin<Address>
    public var buttons: ButtonSet = .none
    public var opened: Instant
    /// The last motion, edge or keep-alive from the transport.
    public var lastHeard: Instant

    public init(origin: ControllerOrigin<Address>, opened: Instant) {
        self.origin = origin
        self.opened = opened
        lastHeard = opened
    }
}

extension HostStateMachine {
    /// Datagram sessions and external ones together.
    @inlinable public var sessionCount: Int { storedSessions.count + storedExternal.count }

    /// Opens a session for a controller on another transport: its id and the
    /// `.sessionOpened` action, or nil when every slot is taken (`.tooManySessions`
    /// is counted). The id is random, never one in use.
    public mutating func openExternal(from origin: ControllerOrigin<Address>, now: Instant,
                                      random: inout some RandomNumberGenerator) -> (SessionID, [HostAction<Address>])? {
        guard sessionCount < configuration.maximumSessions else {
            storedDrops.count(.tooManySessions)
            return nil
        }
        var id = SessionID(0)
        while id.rawValue == 0 || storedSessions[id] != nil || storedExternal[id] != nil {
            id = SessionID(UInt32.random(in: 1...UInt32.max, using: &random))
        }
        storedExternal[id] = ExternalSession(origin: origin, opened: now)
        return (id, [.sessionOpened(id, origin)])
    }

    /// A button edge from the controller; a repeated press or release of the same
    /// button delivers nothing.
    public mutating func externalButton(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant) -> [HostAction<Address>] {
        guard storedExternal[id] != nil else { return [] }
        storedExternal[id]?.lastHeard = now
        return edge(id, button, isDown: isDown)
    }

    private mutating func edge(_ id: SessionID, _ button: Button, isDown: Bool) -> [HostAction<Address>] {
        guard var s = storedExternal[id], s.buttons.contains(button) != isDown else { return [] }
        s.buttons.set(button, down: isDown)
        storedExternal[id] = s
        return [.button(id, button, isDown: isDown)]
    }

    /// A motion sample. Its button field is the truth: edges the transport lost or
    /// reordered are delivered first (releases before presses), then the motion.
    public mutating func externalMotion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64?,
                                        now: Instant) -> [HostAction<Address>] {
        guard let s = storedExternal[id] else { return [] }
        storedExternal[id]?.lastHeard = now
        var actions: [HostAction<Address>] = []
        let changed = s.buttons.changes(to: sample.buttons)
        for b in changed where s.buttons.contains(b) { actions += edge(id, b, isDown: false) }
        for b in changed where !s.buttons.contains(b) { actions += edge(id, b, isDown: true) }
        actions.append(.motion(id, sample, latencyMicros: latencyMicros.flatMap(Self.plausibleLatency)))
        return actions
    }

    /// The transport heard from the controller without an event for the host (a page's
    /// ping): the backstop does not close a session that is idle but alive.
    public mutating func externalHeard(_ id: SessionID, now: Instant) {
        storedExternal[id]?.lastHeard = now
    }

    /// The backstop: external sessions silent for `externalTimeout`, oldest first.
    mutating func expireExternal(now: Instant) -> [HostAction<Address>] {
        let expired = storedExternal.filter { now - $0.value.lastHeard >= configuration.externalTimeout }
            .sorted { ($0.value.lastHeard, $0.key) < ($1.value.lastHeard, $1.key) }.map(\.key)
        return expired.flatMap { closeExternal($0, reason: .timedOut) }
    }

    /// The transport ended the session (closed, timed out, revoked, shutdown): every
    /// button it held is released, then `.sessionClosed`.
    public mutating func closeExternal(_ id: SessionID, reason: SessionCloseReason) -> [HostAction<Address>] {
        guard let s = storedExternal.removeValue(forKey: id) else { return [] }
        return s.buttons.buttons.map { .button(id, $0, isDown: false) } + [.sessionClosed(id, reason)]
    }
}

extension HostStateMachine {
    /// The range a one-way latency can have when the two clocks really are shared or the
    /// offset really is estimated. A client that reports no estimate (offset 0 from another
    /// machine's clock) gives values of hours or days: those are not latencies, and the
    /// status says "not measured" instead of printing them.
    public static var plausibleLatencyMicros: ClosedRange<Int64> { -500_000...10_000_000 }

    /// `micros` if it is a plausible one-way latency, else nil.
    @inlinable
    public static func plausibleLatency(_ micros: Int64) -> Int64? {
        plausibleLatencyMicros.contains(micros) ? micros : nil
    }
}
