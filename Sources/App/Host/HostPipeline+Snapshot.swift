import Histogram
import NIOCore
import RemotionProtocol
import RemotionNetwork

extension HostPipeline {
    /// Builds and publishes the status snapshot (called by the host's loop every 100 ms
    /// while controllers are connected, and when one comes or goes).
    package func report(_ report: HostReport, now: Instant) {
        guard let publisher else { return }
        publisher.publish(snapshot(report, now: now))
    }

    func snapshot(_ report: HostReport, now: Instant) -> HostSnapshot {
        var s = HostSnapshot()
        s.hostName = identity.name
        s.listen = identity.listen
        s.injector = injector.backend.name
        s.settings = settings
        s.uptime = (now - startInstant(now)).secondsDouble
        s.drops = Dictionary(uniqueKeysWithValues: report.drops.counts.map { ("\($0.key)", $0.value) })
        let held = injector.held
        s.controllers = telemetry.keys.sorted().compactMap { id in
            guard let t = telemetry[id] else { return nil }
            let stats = report.sessions[id]?.stats
            let received = stats?.motionPackets ?? 0
            let lost = stats?.motionGaps ?? 0
            return ControllerSnapshot(
                session: "\(id)", name: t.name, address: t.address, state: "connected",
                attitude: t.attitude.map { [$0.roll, $0.pitch, $0.yaw] },
                pointer: t.pointer.map { [$0.x, $0.y] },
                buttons: t.buttons.buttons.map(\.letter).joined(),
                held: (held[id] ?? []).sorted().map(\.label),
                packetRate: t.packetRate,
                lossPercent: received + lost == 0 ? 0 : 100 * Double(lost) / Double(received + lost),
                latencyP50Ms: Double(t.latencyP50Micros) / 1000, latencyP99Ms: Double(t.latencyP99Micros) / 1000,
                latencyHistogram: Self.buckets(t),
                motionPackets: t.motionPackets, buttonEdges: t.buttonEdges,
                trail: trailOf(id))
        }
        return s
    }

    static func buckets(_ t: SessionTelemetry) -> [Int] {
        let edges = ControllerSnapshot.histogramEdgesMs.map { UInt64($0 * 1000) }
        let top = t.latency.max
        return edges.indices.map { i in
            let low = edges[i]
            guard t.latency.totalCount > 0, low <= top else { return 0 }
            let high = i + 1 < edges.count ? min(edges[i + 1] - 1, top) : top
            return Int(t.latency.count(within: low...max(low, high)))
        }
    }
}

extension HostPipeline {
    /// One-way latency over every session served so far (open and closed), in µs.
    package func latencySummary() -> (p50: UInt64, p99: UInt64, samples: UInt64) {
        var all = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        for t in telemetry.values { all.add(t.latency) }
        for (_, t, _) in closed { all.add(t.latency) }
        guard all.totalCount > 0 else { return (0, 0, 0) }
        return (all.valueAtPercentile(50), all.valueAtPercentile(99), all.totalCount)
    }
}
