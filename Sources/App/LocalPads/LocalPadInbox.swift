#if os(Linux)
import RemotionHostLogic
import RemotionSystem
import Synchronization

/// The reader's notices on their way to the host's loop (`LocalPadBridge`): the reader's own
/// buffer, so it never waits for the loop, with at most one drain queued on the loop whatever
/// the pads send. A loop that falls behind the pads (a starved machine) gets their backlog as
/// one batch, its late motion merged (`LateMotion`): the pointer and the aim end where the
/// hand is, a press and release inside the backlog still click, and the loop plays a few
/// steps per pad instead of every sample it missed. Past `limit` events waiting, the reader
/// merges what waits right away, so the buffer stays bounded while no motion is lost.
/// Notices that open, close, keep alive or describe pads are kept in order with each pad's
/// events.
final class LocalPadInbox: Sendable {
    /// About 4 s of one pad at 250 Hz, 8 s of two pads' reads at 100 Hz before the reader
    /// merges what waits; merged, a pad's backlog is at most ~50 steps plus its button edges
    /// (`LateMotion.stallMicros` of 0.1 s steps). Only a backlog of more button edges than
    /// this loses its oldest (counted as `host-behind`; the next sample's buttons are the truth).
    static let limit = 2_048

    private struct State {
        var notices: [LocalPadNotice] = []
        var events = 0
        var drainQueued = false
        /// Samples merged into others, and events dropped, since the last take, by pad key.
        var merged: [String: Int] = [:]
        var dropped: [String: Int] = [:]
    }
    private let state = Mutex(State())

    /// What a drain hands the loop: every notice in order, each pad's late motion merged.
    struct Batch {
        var notices: [LocalPadNotice]
        var merged: [String: Int]
        var dropped: [String: Int]
    }

    /// Adds a notice; true when the caller must queue a drain on the loop (none is queued).
    func post(_ notice: LocalPadNotice) -> Bool {
        state.withLock { s in
            if case .events(_, let events) = notice { s.events += events.count }
            s.notices.append(notice)
            if s.events > Self.limit { Self.shorten(&s) }
            defer { s.drainQueued = true }
            return !s.drainQueued
        }
    }

    /// Everything waiting, in order, its late motion merged, and what was merged and dropped
    /// since the last take; the next post queues a drain again. The merge runs on the
    /// caller's thread (the loop's), outside the lock the reader posts under.
    func take() -> Batch {
        var b = state.withLock { s in
            defer { s = State() }
            return Batch(notices: s.notices, merged: s.merged, dropped: s.dropped)
        }
        let (notices, merged) = Self.merged(b.notices)
        b.notices = notices
        for (key, n) in merged { b.merged[key, default: 0] += n }
        return b
    }

    /// Merges what waits; then, only if button edges alone are still past the limit, drops
    /// the oldest events.
    private static func shorten(_ s: inout State) {
        let (notices, merged) = Self.merged(s.notices)
        s.notices = notices
        for (key, n) in merged { s.merged[key, default: 0] += n }
        s.events = notices.reduce(0) { $0 + $1.eventCount }
        while s.events > limit, let oldest = s.notices.firstIndex(where: \.isEvents),
              case let .events(key, events) = s.notices[oldest] {
            let n = Swift.min(events.count, s.events - limit)
            if n == events.count { s.notices.remove(at: oldest) } else { s.notices[oldest] = .events(key: key, Array(events.dropFirst(n))) }
            s.events -= n
            s.dropped[key, default: 0] += n
        }
    }

    /// Each pad's consecutive reads as one (a pad's events stay in order; only its opening
    /// and closing end a run), each run's late motion merged; samples merged, by pad key.
    static func merged(_ notices: [LocalPadNotice]) -> (notices: [LocalPadNotice], merged: [String: Int]) {
        var out: [LocalPadNotice] = []
        var runs: [Int] = []                   // indexes in `out` of the events notices
        var open: [String: Int] = [:]          // a pad's run still taking reads
        var reads: [[LocalPad.Event]] = []
        for notice in notices {
            switch notice {
            case let .events(key, events):
                if let r = open[key] { reads[r] += events; continue }
                open[key] = reads.count
                runs.append(out.count)
                reads.append(events)
                out.append(notice)
            case .opened(let key, _, _), .closed(let key, _, _):
                open[key] = nil
                out.append(notice)
            default:
                out.append(notice)
            }
        }
        var merged: [String: Int] = [:]
        for (r, i) in runs.enumerated() {
            guard case .events(let key, _) = out[i] else { continue }
            let (events, n) = LateMotion.merge(reads[r])
            if n > 0 { merged[key, default: 0] += n }
            out[i] = .events(key: key, events)
        }
        return (out, merged)
    }
}

extension LocalPadNotice {
    var isEvents: Bool { if case .events = self { true } else { false } }
    var eventCount: Int { if case .events(_, let e) = self { e.count } else { 0 } }
}
#endif
