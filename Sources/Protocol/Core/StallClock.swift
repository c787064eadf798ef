/// Tells a host's own stall from its controllers' silence. The host gives it every time it
/// runs (`wake`); a gap longer than `allowance` between two such times means the host itself
/// did not run — its loop blocked or starved, the controllers' input waiting in the kernel —
/// and `wake` returns its length, for the caller to add to every controller's last-heard
/// time. A caller that honours a heartbeat (looks in at least every `allowance`) never looks
/// stalled. Used by the wire session machine (`HostStateMachine`) and the engine's
/// controllers on other transports (`ExternalControllers`).
public struct StallClock: Sendable, Equatable {
    /// The longest gap between two runs that is not a stall.
    public var allowance: Duration
    @usableFromInline var lastRun: Instant?

    public init(allowance: Duration) { self.allowance = allowance }

    /// The latest time the host ran (nil: not yet).
    public var awake: Instant? { lastRun }

    /// The host runs at `now`: the length of the stall that just ended, or nil. An older time
    /// than the latest is neither a stall nor a step back.
    @inlinable
    public mutating func wake(_ now: Instant) -> Duration? {
        defer { if lastRun.map({ now > $0 }) ?? true { lastRun = now } }
        guard let last = lastRun, now > last + allowance else { return nil }
        return now - last
    }
}
