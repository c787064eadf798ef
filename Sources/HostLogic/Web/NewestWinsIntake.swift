import RemotionProtocol

/// Newest wins for one controller whose motion rides a stream that can stall (a
/// WebSocket: one lost segment holds every later frame back) or reorder (an unordered
/// data channel). Pure: frames, button edges and the host's time in; what to inject out.
/// docs/WEB-CONTROLLER.md, "Newest wins".
///
///     var intake = NewestWinsIntake()
///     for out in intake.motion(frame, now: now) { inject(out) }     // every motion frame
///     for out in intake.button(.a, isDown: true) { inject(out) }     // every button edge
///     for out in intake.expire(now: now) { inject(out) }             // at `deadline`
///
/// - **Stale**: a frame not newer (sequence, serial arithmetic) than the newest one taken
///   is dropped and counted — it arrived out of order, something newer was already used.
/// - **Burst**: a frame's lag is its host arrival time minus its page time (the clocks'
///   offset cancels against `baseline`, the lowest lag seen, which follows slow drift).
///   A frame more than `lateBound` behind the baseline whose lag jumped by more than
///   `lateBound` since its predecessor (it came after a silence: the first frame out of a
///   stall) or that came less than half a send interval after its predecessor starts a
///   *hold*; while holding, every frame that arrives less than half a send
///   interval after its predecessor (the stream is catching up) is held too. Held frames
///   merge; the first frame that arrives at the sender's pace (on time, or late: after
///   `settleFrames` late frames at pace in a row their lag becomes the new baseline),
///   `tailWait` without a frame, `holdLimit` after the hold began, or a button edge sends
///   the merged sample once.
/// - **Merged sample**: the newest frame's attitude, acceleration, buttons and time; its gyro
///   is the average rate over the span it covers (every merged frame's rate × the time since
///   its predecessor, summed, over the span since the last sent sample), so the FPS mapper
///   turns exactly the summed rotation and a virtual pad reports the rate the phone measured
///   on the phone's own clock; pointer modes take the newest attitude. A merged sample
///   covers at most `GyroMouseMapper.maxStep` (0.1 s, the most the mapper integrates in one
///   step): a longer backlog sends one merged sample per 0.1 s of the page's time, all at
///   once. (Spreading more over one step would need a rate the phone never measured: a
///   backlog of 10 frames at 60 Hz in one 0.1 s step read 5/3 of the real rate on the pad.)
/// - **Buttons** are never merged, delayed past a later motion or dropped: an edge first
///   sends the held motion (sent before it), then itself — exactly once, in order.
/// - **Touches** (the Gamepad mode's touchpad) likewise: a frame whose fingers differ from the
///   previous frame's (one came down or lifted) sends the held motion, then itself as it came,
///   so the pad sees every touch start where the finger came down, and every lift, in order.
package struct NewestWinsIntake: Sendable, Equatable {
    /// One motion frame: the page's sequence number, its sample (timestamp on the page's
    /// clock, microseconds) and the one-way latency the transport estimated for it.
    package struct Frame: Sendable, Equatable {
        package var sequence: UInt32
        package var sample: MotionSample
        package var latencyMicros: Int64?
        package init(sequence: UInt32, sample: MotionSample, latencyMicros: Int64? = nil) {
            self.sequence = sequence; self.sample = sample; self.latencyMicros = latencyMicros
        }
    }

    package enum Output: Sendable, Equatable {
        /// Inject this sample; `frames` is how many frames it stands for (1: passed through).
        case motion(MotionSample, latencyMicros: Int64?, frames: Int)
        case button(Button, isDown: Bool)
    }

    package struct Counters: Sendable, Equatable {
        /// Frames dropped because a newer one had already been taken (out of order, duplicate).
        package var stale = 0
        /// Frames merged into a later one (their rotation kept, their sample not injected).
        package var merged = 0
        /// Merged samples sent (each stands for two or more frames).
        package var bursts = 0
        package init() {}
    }

    /// A frame this far behind the baseline lag (and catching up) is part of a backlog.
    package var lateBoundMicros: Int64 = 40_000
    /// Whether a backlog is held and merged; false: only stale frames are dropped (a data
    /// channel's motion is never retransmitted, so frames close together are the transport's
    /// pacing, not a stall's backlog, and holding them would only delay them).
    package var holdsBursts = true
    /// The longest a held frame waits for a newer one.
    package var holdLimit: Duration = .milliseconds(50)
    package private(set) var counters = Counters()
    /// The lowest lag (host arrival − page time, µs) seen lately; nil before the first frame.
    package private(set) var baseline: Int64?

    private struct Taken: Sendable, Equatable {
        var sequence: UInt32
        var pageMicros: UInt64
        var lag: Int64
    }
    /// The newest frame taken (sent or held).
    private var newest: Taken?
    private struct Held: Sendable, Equatable {
        var frame: Frame
        /// The held frames' rotation, as the mapper would turn each (shared with every
        /// origin's merge of late motion, docs/MOTION.md).
        var merge = MotionMerge()
        var since: Instant
        var frames: Int { merge.samples }
    }
    private var held: Held?
    /// Page time of the last frame sent (the span a merged sample covers starts there).
    private var lastSentPageMicros: UInt64?
    /// The fingers of the newest frame taken.
    private var lastTouch: TouchState?

    package init() {}

    /// Late frames at the sender's pace, in a row, after which their lag is the new baseline.
    package static let settleFrames = 4
    static let latestPageMicros: UInt64 = 1 << 52
    private var latePaced = 0

    /// How long a hold waits for the next frame of a burst before sending what it has.
    /// (A sender that keeps streaming ends a hold with its next frame, at most one send
    /// interval later; this only matters when it stopped, so it can be 1.5 intervals at 60 Hz
    /// and outlast the reader being descheduled in the middle of a backlog.)
    package var tailWait: Duration = .milliseconds(25)
    private var tailDeadline: Instant?

    /// When `expire` must run: the hold's end; nil while nothing is held.
    package var deadline: Instant? {
        guard let h = held else { return nil }
        return Swift.min(h.since + holdLimit, tailDeadline ?? h.since + holdLimit)
    }

    package var isHolding: Bool { held != nil }

    /// A motion frame arrived at `now` (the host's monotonic clock).
    package mutating func motion(_ frame: Frame, now: Instant) -> [Output] {
        // Page times past 2^52 µs (year 2112) count as 2^52: every sum and difference below
        // then stays far inside Int64, whatever a client sends.
        let page = Swift.min(frame.sample.timestampMicros, Self.latestPageMicros)
        let lag = now.microseconds &- Int64(page)
        var dt = 0.0
        var catchingUp = false, jumped = false
        if let n = newest {
            let ahead = Int32(bitPattern: frame.sequence &- n.sequence)
            guard ahead > 0 || (ahead == 0 && page > n.pageMicros) else {
                counters.stale += 1
                return []
            }
            if page > n.pageMicros {
                let gap = Int64(clamping: page - n.pageMicros)
                dt = Double(gap) / 1e6
                catchingUp = lag < n.lag - gap / 2           // came < half a send interval after its predecessor
                jumped = lag > n.lag + lateBoundMicros       // came after a silence: the first out of a stall
            }
        }
        newest = Taken(sequence: frame.sequence, pageMicros: page, lag: lag)
        let holding = held != nil
        var frame = frame
        frame.sample.timestampMicros = page
        // What is held goes first if this frame would take the merge past one mapper step;
        // the hold goes on with this frame (its limit still counted from the first).
        var sent: [Output] = []
        let since = held?.since
        if since != nil, let last = lastSentPageMicros, page > last, Double(page - last) / 1e6 > GyroMouseMapper.maxStep {
            sent = flush()
        }
        // A finger down or up: an edge, as a button's — what is held goes first, then this
        // frame as it came (where the finger came down), not held for later frames to move.
        let touchEdge = !MotionMerge.sameFingers(lastTouch, frame.sample.touch)
        lastTouch = frame.sample.touch
        if touchEdge {
            sent += flush()
            merge(frame, dt: dt, now: now, since: now)
            return sent + flush()
        }
        merge(frame, dt: dt, now: now, since: since ?? now)

        let base = baseline ?? lag
        let behind = lag - base > lateBoundMicros
        if holdsBursts, (behind && (jumped || catchingUp)) || (holding && catchingUp) {
            latePaced = 0
            if now >= held!.since + holdLimit { return sent + flush() }
            tailDeadline = now + tailWait
            return sent
        }
        if !behind {
            // On time: follow the clocks' slow drift up, any lower lag at once.
            latePaced = 0
            baseline = lag < base ? lag : base + (lag - base) / 64
        } else {
            // Late but at the sender's pace: sent as it is. After `settleFrames` in a row the
            // link has settled at a higher delay, the new normal (one such frame in the middle
            // of a backlog — the reader was descheduled — must not make the rest look on time).
            latePaced += 1
            if latePaced >= Self.settleFrames { baseline = lag; latePaced = 0 }
        }
        return sent + flush()
    }

    /// A button edge: the held motion (sent before the edge) goes first, then the edge.
    package mutating func button(_ button: Button, isDown: Bool) -> [Output] {
        flush() + [.button(button, isDown: isDown)]
    }

    /// Sends the held motion now (before a page message that must not overtake it).
    package mutating func sendHeld() -> [Output] { flush() }

    /// Sends the held motion once the hold has lasted `holdLimit`.
    package mutating func expire(now: Instant) -> [Output] {
        guard let d = deadline, now >= d else { return [] }
        return flush()
    }

    private mutating func merge(_ frame: Frame, dt: Double, now: Instant, since: Instant) {
        // What the FPS mapper would integrate for this frame on its own (GyroMouseMapper:
        // rate × min(dt, maxStep), nothing across a gap over resyncGap).
        var h = held ?? Held(frame: frame, since: since)
        h.merge.add(frame.sample, dt: dt)
        h.frame = frame
        held = h
    }

    private mutating func flush() -> [Output] {
        guard let h = held else { return [] }
        held = nil
        tailDeadline = nil
        let page = h.frame.sample.timestampMicros
        let sample = h.frame.sample
        defer { lastSentPageMicros = page }
        if h.frames > 1 {
            counters.merged += h.frames - 1
            counters.bursts += 1
        }
        guard h.frames > 1, let last = lastSentPageMicros, page > last else {
            return [.motion(sample, latencyMicros: h.frame.latencyMicros, frames: h.frames)]
        }
        // At most one mapper step (`motion` sends what is held before it would be more).
        // A rate past Float's range: no rate.
        return [.motion(h.merge.sample(sample, span: Double(page - last) / 1e6), latencyMicros: h.frame.latencyMicros,
                        frames: h.frames)]
    }
}
