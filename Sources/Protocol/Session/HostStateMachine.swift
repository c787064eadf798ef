
/// The host's sans-IO protocol engine for many controllers at once. Feed it messages
/// (decoded by the framing: plain, or authenticated by the Noise layer) with their source
/// and the current time; call `tick` at `nextDeadline`. It never injects anything itself: it
/// returns actions, and every way a session ends releases what it held.
public struct HostStateMachine<Address: Hashable & Sendable>: Sendable {
    public struct Configuration: Sendable {
        /// Silence after which a session is closed.
        public var timeout: Duration = .milliseconds(2500)
        public var maximumSessions = 16
        /// A gap longer than this between two times the machine is given (`receive`,
        /// `tick`) is the host's own stall — its loop blocked or starved, the datagrams
        /// waiting in the socket — not the controllers' silence: it is added to every
        /// session's last-heard time, so the first timer after a stall does not close
        /// sessions whose datagrams are still queued. While sessions are open `nextDeadline`
        /// asks to look in every half of it. nil (the default): every gap is silence, for a
        /// caller that does not look in regularly.
        public var stallAllowance: Duration?
        public init() {}
    }

    /// For this long after a button batch, the ack is repeated at most every
    /// `ackRepeatInterval` as motion packets arrive (at most 10 extra acks per batch).
    @inlinable public static var ackRepeatWindow: Duration { .seconds(1) }
    @inlinable public static var ackRepeatInterval: Duration { .milliseconds(100) }

    // The per-datagram path (`receive`) is @inlinable, with the stored state it touches
    // @usableFromInline: the host calls it from another module with its own address type,
    // and only inlinable code is specialised there (unspecialised, every datagram made
    // generic metadata at run time: ~11% of the core benchmark's instructions,
    // docs/benchmarks-history.md). Readers outside see the same read-only properties as before.
    public let configuration: Configuration
    @usableFromInline var storedSessions: [SessionID: HostSession<Address>] = [:]
    @usableFromInline var storedDrops = DropCounters()

    public var sessions: [SessionID: HostSession<Address>] { storedSessions }
    public var drops: DropCounters { storedDrops }
    /// The controllers the host holds on other transports (the web page, DSU sources,
    /// local pads: the host's engine keeps those, not this machine). They count toward
    /// `maximumSessions`, and a datagram session never gets one of their ids. The host's
    /// adapter brings it up to date before a ping from an unknown session (the only
    /// message that opens one).
    public var sessionsElsewhere: Set<SessionID> = []

    /// Datagram sessions and those held elsewhere together.
    @inlinable public var sessionCount: Int { storedSessions.count + sessionsElsewhere.count }

    public init(configuration: Configuration = .init()) {
        self.configuration = configuration
        stall = configuration.stallAllowance.map(StallClock.init(allowance:))
    }

    public var nextDeadline: Instant? {
        var oldest: Instant?
        for session in sessions.values where oldest.map({ session.lastHeard < $0 }) ?? true { oldest = session.lastHeard }
        guard let silence = oldest.map({ $0 + configuration.timeout }) else { return nil }
        guard let stall, let awake = stall.awake else { return silence }
        return min(silence, awake + stall.allowance / 2)
    }

    /// When the host last ran; nil without a `Configuration.stallAllowance`.
    @usableFromInline var stall: StallClock?

    /// The host runs at `now`; a stall that just ended is credited to every session.
    @inlinable
    mutating func wake(_ now: Instant) {
        if let gap = stall?.wake(now) { creditStall(gap, now: now) }
    }

    @usableFromInline
    mutating func creditStall(_ stall: Duration, now: Instant) {
        for i in storedSessions.indices {
            storedSessions.values[i].lastHeard = min(storedSessions.values[i].lastHeard + stall, now)
        }
    }

    /// A decoded (and, with the security layer, authenticated) message.
    public mutating func receive(_ message: Message, session id: SessionID, from address: Address, now: Instant) -> [HostAction<Address>] {
        var actions: [HostAction<Address>] = []
        receive(message, session: id, from: address, now: now, into: &actions)
        return actions
    }

    /// The same, appending the actions to `actions`: a host that keeps one buffer for
    /// every datagram allocates nothing per motion packet.
    @inlinable
    public mutating func receive(_ message: Message, session id: SessionID, from address: Address, now: Instant,
                                 into actions: inout [HostAction<Address>]) {
        wake(now)
        guard let index = storedSessions.index(forKey: id) else {
            guard !sessionsElsewhere.contains(id), case let .ping(clientTime, offset) = message else {
                storedDrops.count(.unknownSession)
                // A client still streaming into a session this host closed (it timed
                // out, or the host restarted) learns so at once instead of sending
                // button edges nobody will deliver. The reply is no larger than the
                // request, so it cannot amplify a spoofed flood.
                switch message {
                case .motion, .buttons: actions.append(.send(.disconnect(.timeout), session: id, to: address))
                default: break
                }
                return
            }
            guard sessionCount < configuration.maximumSessions else {
                storedDrops.count(.tooManySessions)
                // Tell the controller why (no larger than its ping: no amplification).
                actions.append(.send(.disconnect(.full), session: id, to: address))
                return
            }
            var fresh = HostSession(id: id, address: address, now: now)
            fresh.clockOffsetMicros = offset
            fresh.stats.datagrams = 1
            storedSessions[id] = fresh
            actions.append(.sessionOpened(id, .udp(address)))
            actions.append(fresh.pong(clientTime, now: now))
            return
        }
        guard storedSessions.values[index].address == address else {
            storedDrops.count(.addressMismatch)
            return
        }
        // In place in the table: one lookup, no copy of the record per datagram.
        switch storedSessions.values[index].receive(message, now: now, into: &actions) {
        case .taken:
            break
        case .unexpected:
            storedDrops.count(.unexpectedMessage)
        case .stale:
            storedDrops.count(.staleMotion)
        case let .disconnect(reason):
            actions += close(id, reason: .clientDisconnected(reason))
        }
    }

    /// Closes every session that has been silent for the timeout.
    public mutating func tick(now: Instant) -> [HostAction<Address>] {
        wake(now)
        let expired = storedSessions.values.filter { now - $0.lastHeard >= configuration.timeout }.map(\.id).sorted()
        return expired.flatMap { close($0, reason: .timedOut) }
    }

    /// Host shutdown: says goodbye to every client and releases everything.
    public mutating func shutdown() -> [HostAction<Address>] {
        storedSessions.keys.sorted().flatMap { id -> [HostAction<Address>] in
            guard let s = storedSessions[id] else { return [] }
            return [.send(.disconnect(.shutdown), session: id, to: s.address)] + close(id, reason: .hostShutdown)
        }
    }

    /// The controller's key is no longer trusted: tell it why, release what it held and
    /// close the session. Nothing happens for a session this machine does not know.
    public mutating func revoke(_ id: SessionID) -> [HostAction<Address>] {
        guard let s = storedSessions[id] else { return [] }
        return [.send(.disconnect(.revoked), session: id, to: s.address)] + close(id, reason: .revoked)
    }

    /// Rumble and light for a datagram session's controller (a game wrote them to its pad);
    /// nothing for a session this machine does not know or one held elsewhere (its transport
    /// carries its own: the page's WebSocket or data channel).
    public func feedback(_ id: SessionID, _ feedback: ControllerFeedback) -> [HostAction<Address>] {
        guard let s = storedSessions[id] else { return [] }
        return [.send(.feedback(feedback), session: id, to: s.address)]
    }

    /// Counts a datagram the security layer or transport dropped before it got here.
    public mutating func countDrop(_ reason: DropReason) { storedDrops.count(reason) }

    @usableFromInline
    mutating func close(_ id: SessionID, reason: SessionCloseReason) -> [HostAction<Address>] {
        guard let session = storedSessions.removeValue(forKey: id) else { return [] }
        let releases = session.buttons.buttons.map { HostAction<Address>.button(id, $0, isDown: false) }
        return releases + [.sessionClosed(id, reason)]
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
