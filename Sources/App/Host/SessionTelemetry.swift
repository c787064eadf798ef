import RemotionProtocol

/// Per-controller numbers the host shows: latency distribution, packet rate, loss.
package struct SessionTelemetry: Sendable {
    /// The controller's name (`HostPipeline.setName`): for Noise sessions the name it paired under.
    package var name = ""
    package var address: String
    package var opened: Instant
    package var latency = LatencyHistogram()
    package var motionPackets = 0
    package var buttonEdges = 0
    package var attitude: Attitude?
    package var pointer: (x: Int, y: Int)?
    package var buttons = ButtonSet.none
    package var lastMotion: Instant?
    /// Something the user should know about this controller (shown in the status).
    package var note: String?
    /// Motion packets per second over the last second (exponentially weighted).
    package var packetRate: Double = 0
    private var rateWindowStart: Instant?
    private var rateWindowCount = 0

    package init(address: String, opened: Instant) {
        self.address = address
        self.opened = opened
    }

    /// The latency of a sample whose latency nobody can know (a DSU server on another
    /// device stamps with its own clock): counted as a packet, left out of the latency.
    package static let unmeasuredLatency = Int64.min

    package mutating func recordMotion(latencyMicros: Int64, attitude: Attitude?, now: Instant) {
        self.attitude = attitude
        recordMotion(latencyMicros: latencyMicros, now: now)
    }

    package mutating func recordMotion(latencyMicros: Int64, now: Instant) {
        motionPackets += 1
        // Clock offsets are estimates: a slightly negative latency is an estimate error.
        if latencyMicros != Self.unmeasuredLatency { _ = latency.record(UInt64(max(0, latencyMicros))) }
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

    package var latencyP50Micros: UInt64 { latency.totalCount == 0 ? 0 : latency.valueAtPercentile(50) }
    package var latencyP99Micros: UInt64 { latency.totalCount == 0 ? 0 : latency.valueAtPercentile(99) }
}
