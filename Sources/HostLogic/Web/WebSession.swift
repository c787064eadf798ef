import RemotionProtocol

/// One web controller session on the host, whichever transport carries it
/// (docs/WEB-CONTROLLER.md, "One session machine"): the WebSocket (a primary socket and its
/// motion lane) and the data channels ("control" and "motion") both drive this one. Pure:
/// frames from a named channel, page messages and the time in; what to tell the host and
/// what to send back out, and the next deadline.
///
/// - **Buttons** belong to the channel that owns the session (`Channel.ownsSession`: the
///   primary WebSocket, the "control" data channel): only there do BUTTON edges, page input
///   (touchpad, typing, laser) and commands count. A lane's or the "motion" channel's
///   MOTION gets the owner's button state, so it can never press or release anything.
///   On the primary WebSocket a MOTION frame's button field is the truth (as it always was:
///   its edges and frames ride one ordered stream).
/// - **Newest wins** (`NewestWinsIntake`): a frame not newer than one taken is stale and
///   dropped, whichever channel it came on; a WebSocket stall's backlog is merged (a data
///   channel retransmits nothing, so it has no backlog to merge and nothing is held).
/// - **Hold to aim** (`PageClutch`) and the **clock offset** from the pings (every channel
///   but a lane, whose pings say nothing about the primary's path) are the session's.
/// - **Closed** is final: releases for every button the page held, then `.end`, and nothing
///   after. A data channel then lingers (`linger`) so a goodbye can leave before the
///   transport stops (`.stopTransport`, an event of `expire`).
package struct WebSession: Sendable {
    /// Where a frame came from.
    package enum Channel: Sendable, Hashable {
        /// The WebSocket that said hello.
        case primary
        /// A WebSocket motion lane of the same session: MOTION and PING only.
        case lane
        /// The data channel "control": reliable, ordered.
        case control
        /// The data channel "motion": unordered, never retransmitted.
        case motion

        /// Buttons, page input, commands: only on the channel that opened the session.
        package var ownsSession: Bool { self == .primary || self == .control }
    }

    package enum Transport: Sendable { case webSocket, dataChannels }

    /// The host's clocks: monotonic for the intake, epoch milliseconds for the page's clock.
    package struct Time: Sendable, Equatable {
        package var monotonic: Instant
        package var epochMillis: Double
        package init(monotonic: Instant, epochMillis: Double) { self.monotonic = monotonic; self.epochMillis = epochMillis }
    }

    package enum Drop: Sendable, Hashable {
        case beforeOpen, badFrame(WebFrameError), laneButton, buttonOnMotion, laneText, badText, inputBacklog
    }

    package enum Action: Sendable, Equatable {
        /// To the host: one engine command for the session (`ControllerCommand`: a sample
        /// — its button field the session's button state —, an edge, a ping's `heard`, page
        /// input — `inputDone` when it replied —, recenter, mode, pad, gyro stick, calibrate;
        /// the page is told the answer).
        case host(ControllerCommand)
        /// To the page: bytes (MOTION-ACK, PONG) or text (a goodbye) on a channel.
        case send([UInt8], on: Channel)
        case sendText(String, on: Channel)
        case drop(Drop)
        /// To the host: the session is over (every button was released just before).
        case end(WebSessionEnding)
        /// To the transport: stop now (a data channel's goodbye had its time).
        case stopTransport
    }

    private enum Phase: Sendable, Equatable { case waiting, open, closing(until: Instant), closed }

    package let transport: Transport
    private var phase = Phase.waiting
    private var intake = NewestWinsIntake()
    private var clock = WebClockOffset()
    private var clutch = PageClutch()
    /// The page's button state, as the owning channel built it.
    package private(set) var buttons = ButtonSet.none
    private var lastAck: Instant?
    private var inputsInFlight = 0
    /// MOTION frames taken while open (stale ones included).
    package private(set) var motionFrames = 0
    /// Newest wins' counters (stale, merged, bursts).
    package var intakeCounters: NewestWinsIntake.Counters { intake.counters }

    /// A data channel's MOTION-ACK at most this often (a WebSocket acknowledges every frame
    /// on the socket it came on, which tells the page that socket has nothing in flight).
    package static let dataChannelAckInterval = Duration.milliseconds(50)
    /// How long a closed data-channel session waits before its transport stops.
    package static let linger = Duration.milliseconds(50)
    /// Page input messages waiting for the host at most (more are dropped, counted).
    package static let maxInputsInFlight = 256

    package init(transport: Transport) {
        self.transport = transport
        intake.holdsBursts = transport == .webSocket   // a data channel's motion: stale drops only
    }

    package var isOpen: Bool { phase == .open }
    /// Closed or closing: nothing reaches the host any more.
    package var isClosed: Bool {
        switch phase {
        case .waiting, .open: false
        case .closing, .closed: true
        }
    }

    /// The host gave the session its id: frames count from now on.
    package mutating func opened() {
        if phase == .waiting { phase = .open }
    }

    /// When `expire` must run: a held burst's end, or a closing session's stop.
    package var nextDeadline: Instant? {
        switch phase {
        case .open: intake.deadline
        case .closing(let until): until
        case .waiting, .closed: nil
        }
    }

    /// A binary frame on `channel`.
    package mutating func received(_ bytes: some Collection<UInt8>, on channel: Channel, at time: Time) -> [Action] {
        guard !isClosed else { return [] }
        guard phase == .open else { return [.drop(.beforeOpen)] }
        let frame: WebFrame
        do { frame = try WebFrame.decode(bytes) } catch { return [.drop(.badFrame(error))] }
        switch frame {
        case .motion(let m): return motion(m, on: channel, at: time)
        case let .button(button, isDown, _):
            guard channel.ownsSession else { return [.drop(channel == .lane ? .laneButton : .buttonOnMotion)] }
            buttons.set(button, down: isDown)
            return deliver(intake.button(button, isDown: isDown))
        case let .ping(_, pageTime, rtt):
            if channel != .lane {
                clock.ping(pageTimeMillis: pageTime, rttMillis: rtt == 0 ? nil : Double(rtt) / 10, hostNowMillis: time.epochMillis)
            }
            return [.host(.heard), .send(WebFrame.pong(echoing: bytes), on: channel == .motion ? .control : channel)]
        }
    }

    private mutating func motion(_ m: WebMotion, on channel: Channel, at time: Time) -> [Action] {
        motionFrames += 1
        var sample = clutch.apply(m.sample, held: m.clutch)   // hold to aim
        if channel == .primary { buttons = sample.buttons } else { sample.buttons = buttons }
        let latency = clock.latencyMicros(sampleMillis: m.timeMillis, hostNowMillis: time.epochMillis)
        let stale = intake.counters.stale
        var actions = deliver(intake.motion(.init(sequence: m.sequence, sample: sample, latencyMicros: latency), now: time.monotonic))
        switch transport {
        case .webSocket:
            actions.append(.send(Self.ack(m.sequence), on: channel))
        case .dataChannels:
            guard intake.counters.stale == stale else { break }
            if let last = lastAck, time.monotonic - last < Self.dataChannelAckInterval { break }
            lastAck = time.monotonic
            actions.append(.send(Self.ack(m.sequence), on: .motion))
        }
        return actions
    }

    /// A touchpad, typing or laser message (text) on `channel`.
    package mutating func input(_ message: WebInputMessage, on channel: Channel) -> [Action] {
        guard !isClosed else { return [] }
        guard channel.ownsSession else { return [.drop(channel == .lane ? .laneText : .badText)] }
        guard phase == .open else { return [.drop(.beforeOpen)] }
        guard inputsInFlight < Self.maxInputsInFlight else { return [.drop(.inputBacklog)] }
        inputsInFlight += 1
        // The held motion goes first: what the page sent before the message reaches the host before it.
        return deliver(intake.sendHeld()) + [.host(.input(message))]
    }

    /// The host answered an `.input`.
    package mutating func inputDone() { inputsInFlight = max(0, inputsInFlight - 1) }

    /// A command (recenter, mode, pad, gyro stick, calibrate) on `channel`; hellos are the transport's.
    package mutating func command(_ message: WebClientMessage, on channel: Channel) -> [Action] {
        guard !isClosed else { return [] }
        guard channel.ownsSession else { return [.drop(channel == .lane ? .laneText : .badText)] }
        guard phase == .open else { return [] }
        switch message {
        case .recenter: return [.host(.recenter)]
        case .mode(let wanted): return [.host(.mode(set: wanted))]
        case .pad(let on): return [.host(.pad(on: on))]
        case .gyroStick(let target): return [.host(.gyroStick(target))]
        case .calibrate: return [.host(.calibrate)]
        case .hello, .lane: return []
        }
    }

    /// The session ends: the page's buttons are released, the host is told, and (data
    /// channels) the goodbye is sent and the transport stops at `linger` (at once when the
    /// page ended it). Nothing happens after; a second close does nothing.
    package mutating func close(_ ending: WebSessionEnding, limit: Duration, at time: Time) -> [Action] {
        guard !isClosed else { return [] }
        let wasOpen = phase == .open
        var actions: [Action] = []
        if wasOpen {
            actions = buttons.buttons.map { .host(.button($0, isDown: false)) } + [.end(ending)]
        }
        buttons = .none
        switch transport {
        case .webSocket:
            phase = .closed      // the socket says goodbye and cuts the connection itself
        case .dataChannels:
            if let goodbye = ending.goodbye(limit: limit) { actions.append(.sendText(goodbye.text, on: .control)) }
            if ending == .closedByPage {
                phase = .closed
                actions.append(.stopTransport)
            } else {
                phase = .closing(until: time.monotonic + Self.linger)
            }
        }
        return actions
    }

    /// Runs at `nextDeadline`: a held burst is sent; a closing session's transport stops.
    package mutating func expire(at time: Time) -> [Action] {
        switch phase {
        case .open: return deliver(intake.expire(now: time.monotonic))
        case .closing(let until) where time.monotonic >= until:
            phase = .closed
            return [.stopTransport]
        default: return []
        }
    }

    private func deliver(_ outputs: [NewestWinsIntake.Output]) -> [Action] {
        outputs.map { output in
            switch output {
            case let .motion(sample, latency, _): .host(.motion(sample, latencyMicros: latency))
            case let .button(button, isDown): .host(.button(button, isDown: isDown))
            }
        }
    }

    /// MOTION-ACK (0x84, 8 bytes: [4..7] u32 the sequence).
    package static func ack(_ sequence: UInt32) -> [UInt8] {
        [0x84, 0, 0, 0, UInt8(sequence & 0xFF), UInt8(sequence >> 8 & 0xFF), UInt8(sequence >> 16 & 0xFF), UInt8(sequence >> 24)]
    }
}
