#if os(Linux)
import RemotionHostLogic
import RemotionSystem
import Synchronization

/// The reader's notices on their way to the host's loop (`LocalPadBridge`): at most one
/// drain queued on the loop whatever the pads send, and a bounded backlog. A loop that falls
/// behind the pads (a starved machine) would otherwise queue one task per read without end
/// and play the motion back seconds late. Past `limit` events waiting, the oldest read's
/// events are dropped and counted (its samples' motion is lost; a button edge among them
/// comes back with the next sample, whose button field is the truth); notices that open,
/// close, keep alive or describe pads are never dropped.
final class LocalPadInbox: Sendable {
    /// About 4 s of one pad at 250 Hz, 8 s of two pads' reads at 100 Hz: behind that, motion
    /// is too late to be worth playing.
    static let limit = 2_048

    private struct State {
        var notices: [LocalPadNotice] = []
        var events = 0
        var drainQueued = false
        /// Events dropped since the last take, by pad key.
        var dropped: [String: Int] = [:]
    }
    private let state = Mutex(State())

    /// Adds a notice; true when the caller must queue a drain on the loop (none is queued).
    func post(_ notice: LocalPadNotice) -> Bool {
        state.withLock { s in
            if case .events(_, let events) = notice { s.events += events.count }
            s.notices.append(notice)
            while s.events > Self.limit, let oldest = s.notices.firstIndex(where: \.isEvents) {
                guard case let .events(key, events) = s.notices.remove(at: oldest) else { break }
                s.events -= events.count
                s.dropped[key, default: 0] += events.count
            }
            defer { s.drainQueued = true }
            return !s.drainQueued
        }
    }

    /// Everything waiting, in order, and what was dropped since the last take; the next post
    /// queues a drain again.
    func take() -> (notices: [LocalPadNotice], dropped: [String: Int]) {
        state.withLock { s in
            defer { s = State() }
            return (s.notices, s.dropped)
        }
    }
}

extension LocalPadNotice {
    var isEvents: Bool { if case .events = self { true } else { false } }
}
#endif
