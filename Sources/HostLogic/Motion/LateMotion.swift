import RemotionProtocol

/// A controller's motion that reached the host late, made short without losing any of it
/// (docs/MOTION.md, "Late motion is merged"). Pure: one controller's events as they came
/// (samples on its own clock, never going back, and button edges, in order) in; fewer events
/// out that move the pointer and the aim exactly as far.
///
/// Late is measured on the controller's own clock, from its newest sample in the backlog:
/// - **Recent** (within `recentMicros`, one mapper step, of the newest): passed as they are;
///   a loop on time hands these on one read at a time and nothing changes.
/// - **Late** (older): consecutive samples are merged (`MotionMerge`) into one per
///   `GyroMouseMapper.maxStep` (0.1 s) of the controller's time, with the newest's attitude,
///   acceleration, buttons and time and the real average rate (a 3 s backlog at 200 Hz
///   becomes 30 steps, not 600, and turns the same).
/// - **Stalled** (older than `stallMicros`, a stall a person would call one): the run of
///   samples becomes two, an anchor (its gyro zero) and the run's last sample carrying the
///   run's whole rotation over the step between them — a rate the controller never
///   measured, but the pointer's integral is kept and the backlog's length is bounded.
///
/// Button edges are never merged, moved or dropped: an edge ends the motion before it (sent
/// first), then goes itself, so a press and release inside a backlog still click once and
/// where the hand was. A touchpad's edge (a sample whose fingers differ from its predecessor's:
/// one came down or lifted) is kept the same way: the motion before it is sent first, then the
/// sample as it came, so the pad sees the finger come down where it did, and lift, in order.
/// A step over `resyncGap` or a sample not after its predecessor passes
/// as it is: the mapper starts again there, as it would have.
package enum LateMotion {
    /// One event of a controller, in the order it came.
    package enum Event: Sendable, Equatable {
        /// A motion sample, with the buttons and analog state as of its frame.
        case sample(MotionSample)
        /// A button edge (between samples; the next sample agrees).
        case button(Button, isDown: Bool)
    }

    /// Samples this close to the newest are not late.
    package static let recentMicros = UInt64(GyroMouseMapper.maxStep * 1e6)
    /// Samples this far behind the newest are a stall's: collapsed, their rotation kept.
    package static let stallMicros: UInt64 = 5_000_000

    /// The events made short, and how many samples were folded into another.
    package static func merge(_ events: [Event], stallMicros: UInt64 = stallMicros) -> (events: [Event], merged: Int) {
        guard let newest = events.last(where: \.isSample)?.time else { return (events, 0) }
        var m = Merger(recentFrom: newest > recentMicros ? newest - recentMicros : 0,
                       stallBefore: newest > stallMicros ? newest - stallMicros : 0)
        m.out.reserveCapacity(Swift.min(events.count, 64))
        for e in events {
            switch e {
            case .sample(let s): m.take(s)
            case .button:
                m.flush()
                m.out.append(e)
            }
        }
        m.flush()
        return (m.out, events.count - m.out.count)
    }

    private struct Merger {
        let recentFrom: UInt64
        let stallBefore: UInt64
        var out: [Event] = []
        /// The previous sample's time, as it came; the last sample handed on's time.
        var previous: UInt64?
        var handedOn: UInt64?
        /// The previous sample's fingers on its touchpad.
        var previousTouch: TouchState?
        /// Late samples being merged: their sum and the newest.
        var late = MotionMerge()
        var lateNewest: MotionSample?
        /// A stall's samples being collapsed: their sum and the last two.
        var stalled = MotionMerge()
        var stallTail: [MotionSample] = []

        mutating func take(_ s: MotionSample) {
            let t = s.timestampMicros
            defer { previous = t; previousTouch = s.touch }
            // A finger down or up: an edge, as a button's — what came before goes first.
            if !MotionMerge.sameFingers(previousTouch, s.touch) {
                flush()
                return hand(s)
            }
            let dt: Double? = previous.flatMap { p in
                t > p && Double(t - p) / 1e6 <= GyroMouseMapper.resyncGap ? Double(t - p) / 1e6 : nil
            }
            if t < stallBefore {
                flushLate()
                if dt == nil {
                    flushStall()                  // a run is one stretch the mapper integrates
                    // The backlog's first sample: the mapper turns it from the sample handed on
                    // before the backlog, which only the mapper knows: it passes as it is.
                    if previous == nil { return hand(s) }
                }
                stalled.add(s, dt: dt ?? 0)
                stallTail = Array((stallTail + [s]).suffix(2))
                return
            }
            flushStall()
            guard let dt, t < recentFrom else {
                flushLate()
                hand(s)
                return
            }
            if !late.isEmpty, let from = handedOn, t - from > recentMicros { flushLate() }
            late.add(s, dt: dt)
            lateNewest = s
        }

        mutating func flush() {
            flushStall()
            flushLate()
        }

        mutating func hand(_ s: MotionSample) {
            out.append(.sample(s))
            handedOn = s.timestampMicros
        }

        /// One sample for the merged ones: the newest, at their average rate since the last
        /// sample handed on (which is the first one's predecessor: at most 0.1 s before).
        mutating func flushLate() {
            guard let newest = lateNewest else { return }
            defer { late = MotionMerge(); lateNewest = nil }
            guard late.samples > 1, let from = handedOn, newest.timestampMicros > from else { return hand(newest) }
            hand(late.sample(newest, span: Double(newest.timestampMicros - from) / 1e6))
        }

        /// A stall's run as an anchor and a carrier: the mapper starts again at the anchor (or
        /// turns its zero rate) and turns the whole run's rotation over the carrier's step.
        mutating func flushStall() {
            defer { stalled = MotionMerge(); stallTail = [] }
            guard stalled.samples > 2, stallTail.count == 2 else {
                // One or two samples: nothing to gain; they pass as they are.
                for s in stallTail.suffix(stalled.samples) { hand(s) }
                return
            }
            var anchor = stallTail[0], carrier = stallTail[1]
            anchor.gyro = anchor.gyro.map { _ in Vector3(x: 0, y: 0, z: 0) }
            hand(anchor)
            let step = MotionMerge.mapperStep(Double(carrier.timestampMicros - anchor.timestampMicros) / 1e6)
            carrier = stalled.sample(carrier, span: step)
            hand(carrier)
        }
    }
}

extension LateMotion.Event {
    package var isSample: Bool { if case .sample = self { true } else { false } }
    var time: UInt64? { if case .sample(let s) = self { s.timestampMicros } else { nil } }
}
