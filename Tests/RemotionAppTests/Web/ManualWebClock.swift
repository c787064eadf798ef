@testable import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import Synchronization

/// Virtual time for a `WebClock`'s users: time stands still until the test moves it on with
/// `advance`, which runs every timer that falls due on the test's own thread, in deadline
/// order, with the time at each one's deadline, before it returns. No task and no sleep: what
/// a timer does has happened when `advance` returns, however busy the concurrency pool is.
final class ManualWebClock: Sendable {
    private struct Timer {
        let id: Int
        let due: Instant
        let body: @Sendable () -> Void
    }
    private struct State {
        var now: Instant
        var timers: [Timer] = []
        var nextID = 0
    }
    private let state: Mutex<State>

    init(start: Instant = Instant(nanoseconds: 1_000_000_000)) {
        state = Mutex(State(now: start))
    }

    var now: Instant { state.withLock { $0.now } }
    /// Timers armed and not yet run nor cancelled.
    var pending: Int { state.withLock { $0.timers.count } }

    var clock: WebClock {
        WebClock(now: { [self] in
            let t = now
            return WebSession.Time(monotonic: t, epochMillis: 1.7e12 + Double(t.nanoseconds) / 1e6)
        }, schedule: { [self] due, body in
            let id = state.withLock { s in
                defer { s.nextID += 1 }
                s.timers.append(Timer(id: s.nextID, due: due, body: body))
                return s.nextID
            }
            return WebTimer(cancel: { [self] in state.withLock { $0.timers.removeAll { $0.id == id } } })
        })
    }

    /// Moves the time on by `duration`, running each timer due by then (one armed by a timer
    /// that ran included) at its deadline, outside the clock's lock.
    func advance(by duration: Duration) {
        let end = now + duration
        while let timer = state.withLock({ s -> Timer? in
            guard let next = s.timers.indices.min(by: { s.timers[$0].due < s.timers[$1].due }),
                  s.timers[next].due <= end else { return nil }
            s.now = max(s.now, s.timers[next].due)
            return s.timers.remove(at: next)
        }) {
            timer.body()
        }
        state.withLock { $0.now = end }
    }
}
