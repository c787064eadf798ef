import Synchronization

/// How much of the host's status a reader follows, which decides what the host's loop
/// builds for it (docs/ARCHITECTURE.md, "The path of a status snapshot").
package enum SnapshotInterest: Sendable, Equatable {
    /// Only what the status lines say (`StatusLog`: a controller came or went, its name,
    /// address, mode, buttons or held inputs changed): a snapshot on such a change.
    case changes
    /// Everything, live (the terminal view, a dashboard's WebSocket): a snapshot every
    /// report tick (100 ms) while controllers are connected.
    case everyTick
}

/// The one place a snapshot lives between the host's loop and its readers, and the one
/// thing they share: readers copy the newest value and never call into the loop, except
/// that one that arrives asks for a fresh snapshot once (`lease`, `fresh`).
///
/// A snapshot is built only for someone: a reader that follows the status holds a
/// `SnapshotLease` for as long as it reads, and the loop asks `interest` each report tick;
/// with no lease it builds and submits nothing (the engine keeps its counters and totals
/// either way: the snapshot only reads them).
package final class SnapshotPublisher: Sendable {
    private let state = Mutex(HostSnapshot())
    private let version = Atomic<Int>(0)
    /// Leases held, by kind: each live `SnapshotLease` counts one until its deinit.
    private let everyTickReaders = Atomic<Int>(0)
    private let changeReaders = Atomic<Int>(0)
    /// How a reader that arrives gets a snapshot built now (`HostLoop.announceStart` sets it:
    /// the loop hands its values over, the reader waits for the build off the loop), and
    /// the one such build under way, which readers that arrive meanwhile share: however many
    /// read at once (GET /api/snapshot is open to local programs), the loop is asked once
    /// per build.
    private struct Refresh {
        var hook: (@Sendable () async -> Void)?
        var underWay: Task<Void, Never>?
    }
    private let refreshing = Mutex(Refresh())

    package init() {}

    package func publish(_ snapshot: HostSnapshot) {
        state.withLock { $0 = snapshot }
        version.add(1, ordering: .releasing)
    }

    package func current() -> HostSnapshot { state.withLock { $0 } }

    /// Increases with every publish: readers compare it to skip unchanged snapshots.
    package var generation: Int { version.load(ordering: .acquiring) }

    /// What the readers follow now, the most of any lease (nil: nobody reads).
    package var interest: SnapshotInterest? {
        if everyTickReaders.load(ordering: .relaxed) > 0 { return .everyTick }
        return changeReaders.load(ordering: .relaxed) > 0 ? .changes : nil
    }

    /// Registers a reader for as long as the returned lease lives, then has a snapshot built
    /// and published, so `current()` is this moment's when this returns (on a host whose
    /// loop serves readers: `refreshes(with:)`; otherwise the newest published).
    package func lease(_ interest: SnapshotInterest) async -> SnapshotLease {
        count(interest, by: 1)
        let lease = SnapshotLease(publisher: self, interest: interest)
        await refresh()
        return lease
    }

    /// A one-off read (GET /api/snapshot): a snapshot built now, no lease kept.
    package func fresh() async -> HostSnapshot {
        await refresh()
        return current()
    }

    /// Sets (nil: removes) how a reader that arrives gets a snapshot built at once.
    package func refreshes(with refresh: (@Sendable () async -> Void)?) {
        refreshing.withLock { $0.hook = refresh }
    }

    fileprivate func release(_ interest: SnapshotInterest) { count(interest, by: -1) }

    private func count(_ interest: SnapshotInterest, by change: Int) {
        switch interest {
        case .changes: changeReaders.add(change, ordering: .relaxed)
        case .everyTick: everyTickReaders.add(change, ordering: .relaxed)
        }
    }

    private func refresh() async {
        let build = refreshing.withLock { state -> Task<Void, Never>? in
            if let underWay = state.underWay { return underWay }
            guard let hook = state.hook else { return nil }
            let task = Task {
                await hook()
                self.refreshing.withLock { $0.underWay = nil }
            }
            state.underWay = task
            return task
        }
        await build?.value
    }
}

/// A reader's interest in the status, held for as long as it reads: the count it added
/// to its publisher is taken back when the lease goes (its deinit), so no reader can
/// leave interest behind and the publisher keeps two counts, not a list.
package final class SnapshotLease: Sendable {
    private let publisher: SnapshotPublisher
    package let interest: SnapshotInterest

    fileprivate init(publisher: SnapshotPublisher, interest: SnapshotInterest) {
        self.publisher = publisher
        self.interest = interest
    }

    deinit { publisher.release(interest) }
}
