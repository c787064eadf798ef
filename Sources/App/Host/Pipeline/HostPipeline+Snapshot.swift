import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

extension HostPipeline {
    /// Whether this report tick builds a snapshot: only for a reader (`SnapshotPublisher.interest`):
    /// every tick for a live view, or when something the status lines say changed for a
    /// reader of those alone. With nobody reading, the loop driver does not even take its report.
    package var wantsReport: Bool {
        switch publisher?.interest {
        case nil: false
        case .changes: statusMarks.differ(from: sessions, held: injector.heldTracker)
        case .everyTick: true
        }
    }

    /// A report tick (every 100 ms while controllers are connected, and when one comes or
    /// goes): hands the loop's values to the snapshot builder, which computes and publishes
    /// the snapshot on its own queue (nothing per controller happens on the loop), if a
    /// reader wants it (`wantsReport`).
    package func report(_ report: HostReport, now: Instant) {
        guard wantsReport else { return }
        submitSnapshot(report, now: now)
    }

    /// Publishes a snapshot now, whoever reads (a settings change, the start), and waits
    /// until it is built, so readers see it on return. Rare: one snapshot is well under a millisecond.
    package func publishNow(now: Instant) {
        guard let driver else { return }
        submitSnapshot(driver.report(), now: now)
        snapshotBuilder?.drain()
    }

    /// A reader arrived (`SnapshotPublisher.lease`, `fresh`): hands this moment's values to
    /// the builder whoever else reads, and returns it, so the reader waits for the build
    /// off the loop (`SnapshotBuilder.published()`); nil when there is nothing to build.
    package func submitSnapshotForReader(now: Instant) -> SnapshotBuilder? {
        guard let driver, let builder = snapshotBuilder else { return nil }
        submitSnapshot(driver.report(), now: now)
        return builder
    }

    /// How many snapshots' inputs were handed to the builder (tests count builds by it).
    package var snapshotsSubmitted: Int { snapshotBuilder?.submissions ?? 0 }

    private func submitSnapshot(_ report: HostReport, now: Instant) {
        guard let builder = snapshotBuilder else { return }
        statusMarks.record(sessions, held: injector.heldTracker)
        builder.submit(snapshotInputs(report, now: now))
    }

    package func snapshot(_ report: HostReport, now: Instant) -> HostSnapshot {
        HostSnapshot(snapshotInputs(report, now: now))
    }

    func snapshotInputs(_ report: HostReport, now: Instant) -> SnapshotInputs {
        var inputs = SnapshotInputs(hostName: identity.name, listen: identity.listen, injector: injector.backend.name,
                                    settings: settings, uptime: (now - startInstant(now)).secondsDouble,
                                    drops: report.drops, kernelDrops: report.kernelDrops,
                                    protocolSessions: report.sessions, sessions: sessions, held: injector.held, now: now)
        inputs.padsAvailable = engine.padsAvailable
        inputs.localPads = localPads
        inputs.focused = engine.focused
        inputs.profiles = engine.profiles
        inputs.outputs = pointerOutputs
        // Controllers of other transports refused because every slot was taken (the datagram
        // sessions' are among the protocol's drops).
        if engine.refusedFull > 0 { inputs.adapterDrops[.controllersFull] = engine.refusedFull }
        for r in dropReporters { inputs.adapterDrops.add(r.hostDrops) { $0 } }
        return inputs
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
    /// One-way latency over every session served so far (open, and the closed ones'
    /// totals), in µs; nil when no sample's latency could be measured.
    package func latencySummary() -> (p50: UInt64, p99: UInt64, samples: UInt64)? { engine.latencySummary() }

    /// The stop line's latency words: "one-way latency p50 … ms, p99 … ms over N samples",
    /// or that it was not measured (no shared or estimated clock).
    package var latencyText: String {
        guard let l = latencySummary() else { return "one-way latency not measured (no shared or estimated clock)" }
        return "one-way latency p50 \(Double(l.p50) / 1000) ms, p99 \(Double(l.p99) / 1000) ms over \(l.samples) samples"
    }

    /// The stop line's words on controllers' sample clocks, nil when every sample kept its
    /// own step (`SampleTimeline`: re-timed = pulled toward the host's clock).
    package var sampleClockText: String? {
        let t = engine.sampleClockTotals()
        guard t.reanchors > 0 || t.restarts > 0 else { return nil }
        return "sample clocks: \(t.reanchors) samples re-timed, \(t.restarts) restarts"
    }
}
