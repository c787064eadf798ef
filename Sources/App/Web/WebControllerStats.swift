import RemotionHostLogic
import Synchronization

/// What the web controller server has done, for the host's status and tests: sessions,
/// refusals and dropped frames by reason. Written by sockets and routes, read anywhere.
package final class WebControllerStats: Sendable {
    package struct Snapshot: Sendable, Equatable {
        package var opened = 0
        package var motionFrames = 0
        package var refused: [String: Int] = [:]
        /// Frames dropped, by typed reason (the control socket shows its words: "stale", "lane-text").
        package var dropped: [Drop: Int] = [:]
        package var ended: [String: Int] = [:]
        package var pairings = 0
        package var refusedRequests: [String: Int] = [:]
        /// Motion frames merged into a newer one after a stall, and the merged samples sent
        /// (newest wins); out-of-order frames are `dropped[.stale]`.
        /// Connections closed by the connection guard before authenticating, by reason
        /// (per-address-cap, evicted, handshake-timeout, idle-timeout).
        package var connections: [String: Int] = [:]
        package var mergedFrames = 0
        /// Motion lanes attached (a phone's second WebSocket, docs/WEB-CONTROLLER.md).
        package var lanes = 0
        package var bursts = 0

        package var droppedTotal: Int { dropped.values.reduce(0, +) }
        package var refusedTotal: Int { refused.values.reduce(0, +) + refusedRequests.values.reduce(0, +) }
    }

    private let state = Mutex(Snapshot())
    package init() {}
    package var snapshot: Snapshot { state.withLock { $0 } }

    func count(opened n: Int) { state.withLock { $0.opened += n } }
    func count(lanes n: Int) { state.withLock { $0.lanes += n } }
    func count(motion n: Int) { state.withLock { $0.motionFrames += n } }
    func count(refused reason: Refusal) { state.withLock { $0.refused[reason.rawValue, default: 0] += 1 } }
    func count(ended reason: String) { state.withLock { $0.ended[reason, default: 0] += 1 } }
    func count(paired n: Int) { state.withLock { $0.pairings += n } }
    /// An HTTP request refused before it reached a route (bad Origin or Host, wrong type).
    func count(refusedRequest reason: String) { state.withLock { $0.refusedRequests[reason, default: 0] += 1 } }
    /// The newest-wins intake's counters grew from `before` to `now`.
    func count(intake now: NewestWinsIntake.Counters, since before: NewestWinsIntake.Counters) {
        state.withLock {
            $0.mergedFrames += now.merged - before.merged
            $0.bursts += now.bursts - before.bursts
            if now.stale > before.stale { $0.dropped[.stale, default: 0] += now.stale - before.stale }
        }
    }
    func count(connection reason: ConnectionEnd) { state.withLock { $0.connections[reason.rawValue, default: 0] += 1 } }
    func drop(_ reason: Drop) { state.withLock { $0.dropped[reason, default: 0] += 1 } }
}
