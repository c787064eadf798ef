
/// The controller's side of one session with a host, sans-IO: feed it the current time,
/// received messages and user input; it returns messages to send and what happened.
///
/// connect → ping every `pingInterval` → connected on the first pong → when no pong
/// arrives for `timeout`: `.timedOut` if it never connected, `.disconnected` if it had.
public struct ClientSession: Sendable {
    public struct Configuration: Sendable {
        public var pingInterval: Duration = .milliseconds(500)
        public var timeout: Duration = .milliseconds(2500)
        public init() {}
    }

    public enum State: Sendable, Equatable {
        case idle, connecting, connected, closed
    }

    public enum Event: Sendable, Equatable {
        case connected
        /// No pong ever arrived.
        case timedOut
        /// Was connected; the host went silent or said goodbye.
        case disconnected(DisconnectReason)
        /// The host forwards what a game asked of this controller (rumble, light).
        case feedback(ControllerFeedback)
    }

    public enum Action: Sendable, Equatable {
        case send(Message)
        case event(Event)
    }

    public let id: SessionID
    public let configuration: Configuration
    public private(set) var state: State = .idle
    public private(set) var buttons = ButtonSet.none
    public private(set) var sender = ReliableSender()
    public private(set) var motionSequence: UInt32 = 0
    public private(set) var clock = ClockOffsetEstimator()
    private var lastHeard: Instant = .zero
    private var nextPing: Instant?

    public init(id: SessionID, configuration: Configuration = .init()) {
        precondition(id.rawValue != 0, "session id 0 is reserved")
        self.id = id
        self.configuration = configuration
    }

    /// The next time `tick` wants to run.
    public var nextDeadline: Instant? {
        guard state == .connecting || state == .connected else { return nil }
        return earliest(earliest(nextPing, lastHeard + configuration.timeout), sender.retransmitDeadline)
    }

    public mutating func connect(now: Instant) -> [Action] {
        guard state == .idle else { return [] }
        state = .connecting
        lastHeard = now
        return sendPing(now: now)
    }

    public mutating func tick(now: Instant) -> [Action] {
        guard state == .connecting || state == .connected else { return [] }
        if now - lastHeard >= configuration.timeout {
            let wasConnected = state == .connected
            state = .closed
            nextPing = nil
            return [.event(wasConnected ? .disconnected(.timeout) : .timedOut)]
        }
        var actions: [Action] = []
        if let due = nextPing, now >= due { actions += sendPing(now: now) }
        let resend = sender.retransmitIfDue(now: now)
        if !resend.isEmpty { actions.append(.send(.buttons(resend))) }
        return actions
    }

    public mutating func receive(_ message: Message, now: Instant) -> [Action] {
        guard state == .connecting || state == .connected else { return [] }
        switch message {
        case let .pong(echo, hostTime):
            // The echo comes off the wire: compare in microseconds first, so an absurd
            // value is ignored instead of overflowing `echo * 1000` (a trap) or wrapping
            // negative (a bogus connect with a huge RTT).
            guard echo <= UInt64(max(0, now.microseconds)) else { return [] }
            let sent = Instant(nanoseconds: Int64(echo) * 1_000)
            lastHeard = now
            let rtt = now - sent
            sender.addRTTSample(rtt)
            clock.addSample(clientSentMicros: echo, hostMicros: hostTime,
                            clientReceivedMicros: UInt64(max(0, now.microseconds)))
            if state == .connecting {
                state = .connected
                return [.event(.connected)] + announceHeldButtons(now: now)
            }
            return []
        case let .ack(ack):
            lastHeard = now
            sender.receive(ack, now: now)
            return []
        case let .disconnect(reason):
            let wasConnected = state == .connected
            state = .closed
            // A refusal is reported as what it is, connected or not.
            let refused = reason == .revoked || reason == .full
            return [.event(wasConnected || refused ? .disconnected(reason) : .timedOut)]
        case let .feedback(f):
            guard state == .connected else { return [] }
            lastHeard = now
            return [.event(.feedback(f))]
        case .ping, .buttons, .motion:
            return []
        }
    }

    /// A button changed on the controller. Repeated presses of a held button are ignored.
    public mutating func setButton(_ button: Button, down: Bool, now: Instant) throws(ReliableSender.EnqueueError) -> [Action] {
        guard buttons.contains(button) != down else { return [] }
        guard state == .connected else {
            // Not connected: remember the state so the first motion packet carries it,
            // but there is no stream to put the edge in.
            buttons.set(button, down: down)
            return []
        }
        let batch = try sender.enqueue(button, isDown: down,
                                       timestampMicros: UInt64(max(0, now.microseconds)), now: now)
        buttons.set(button, down: down)
        return [.send(.buttons(batch))]
    }

    /// A motion sample to stream (its button field is filled in from the session).
    public mutating func motion(_ sample: MotionSample, now: Instant) -> [Action] {
        guard state == .connected else { return [] }
        motionSequence &+= 1
        var s = sample
        s.buttons = buttons
        return [.send(.motion(MotionPacket(sequence: motionSequence,
                                           buttonSequence: sender.lastSequence, sample: s)))]
    }

    /// Ends the session; says goodbye if the host may be listening.
    public mutating func close(reason: DisconnectReason = .user) -> [Action] {
        let wasActive = state == .connecting || state == .connected
        state = .closed
        nextPing = nil
        return wasActive ? [.send(.disconnect(reason))] : []
    }

    /// Buttons pressed before the session connected become edges of the stream now.
    private mutating func announceHeldButtons(now: Instant) -> [Action] {
        var batch: [ButtonEvent] = []
        for b in buttons.buttons {
            if let sent = try? sender.enqueue(b, isDown: true,
                                              timestampMicros: UInt64(max(0, now.microseconds)), now: now) {
                batch = sent
            }
        }
        return batch.isEmpty ? [] : [.send(.buttons(batch))]
    }

    private mutating func sendPing(now: Instant) -> [Action] {
        // Once an answer is overdue, probe five times as often: on a lossy link one
        // ping/pong round trip fails often (51% at 30% loss each way), but twenty
        // probes in a row rarely all do, so a live host is not declared gone.
        let overdue = now - lastHeard >= configuration.pingInterval
        nextPing = now + (overdue ? configuration.pingInterval / 5 : configuration.pingInterval)
        return [.send(.ping(clientTimeMicros: UInt64(max(0, now.microseconds)),
                            clockOffsetMicros: clock.offsetMicros))]
    }
}
