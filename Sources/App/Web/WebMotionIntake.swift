import NIOCore
import RemotionHostLogic
import RemotionProtocol
import Synchronization

/// One web controller session's way into the host for motion and buttons, whatever
/// carries them (the WebSocket today; a data channel can use the same): newest wins
/// (`NewestWinsIntake`, docs/WEB-CONTROLLER.md "Newest wins") between the transport and
/// `ExternalControllerHost`. Calls into the host are made while holding the lock, so what one
/// session sends reaches the host's loop in the intake's order (the host's methods only
/// enqueue). The hold's timer is one task at a time, cancelled by `close`.
final class WebMotionIntake: Sendable {
    private let host: any ExternalControllerHost
    private let session: SessionID
    private let stats: WebControllerStats
    private struct State {
        var intake = NewestWinsIntake()
        var reported = NewestWinsIntake.Counters()
        var timer: Task<Void, Never>?
        var closed = false
    }
    private let state = Mutex(State())

    init(host: any ExternalControllerHost, session: SessionID, stats: WebControllerStats) {
        self.host = host
        self.session = session
        self.stats = stats
    }

    /// The host's monotonic clock as the core's `Instant`.
    static var now: Instant { Instant(nanoseconds: Int64(NIODeadline.now().uptimeNanoseconds)) }

    func motion(sequence: UInt32, _ sample: MotionSample, latencyMicros: Int64?) {
        let frame = NewestWinsIntake.Frame(sequence: sequence, sample: sample, latencyMicros: latencyMicros)
        run { $0.motion(frame, now: Self.now) }
    }

    func button(_ button: Button, isDown: Bool) {
        run { $0.button(button, isDown: isDown) }
    }

    /// The session is over: no more timers (what is held is dropped with the session).
    func close() {
        state.withLock { s in
            s.closed = true
            s.timer?.cancel()
            s.timer = nil
        }
    }

    private func run(_ step: (inout NewestWinsIntake) -> [NewestWinsIntake.Output]) {
        state.withLock { s in
            guard !s.closed else { return }
            deliver(step(&s.intake), counters: s.intake.counters, reported: &s.reported)
            if s.timer == nil, let deadline = s.intake.deadline { s.timer = arm(deadline) }
        }
    }

    private func deliver(_ outputs: [NewestWinsIntake.Output], counters: NewestWinsIntake.Counters,
                         reported: inout NewestWinsIntake.Counters) {
        for output in outputs {
            switch output {
            case let .motion(sample, latency, _): host.motion(session, sample, latencyMicros: latency)
            case let .button(button, isDown): host.button(session, button, isDown: isDown)
            }
        }
        if counters != reported {
            stats.count(intake: counters, since: reported)
            reported = counters
        }
    }

    /// Sleeps until the hold's deadline, sends what is held if it is still due, and
    /// re-arms for a later deadline (a frame that came meanwhile moved it).
    private func arm(_ deadline: Instant) -> Task<Void, Never> {
        Task { [self] in
            var due = deadline
            while true {
                let wait = due - Self.now
                if wait > .zero { try? await Task.sleep(for: wait) }
                if Task.isCancelled { return }
                let next = state.withLock { s -> Instant? in
                    guard !s.closed else { return nil }
                    deliver(s.intake.expire(now: Self.now), counters: s.intake.counters, reported: &s.reported)
                    if s.intake.deadline == nil { s.timer = nil }
                    return s.intake.deadline
                }
                guard let next else { return }
                due = next
            }
        }
    }
}
