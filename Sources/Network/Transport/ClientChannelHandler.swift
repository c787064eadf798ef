import NIOCore
import RemotionProtocol

public struct ClientStats: Sendable, Equatable {
    public init() {}
    public var datagramsSent = 0
    public var datagramsReceived = 0
    public var motionSent = 0
    public var buttonEdges = 0
    public var retransmissions = 0
    public var unacknowledgedAtEnd = 0
    public var dropped = DropCounters()
    public var smoothedRTTMicros: Int64?
}

public enum ClientEvent: Sendable, Equatable {
    case connected
    case timedOut
    case disconnected(DisconnectReason)
    /// Streaming ended (plan complete or stopped); the session said goodbye.
    case finished(ClientStats)
    /// The host forwards what a game asked of this controller (rumble, light).
    case feedback(ControllerFeedback)
}

/// Owns one `ClientSession` on an event loop: pings, streams the plan, reports events.
public final class ClientChannelHandler<Framing: ClientFraming>: ChannelInboundHandler {
    public typealias InboundIn = AddressedEnvelope<ByteBuffer>
    public typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    private var session: ClientSession
    private var framing: Framing
    private let host: SocketAddress
    private var plan: StreamPlan
    private let events: AsyncStream<ClientEvent>.Continuation
    private var context: ChannelHandlerContext?
    /// The time on the handler's event loop: real time on a socket's loop, virtual time
    /// on an EmbeddedEventLoop / NIOAsyncTestingEventLoop (tests drive it with advanceTime).
    private func loopNow() -> Instant { Instant(context?.eventLoop.now ?? .now()) }
    private var sessionTimer: DeadlineTimer?
    private var sampleTimer: DeadlineTimer?
    private var streamStart: Instant?
    private var samplesTaken = 0
    private var stats = ClientStats()
    private var finished = false

    public init(session: ClientSession, framing: Framing, host: SocketAddress, plan: StreamPlan,
                events: AsyncStream<ClientEvent>.Continuation) {
        self.session = session
        self.framing = framing
        self.host = host
        self.plan = plan
        self.events = events
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        sessionTimer = DeadlineTimer(loop: context.eventLoop) { [weak self] in self?.sessionTick() }
        sampleTimer = DeadlineTimer(loop: context.eventLoop) { [weak self] in self?.sampleTick() }
    }

    public func start() {
        let now = loopNow()
        if let hello = framing.start(session: session.id, now: now) { write(hello) }
        perform(session.connect(now: now), now: now)
        flushAndArm()
    }

    /// Stops streaming and says goodbye (SIGINT, end of plan).
    public func stop() {
        guard !finished else { return }
        finished = true
        perform(session.close(reason: .user), now: loopNow())
        stats.retransmissions = session.sender.retransmissions
        stats.unacknowledgedAtEnd = session.sender.unacknowledged
        stats.smoothedRTTMicros = session.sender.rtt.smoothed.map { $0.nanoseconds / 1000 }
        context?.flush()
        sessionTimer?.cancel()
        sampleTimer?.cancel()
        events.yield(.finished(stats))
        events.finish()
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        guard envelope.remoteAddress == host else {
            stats.dropped.count(.addressMismatch)
            return
        }
        stats.datagramsReceived += 1
        let now = loopNow()
        switch envelope.data.withUnsafeReadableBytes({ framing.inbound($0, now: now) }) {
        case let .message(message, id) where id == session.id:
            perform(session.receive(message, now: now), now: now)
        case .message:
            stats.dropped.count(.unknownSession)
        case let .reply(bytes):
            write(bytes)
        case .handled:
            break
        case let .drop(reason):
            stats.dropped.count(reason)
        }
    }

    public func channelReadComplete(context: ChannelHandlerContext) { flushAndArm() }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        // ICMP port unreachable while the host is down: the ping timeout decides.
    }

    private func sessionTick() {
        perform(session.tick(now: loopNow()), now: loopNow())
        flushAndArm()
    }

    private func sampleTick() {
        guard let start = streamStart, !finished else { return }
        let now = loopNow()
        let t = (now - start).secondsDouble
        // Edges due first: a release at the very end is still sent before the stream stops.
        for edge in plan.presses.due(until: t) { setButton(edge.button, down: edge.down, now: now) }
        let end = plan.duration ?? plan.source.length
        if let end, t >= max(end, plan.presses.lastEdgeTime) {
            stop()
            return
        }
        let reading = plan.source.sample(at: t)
        if let held = reading.buttons {
            for b in session.buttons.changes(to: held) { setButton(b, down: held.contains(b), now: now) }
        }
        let sample = MotionSample(timestampMicros: UInt64(max(0, now.microseconds)), attitude: reading.attitude,
                                  gyro: reading.gyro, analog: plan.analog)
        stats.motionSent += 1
        perform(session.motion(sample, now: now), now: now)
        samplesTaken += 1
        samplesTaken = Self.nextSlot(after: now, start: start, rate: plan.rate, taken: samplesTaken)
        sampleTimer?.arm(start + .secondsDouble(Double(samplesTaken) / plan.rate))
        flushAndArm()
    }

    /// The sample slot to wake for: `taken`'s, or when that one is already past (a starved
    /// machine fell behind) the first slot after `now`, the missed ones skipped. Never a
    /// time at or before `now`: NIO runs every due task before it reads its sockets again,
    /// so a timer re-armed for "now" each time would send forever and never hear the host
    /// (seen in an emulated guest under load: 878 samples sent, 1 answer read, a timeout).
    package static func nextSlot(after now: Instant, start: Instant, rate: Double, taken: Int) -> Int {
        guard rate > 0, start + .secondsDouble(Double(taken) / rate) <= now else { return taken }
        let elapsed = (now - start).secondsDouble * rate
        guard elapsed.isFinite, elapsed < Double(Int.max / 2) else { return taken }
        return Swift.max(taken, Int(elapsed.rounded(.down)) + 1)
    }

    private func setButton(_ button: Button, down: Bool, now: Instant) {
        do {
            let actions = try session.setButton(button, down: down, now: now)
            if !actions.isEmpty { stats.buttonEdges += 1 }
            perform(actions, now: now)
        } catch {
            // The host has not acknowledged 256 edges: it is gone; the ping timeout will say so.
        }
    }

    private func perform(_ actions: [ClientSession.Action], now: Instant) {
        for action in actions {
            switch action {
            case let .send(message):
                if let bytes = framing.outbound(message, session: session.id, now: now) { write(bytes) }
            case .event(.connected):
                events.yield(.connected)
                streamStart = now
                sampleTimer?.arm(now)
            case .event(.timedOut):
                events.yield(.timedOut)
                stop()
            case let .event(.disconnected(reason)):
                events.yield(.disconnected(reason))
                stop()
            case let .event(.feedback(f)):
                events.yield(.feedback(f))
            }
        }
    }

    private func write(_ bytes: [UInt8]) {
        guard let context else { return }
        stats.datagramsSent += 1
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.write(wrapOutboundOut(AddressedEnvelope(remoteAddress: host, data: buffer)), promise: nil)
    }

    private func flushAndArm() {
        context?.flush()
        sessionTimer?.arm(finished ? nil : session.nextDeadline)
    }
}
