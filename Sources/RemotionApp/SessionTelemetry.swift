import Histogram
import RemotionCore

/// Per-controller numbers the host shows: latency distribution, packet rate, loss.
public struct SessionTelemetry: Sendable {
    public var address: String
    public var opened: Instant
    public var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
    public var motionPackets = 0
    public var buttonEdges = 0
    public var attitude: Attitude?
    public var pointer: (x: Int, y: Int)?
    public var buttons = ButtonSet.none
    public var lastMotion: Instant?
    /// Motion packets per second over the last second (exponentially weighted).
    public var packetRate: Double = 0
    private var rateWindowStart: Instant?
    private var rateWindowCount = 0

    public init(address: String, opened: Instant) {
        self.address = address
        self.opened = opened
    }

    public mutating func recordMotion(latencyMicros: Int64, now: Instant) {
        motionPackets += 1
        // Clock offsets are estimates: a slightly negative latency is an estimate error.
        _ = latency.record(UInt64(max(0, latencyMicros)))
        lastMotion = now
        if let start = rateWindowStart {
            rateWindowCount += 1
            let elapsed = (now - start).secondsDouble
            if elapsed >= 1 {
                packetRate = Double(rateWindowCount) / elapsed
                rateWindowStart = now
                rateWindowCount = 0
            }
        } else {
            rateWindowStart = now
        }
    }

    public var latencyP50Micros: UInt64 { latency.totalCount == 0 ? 0 : latency.valueAtPercentile(50) }
    public var latencyP99Micros: UInt64 { latency.totalCount == 0 ? 0 : latency.valueAtPercentile(99) }
}
