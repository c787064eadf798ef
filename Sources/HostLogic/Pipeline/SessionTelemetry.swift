import RemotionProtocol

/// Per-controller numbers the host shows: latency distribution, packet rate, loss.
package struct SessionTelemetry: Sendable {
    /// The controller's name (`PipelineCore.setName`): the name it paired under, or its transport's ("DSU slot 0").
    package var name = ""
    package var address: String
    package var opened: Instant
    package var latency = LatencyHistogram()
    package var motionPackets = 0
    package var buttonEdges = 0
    package var attitude: Attitude?
    package var pointer: (x: Int, y: Int)?
    package var buttons = ButtonSet.none
    /// When the newest sample arrived (host clock) and its own timestamp (the
    /// controller's clock, µs): what the status shows comes from that sample.
    package var lastMotion: Instant?
    package var lastSampleMicros: UInt64?
    /// The same sample's time on the host's clock (`SampleTimeline`, µs of `Instant`): the
    /// time the mapping, the virtual pad and the DSU server used for it.
    package var lastSampleHostMicros: UInt64?
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

    /// One motion sample arrived (`now`, the host's clock). `latencyMicros` is nil where
    /// nobody can know it (no shared or estimated clock): counted as a packet, left out of
    /// the latency, which then says "not measured".
    package mutating func recordMotion(latencyMicros: Int64?, sample: MotionSample, now: Instant) {
        motionPackets += 1
        // Clock offsets are estimates: a slightly negative latency is an estimate error.
        if let latencyMicros { _ = latency.record(UInt64(max(0, latencyMicros))) }
        lastMotion = now
        lastSampleMicros = sample.timestampMicros
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

    /// Latency percentiles in µs, nil until a sample's latency was measured.
    package var latencyP50Micros: UInt64? { latency.totalCount == 0 ? nil : latency.valueAtPercentile(50) }
    package var latencyP99Micros: UInt64? { latency.totalCount == 0 ? nil : latency.valueAtPercentile(99) }
}
