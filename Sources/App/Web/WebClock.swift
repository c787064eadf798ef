import Foundation
import NIOCore
import RemotionHostLogic
import RemotionProtocol

/// The time a web transport gives its session machine (`WebSessionDriver`): the host's
/// monotonic clock, which stamps each frame's arrival for newest wins and the session's
/// deadlines, and the wall clock, which the page's own timestamps (milliseconds since the
/// epoch) are read against for the clock offset. A parameter: the real one reads the system
/// (`system`); a test gives virtual time, and its `sleep` decides how time passes while the
/// driver waits for its next deadline.
package struct WebClock: Sendable {
    package var now: @Sendable () -> WebSession.Time
    /// Waits `duration` (returns early when the waiting task is cancelled).
    package var sleep: @Sendable (Duration) async -> Void

    package init(now: @escaping @Sendable () -> WebSession.Time, sleep: @escaping @Sendable (Duration) async -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The system's clocks: NIO's monotonic uptime (the host's loop reads the same) and the
    /// wall clock; sleeping is the task's.
    package static let system = WebClock(
        now: {
            WebSession.Time(monotonic: Instant(nanoseconds: Int64(NIODeadline.now().uptimeNanoseconds)),
                            epochMillis: Date().timeIntervalSince1970 * 1000)
        },
        sleep: { try? await Task.sleep(for: $0) })
}
