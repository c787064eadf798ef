import NIOCore
import RemotionProtocol

/// The adapters' clock: the monotonic uptime clock NIO schedules timers with.
public enum MonotonicClock {
    public static func now() -> Instant { Instant(NIODeadline.now()) }
}

extension Instant {
    public init(_ deadline: NIODeadline) {
        self.init(nanoseconds: Int64(truncatingIfNeeded: deadline.uptimeNanoseconds))
    }
}

extension NIODeadline {
    public init(_ instant: Instant) {
        self = .uptimeNanoseconds(UInt64(max(0, instant.nanoseconds)))
    }
}

/// One re-armable timer on an event loop, for a state machine's `nextDeadline`.
/// Lives on the loop that owns the state machine; never crosses threads.
package final class DeadlineTimer {
    private let loop: NIOIsolatedEventLoop
    private var scheduled: Scheduled<Void>?
    private var armedFor: Instant?
    private let fire: () -> Void

    package init(loop: any EventLoop, fire: @escaping () -> Void) {
        self.loop = loop.assumeIsolated()
        self.fire = fire
    }

    /// Arms the timer for `deadline` (or cancels it for nil); re-arming for the same
    /// deadline does nothing.
    package func arm(_ deadline: Instant?) {
        guard deadline != armedFor else { return }
        scheduled?.cancel()
        scheduled = nil
        armedFor = deadline
        guard let deadline else { return }
        scheduled = loop.scheduleTask(deadline: NIODeadline(deadline)) { [weak self] in
            guard let self else { return }
            self.armedFor = nil
            self.scheduled = nil
            self.fire()
        }
    }

    package func cancel() { arm(nil) }

    /// True while a wake-up is scheduled.
    var isArmed: Bool { scheduled != nil }

    /// The deadline a wake-up is scheduled for (nil: none).
    package var deadline: Instant? { scheduled == nil ? nil : armedFor }

    /// Arms for `deadline` when nothing is armed or what is armed comes later: for a deadline
    /// that work outside the socket brought forward (a game's rumble held back).
    package func armIfEarlier(_ deadline: Instant) {
        if scheduled != nil, let armedFor, armedFor <= deadline { return }
        arm(deadline)
    }

    /// Arms for `deadline` only when nothing is armed. A host calls this after each read
    /// batch: traffic only moves deadlines later (a session heard from, a report sent),
    /// and a timer that fires early just finds nothing due and re-arms exactly, so the
    /// per-wake-up cost is one check instead of a cancel and a new scheduled task.
    package func armIfIdle(_ deadline: @autoclosure () -> Instant?) {
        guard scheduled == nil else { return }
        arm(deadline())
    }
}
