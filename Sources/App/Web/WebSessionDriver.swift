import RemotionHostLogic
import RemotionProtocol
import Synchronization

/// Runs one `WebSession` (HostLogic/Web, the one session machine both web transports share)
/// against the real host and clock: every event takes the lock, steps the machine, and makes
/// the host's calls in the machine's order while still holding it (they only enqueue on the
/// host's loop, so what one session sends reaches the loop in that order, whichever thread
/// or socket it came from). What goes back to the page is returned to the caller, who sends
/// it outside the lock. One timer of its clock at a time runs `expire` at the machine's
/// deadline.
final class WebSessionDriver: Sendable {
    let host: HostControllers
    private let stats: WebControllerStats
    /// Stops the transport (a data channel's peer) when the machine says so.
    private let stop: @Sendable () -> Void
    private let limit: Duration
    private let clock: WebClock

    /// Something to send to the page.
    enum Outgoing: Sendable {
        case binary([UInt8], on: WebSession.Channel)
        case text(String, on: WebSession.Channel)
    }

    private struct State {
        var machine: WebSession
        var session: SessionID?
        var reportedIntake = NewestWinsIntake.Counters()
        var reportedMotion = 0
        var timer: WebTimer?
        var armed = false
    }
    private let state: Mutex<State>

    /// `limit`: the silence that ends the session (named in a timeout's goodbye); `clock`: the
    /// time every event and deadline is read on (the system's; virtual in tests).
    init(host: HostControllers, stats: WebControllerStats, transport: WebSession.Transport,
         limit: Duration, clock: WebClock = .system, stop: @escaping @Sendable () -> Void = {}) {
        self.host = host
        self.stats = stats
        self.limit = limit
        self.clock = clock
        self.stop = stop
        state = Mutex(State(machine: WebSession(transport: transport)))
    }

    /// The host's session, once open.
    var session: SessionID? { state.withLock { $0.session } }

    /// The host opened `id` for this session; false when it was closed meanwhile.
    func opened(_ id: SessionID) -> Bool {
        state.withLock { s in
            guard !s.machine.isClosed else { return false }
            s.session = id
            s.machine.opened()
            return true
        }
    }

    /// A binary frame on `channel`.
    func received(_ bytes: some Collection<UInt8>, on channel: WebSession.Channel) -> [Outgoing] {
        step { $0.received(bytes, on: channel, at: clock.now()) }
    }

    /// A command (recenter, mode, pad, gyro stick, calibrate) on `channel`; `reply` gets the
    /// page's answer — the mode in effect after a mode command, the pad's state after a pad
    /// command, what a calibrate request came to — or nil for a recenter or when it was
    /// dropped (always called once).
    func command(_ message: WebClientMessage, on channel: WebSession.Channel,
                 reply: @escaping @Sendable (WebHostMessage?) -> Void) {
        let asked = state.withLock { s -> Bool in
            let actions = s.machine.command(message, on: channel)
            _ = perform(actions, &s, reply: { _ in }, answer: reply)
            return actions.contains { switch $0 { case .host(.mode), .host(.pad), .host(.gyroStick), .host(.calibrate): true; default: false } }
        }
        if !asked { reply(nil) }
    }

    /// A touchpad, typing or laser message; `reply` gets the host's answer (nil at once
    /// when the message was dropped; always called once).
    func input(_ message: WebInputMessage, on channel: WebSession.Channel,
               reply: @escaping @Sendable (WebInputReply?) -> Void) {
        let sent = state.withLock { s -> Bool in
            let actions = s.machine.input(message, on: channel)
            _ = perform(actions, &s, reply: reply, answer: { _ in })
            return actions.contains { if case .host(.input) = $0 { true } else { false } }
        }
        if !sent { reply(nil) }
    }

    /// `command`, awaited (a socket's read loop: the next message waits for the answer).
    func command(_ message: WebClientMessage, on channel: WebSession.Channel) async -> WebHostMessage? {
        await withCheckedContinuation { done in command(message, on: channel) { done.resume(returning: $0) } }
    }

    /// `input`, awaited (a socket's read loop: a page that floods fills its own TCP window).
    func input(_ message: WebInputMessage, on channel: WebSession.Channel) async -> WebInputReply? {
        await withCheckedContinuation { done in input(message, on: channel) { done.resume(returning: $0) } }
    }

    /// The session ends (releasing what the page held, once); what to send is returned.
    @discardableResult
    func close(_ ending: WebSessionEnding) -> [Outgoing] {
        step { $0.close(ending, limit: limit, at: clock.now()) }
    }

    private func step(_ body: (inout WebSession) -> [WebSession.Action]) -> [Outgoing] {
        let (out, stops) = state.withLock { s in
            let actions = body(&s.machine)
            return (perform(actions, &s, reply: { _ in }, answer: { _ in }), actions.contains(.stopTransport))
        }
        if stops { stop() }
        return out
    }

    /// Makes the host's calls (under the lock), counts, arms the timer; returns the sends.
    private func perform(_ actions: [WebSession.Action], _ s: inout State,
                         reply: @escaping @Sendable (WebInputReply?) -> Void,
                         answer: @escaping @Sendable (WebHostMessage?) -> Void) -> [Outgoing] {
        var out: [Outgoing] = []
        for action in actions {
            switch action {
            case let .send(bytes, channel): out.append(.binary(bytes, on: channel))
            case let .sendText(text, channel): out.append(.text(text, on: channel))
            case .drop(let why): stats.drop(Self.reason(why))
            case .stopTransport: break          // by the caller, outside the lock
            case .end(let ending):
                guard let id = s.session else { break }
                host.send(.close(ending.closeReason), for: id)
                stats.count(ended: ending.closeReason.description)
            case .host(let command):
                switch command {
                case .mode, .pad, .gyroStick, .calibrate: send(command, to: s.session) { answer(Self.page($0)) }
                case .input:
                    send(command, to: s.session) { [weak self] answered in
                        self?.state.withLock { $0.machine.inputDone() }
                        if case .reply(let page)? = answered { reply(page) } else { reply(nil) }
                    }
                default: send(command, to: s.session)
                }
            }
        }
        let motion = s.machine.motionFrames, intake = s.machine.intakeCounters
        if motion != s.reportedMotion { stats.count(motion: motion - s.reportedMotion); s.reportedMotion = motion }
        if intake != s.reportedIntake { stats.count(intake: intake, since: s.reportedIntake); s.reportedIntake = intake }
        if !s.armed, let deadline = s.machine.nextDeadline {
            s.armed = true
            s.timer = arm(deadline)
        } else if s.machine.isClosed, s.machine.nextDeadline == nil {
            s.timer?.cancel()           // closed: a held burst is dropped with the session
            s.timer = nil
        }
        return out
    }

    /// The session's command to the host, once it is open (before, nothing is sent).
    private func send(_ command: ControllerCommand, to session: SessionID?, answer: HostControllers.Answer? = nil) {
        guard let id = session else { return }
        host.send(command, for: id, answer: answer)
    }

    /// What the page is told of a command's answer: the mode in effect, the pad's state,
    /// the gyro stick's target, what a calibrate request came to; nil: nothing.
    private static func page(_ answer: ControllerAnswer?) -> WebHostMessage? {
        switch answer {
        case .mode(let mode)?: .mode(mode)
        case .pad(let has)?: .pad(on: has ?? false, available: has != nil)
        case .gyroStick(let target)?: .gyroStick(target)
        case .calibration(let report)?: .calibration(report)
        case .reply?, nil: nil
        }
    }

    /// Arms the clock's one timer for the machine's deadline; `armed` says one is armed.
    private func arm(_ deadline: Instant) -> WebTimer {
        clock.schedule(deadline) { [self] in expire() }
    }

    /// The timer ran: the machine expires at the clock's time, and a later deadline (an
    /// event meanwhile may have moved it) arms the next timer, in `perform`.
    private func expire() {
        let stops = state.withLock { s -> Bool in
            s.armed = false
            s.timer = nil
            let actions = s.machine.expire(at: clock.now())
            _ = perform(actions, &s, reply: { _ in }, answer: { _ in })
            return actions.contains(.stopTransport)
        }
        if stops { stop() }
    }

    private static func reason(_ drop: WebSession.Drop) -> WebControllerStats.Drop {
        switch drop {
        case .beforeOpen: .beforeHello
        case .badFrame(let error): .badFrame(error)
        case .laneButton: .laneButton
        case .buttonOnMotion: .buttonOnMotion
        case .laneText: .laneText
        case .badText: .badText
        case .inputBacklog: .inputBacklog
        }
    }
}
