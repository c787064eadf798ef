/// A point on a monotonic clock, in nanoseconds from an arbitrary origin.
///
/// The core never reads a clock: callers pass the current `Instant` in, and state
/// machines hand back the next `Instant` at which they want to be called again.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static let zero = Instant(nanoseconds: 0)

    public static func seconds(_ s: Double) -> Instant { Instant(nanoseconds: Int64(s * 1e9)) }
    public static func milliseconds(_ ms: Int64) -> Instant { Instant(nanoseconds: ms * 1_000_000) }

    /// Microseconds, the unit the wire uses for timestamps.
    public var microseconds: Int64 { nanoseconds / 1_000 }
    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }

    public static func + (a: Instant, d: Duration) -> Instant { Instant(nanoseconds: a.nanoseconds &+ d.nanoseconds) }
    public static func - (a: Instant, d: Duration) -> Instant { Instant(nanoseconds: a.nanoseconds &- d.nanoseconds) }
    public static func - (a: Instant, b: Instant) -> Duration { .nanoseconds(a.nanoseconds &- b.nanoseconds) }

    public var description: String { "\(seconds)s" }
}

extension Duration {
    /// The whole duration in nanoseconds, saturating at `Int64.max`.
    public var nanoseconds: Int64 {
        let (s, atto) = components
        let (ns, overflow) = s.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return s < 0 ? .min : .max }
        return ns &+ atto / 1_000_000_000
    }

    public var secondsDouble: Double { Double(nanoseconds) / 1e9 }

    public static func secondsDouble(_ s: Double) -> Duration { .nanoseconds(Int64(s * 1e9)) }
}

/// The earlier of two optional deadlines.
public func earliest(_ a: Instant?, _ b: Instant?) -> Instant? {
    switch (a, b) {
    case let (x?, y?): return Swift.min(x, y)
    case let (x?, nil): return x
    case let (nil, y?): return y
    case (nil, nil): return nil
    }
}
