import RemotionProtocol

/// A loop driver's status cadence and wake-up, as a value (sans-IO): a report at most every
/// `interval` while controllers are open, and at once after one opened or closed; the one
/// timer's next wake-up is the earliest of the datagram peer's deadline, the next report and
/// the engine's (or sink's) deadline. Both drivers hold one: App's `HostDriver` and `SinkDriver`.
public struct ReportCadence: Sendable {
    /// How often the status is handed a report while controllers are connected.
    public static var interval: Duration { .milliseconds(100) }
    private var lastReport = Instant.zero
    private var membershipChanged = false

    public init() {}

    /// A controller opened or closed: the next `takeReport` is due at once.
    public mutating func membershipDidChange() { membershipChanged = true }

    /// Whether a report is due at `now`; when it is, it counts as given.
    public mutating func takeReport(now: Instant) -> Bool {
        guard membershipChanged || now - lastReport >= Self.interval else { return false }
        lastReport = now
        membershipChanged = false
        return true
    }

    /// The timer's next wake-up: the earliest of `peer`'s deadline, a report tick while
    /// controllers are `open`, and `engine`'s deadline (nil: nothing to wake for).
    public func nextWakeUp(peer: Instant?, engine: Instant?, open: Bool) -> Instant? {
        earliest(earliest(peer, open ? lastReport + Self.interval : nil), engine)
    }
}
