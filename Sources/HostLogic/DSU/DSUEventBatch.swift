import RemotionProtocol

/// The source state machine's events from one read batch (the datagrams one socket
/// read brought), merged so a DSU source that floods, or a backlog the host was late for,
/// costs the host's mapper and injector about one sample per slot per mapper step while its
/// buttons stay the same, and moves the pointer exactly as far:
///
/// - a sample is merged with the slot's previous sample in the batch when their buttons are
///   equal and the two still cover at most one mapper step (`GyroMouseMapper.maxStep`,
///   0.1 s of the source's time): the newest's attitude, acceleration and time, at the
///   average rate of both (`MotionMerge`), so no rotation is lost — a 3 s backlog at
///   66.7 Hz becomes 30 steps that turn the whole turn, not one that turns 0.1 s of it;
/// - a sample with other buttons is kept, so every press and release gets through,
///   in order;
/// - a sample whose touchpad fingers differ from its predecessor's (one came down or lifted)
///   is kept as it came and nothing merges into it, so the pad sees every touch start where
///   the finger came down and every lift, in order (later samples of the same fingers merge
///   after it, the newest's positions);
/// - connect and disconnect events are kept in order, and a slot's samples are never
///   merged across them.
///
/// The adapter appends while reading and takes `drain()` when the read batch ends.
package struct DSUEventBatch: Sendable {
    package private(set) var events: [DSUSourceStateMachine.Event] = []
    /// Per slot, the index in `events` of its latest sample that a newer one may merge with,
    /// the rotation merged into it and the time of the sample handed on before it.
    private var replaceable = [Int?](repeating: nil, count: DSU.slotCount)
    private var merges = [MotionMerge](repeating: MotionMerge(), count: DSU.slotCount)
    private var spanStart = [UInt64?](repeating: nil, count: DSU.slotCount)
    /// Per slot, its previous sample's time (kept across batches: the next batch's first
    /// sample follows it).
    private var lastTime = [UInt64?](repeating: nil, count: DSU.slotCount)
    /// Per slot, its previous sample's fingers (kept across batches, as its time).
    private var lastTouch = [TouchState?](repeating: nil, count: DSU.slotCount)
    /// Samples merged away since the start (for statistics).
    package private(set) var merged = 0

    package init() {}

    package mutating func append(_ event: DSUSourceStateMachine.Event) {
        switch event {
        case let .sample(slot, sample):
            let s = Int(slot)
            guard s < DSU.slotCount else { events.append(event); return }
            let t = sample.timestampMicros, last = lastTime[s]
            // A finger down or up: an edge, as a button's (merged into nothing, nothing into it).
            let touchEdge = !MotionMerge.sameFingers(lastTouch[s], sample.touch)
            lastTouch[s] = sample.touch
            let pending: MotionSample? = touchEdge ? nil : replaceable[s].flatMap { i in
                guard case let .sample(_, p) = events[i], p.buttons == sample.buttons else { return nil }
                return p
            }
            // Not after its predecessor (a repeated or backwards stamp): no time passed, the
            // mapper would turn nothing for it; the pending step stands for it (a flood of
            // such stamps stays one sample).
            if let last, t <= last, pending != nil {
                merged += 1
                return
            }
            lastTime[s] = t
            let dt: Double? = last.flatMap { p in
                t > p && Double(t - p) / 1e6 <= GyroMouseMapper.resyncGap ? Double(t - p) / 1e6 : nil
            }
            if pending != nil, let i = replaceable[s] {
                if let dt, let from = spanStart[s], Double(t - from) / 1e6 <= GyroMouseMapper.maxStep {
                    merges[s].add(sample, dt: dt)
                    events[i] = .sample(slot: slot, merges[s].sample(sample, span: Double(t - from) / 1e6))
                    merged += 1
                    return
                }
                // A start after a start (each after a gap, where the mapper starts again and
                // turns nothing): the newer one stands for both.
                if dt == nil, spanStart[s] == nil {
                    events[i] = event
                    merged += 1
                    return
                }
            }
            // A new step: merged with later ones only when it follows its predecessor.
            merges[s] = MotionMerge()
            merges[s].add(sample, dt: dt ?? 0)
            spanStart[s] = dt == nil ? nil : last
            replaceable[s] = touchEdge ? nil : events.count
            events.append(event)
        case let .slotConnected(slot), let .slotDisconnected(slot, _):
            if Int(slot) < DSU.slotCount {
                replaceable[Int(slot)] = nil
                lastTime[Int(slot)] = nil
                lastTouch[Int(slot)] = nil
            }
            events.append(event)
        case .serverVersion:
            events.append(event)
        }
    }

    package mutating func append(contentsOf events: [DSUSourceStateMachine.Event]) {
        for e in events { append(e) }
    }

    /// The batch's events in order; the batch starts empty again.
    package mutating func drain() -> [DSUSourceStateMachine.Event] {
        defer {
            events.removeAll(keepingCapacity: true)
            replaceable = [Int?](repeating: nil, count: DSU.slotCount)
        }
        return events
    }
}

/// How long a DSU sample took to reach the host, when that can be known.
///
/// DSU has no clock synchronisation: a phone app stamps samples with its own clock
/// (AndroidDSU: wall-clock milliseconds × 1000), so for a DSU server on another device
/// the latency is not measured (nil; the host leaves such sessions out of its latency
/// figures). A DSU server on this machine that stamps with the same monotonic clock as
/// the host's event loop (CLOCK_MONOTONIC on Linux: the test peer, the benchmark's
/// sender, another Remotion host's DSU server) gives the exact one-way latency: the sample
/// is accepted as such when it came from a loopback address and is between 0 and
/// `loopbackMaximum` old. Anything older on loopback is a server with its own clock (a
/// stream-relative one gave "6,200 ms" in the QEMU guest), not a latency, and is not shown.
package enum DSUSampleLatency {
    /// On loopback a sample is delivered within milliseconds; a second is far past any real
    /// delivery and far short of the offsets between unrelated clocks.
    package static var loopbackMaximum: Int64 { 1_000_000 }

    /// Microseconds from the sample's timestamp to `now`, or nil when the clocks differ: a
    /// DSU server stamps with its own clock, which is the host's only on loopback, and even
    /// then only an age of 0 … `loopbackMaximum` counts.
    package static func micros(timestampMicros: UInt64, now: Instant, fromLoopback: Bool) -> Int64? {
        guard fromLoopback, timestampMicros <= UInt64(Int64.max / 1000) else { return nil }
        let age = now.microseconds - Int64(timestampMicros)
        guard (0...loopbackMaximum).contains(age) else { return nil }
        return age
    }
}
