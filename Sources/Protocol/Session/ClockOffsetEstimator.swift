/// Estimates (host clock − client clock) from ping/pong exchanges, NTP style:
/// offset = hostTime − (sent + received) / 2, trusting the exchange with the smallest
/// round trip among the last few (it has the least queueing asymmetry).
public struct ClockOffsetEstimator: Sendable, Equatable {
    public static let history = 8
    private var samples: [(rtt: Int64, offset: Int64)] = []

    public init() {}

    public var offsetMicros: Int64 {
        samples.min(by: { $0.rtt < $1.rtt })?.offset ?? 0
    }

    public mutating func addSample(clientSentMicros: UInt64, hostMicros: UInt64, clientReceivedMicros: UInt64) {
        guard clientReceivedMicros >= clientSentMicros else { return }
        let rtt = Int64(clientReceivedMicros - clientSentMicros)
        let midpoint = Int64(truncatingIfNeeded: clientSentMicros) + rtt / 2
        samples.append((rtt, Int64(truncatingIfNeeded: hostMicros) &- midpoint))
        if samples.count > Self.history { samples.removeFirst() }
    }

    public static func == (a: Self, b: Self) -> Bool { a.offsetMicros == b.offsetMicros }
}
