
/// A token bucket: `burst` tokens, refilled at `perSecond`. Pure: time is a parameter.
public struct TokenBucket: Sendable {
    public let burst: Double
    public let perSecond: Double
    private var tokens: Double
    private var updated: Instant

    public init(burst: Double, perSecond: Double, now: Instant) {
        self.burst = burst
        self.perSecond = perSecond
        tokens = burst
        updated = now
    }

    /// Takes one token if there is one.
    public mutating func take(now: Instant) -> Bool {
        refill(now: now)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }

    /// True once the bucket has refilled completely (an idle source can be forgotten).
    public func isFull(now: Instant) -> Bool {
        tokens + max(0, (now - updated).secondsDouble) * perSecond >= burst
    }

    private mutating func refill(now: Instant) {
        let elapsed = max(0, (now - updated).secondsDouble)
        tokens = min(burst, tokens + elapsed * perSecond)
        updated = now
    }
}

/// Handshake admission: a token bucket per source address and one for everything,
/// with a bounded source table (when it is full, idle sources are forgotten; if
/// none is idle, new sources wait: memory stays bounded under a spoofed flood).
public struct HandshakeLimiter<Address: Hashable & Sendable>: Sendable {
    public struct Limits: Sendable {
        public var perSourceBurst: Double = 8
        public var perSourcePerSecond: Double = 4
        public var totalBurst: Double = 64
        public var totalPerSecond: Double = 100
        public var maxSources = 1024
        public init() {}
    }

    public let limits: Limits
    private var total: TokenBucket
    private var sources: [Address: TokenBucket] = [:]

    public init(limits: Limits, now: Instant) {
        self.limits = limits
        total = TokenBucket(burst: limits.totalBurst, perSecond: limits.totalPerSecond, now: now)
    }

    public var trackedSources: Int { sources.count }

    /// True if a handshake from `source` may cost a Diffie-Hellman now.
    public mutating func admit(_ source: Address, now: Instant) -> Bool {
        if sources[source] == nil, sources.count >= limits.maxSources {
            sources = sources.filter { !$0.value.isFull(now: now) }
            guard sources.count < limits.maxSources else { return false }
        }
        var bucket = sources[source]
            ?? TokenBucket(burst: limits.perSourceBurst, perSecond: limits.perSourcePerSecond, now: now)
        let allowed = bucket.take(now: now)
        sources[source] = bucket
        return allowed && total.take(now: now)
    }
}

/// Counts handshake datagrams per whole second; "under load" when the current or the
/// previous second reached the threshold (then mac2 / a cookie is required).
public struct LoadMeter: Sendable {
    public let threshold: Int
    private var second: Int64 = .min
    private var current = 0
    private var previous = 0

    public init(threshold: Int) { self.threshold = threshold }

    public mutating func record(now: Instant) {
        roll(now: now)
        current += 1
    }

    public mutating func isUnderLoad(now: Instant) -> Bool {
        roll(now: now)
        return current >= threshold || previous >= threshold
    }

    private mutating func roll(now: Instant) {
        let s = now.nanoseconds / 1_000_000_000
        guard s != second else { return }
        previous = s == second + 1 ? current : 0
        current = 0
        second = s
    }
}
