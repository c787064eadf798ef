import Foundation
import NIOCore
import RemotionHostLogic
import RemotionProtocol

/// The time a web transport gives its session machine (`WebSessionDriver`): the host's
/// monotonic clock, which stamps each frame's arrival for newest wins and the session's
/// deadlines, and the wall clock, which the page's own timestamps (milliseconds since the
/// epoch) are read against for the clock offset. A parameter: the real one reads the system
/// (`system`); a test gives virtual time and runs the driver's timers itself when it moves
/// its time on (docs/ARCHITECTURE.md, "Tests": no test on virtual time waits on the
/// concurrency pool).
package struct WebClock: Sendable {
    package var now: @Sendable () -> WebSession.Time
    /// Runs the body once, when `now`'s monotonic time reaches the deadline (never before,
    /// never from inside this call), unless the returned timer is cancelled first.
    package var schedule: @Sendable (Instant, @escaping @Sendable () -> Void) -> WebTimer

    package init(now: @escaping @Sendable () -> WebSession.Time,
                 schedule: @escaping @Sendable (Instant, @escaping @Sendable () -> Void) -> WebTimer) {
        self.now = now
        self.schedule = schedule
    }

    /// The system's clocks: NIO's monotonic uptime (the host's loop reads the same) and the
    /// wall clock; a timer is a task that sleeps until `now` reaches its deadline.
    package static let system: WebClock = {
        let now: @Sendable () -> WebSession.Time = {
            WebSession.Time(monotonic: Instant(nanoseconds: Int64(NIODeadline.now().uptimeNanoseconds)),
                            epochMillis: Date().timeIntervalSince1970 * 1000)
        }
        return WebClock(now: now, schedule: { deadline, body in
            let task = Task {
                var wait = deadline - now().monotonic
                while wait > .zero {
                    try? await Task.sleep(for: wait)
                    if Task.isCancelled { return }
                    wait = deadline - now().monotonic
                }
                if !Task.isCancelled { body() }
            }
            return WebTimer(cancel: { task.cancel() })
        })
    }()
}

/// A timer `WebClock.schedule` armed: `cancel` keeps its body from running (nothing once it ran).
package struct WebTimer: Sendable {
    package let cancel: @Sendable () -> Void

    package init(cancel: @escaping @Sendable () -> Void) {
        self.cancel = cancel
    }
}
