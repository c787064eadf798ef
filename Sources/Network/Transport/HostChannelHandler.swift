import NIOCore
import RemotionProtocol

/// Receives what the host's protocol engine decided (everything but sending). Runs on
/// the host's event loop, synchronously: injection happens right here, with no queue
/// between the socket and the OS input system. Its metatype is Sendable (`SendableMetatype`):
/// the service hops to the loop in closures that name `Sink`, and a sink's static members
/// are never mutable state.
public protocol HostEventSink: AnyObject, SendableMetatype {
    func handle(_ action: HostAction<SocketAddress>, now: Instant)
    /// The host is stopping: release everything still held.
    func shutdown(now: Instant)
    /// The engine's numbers, at most every `HostChannelHandler.reportInterval`, when the sink
    /// wants them then.
    func report(_ report: HostReport, now: Instant)
    /// Whether the sink wants this report tick's `report(_:now:)` (a status reader is there):
    /// when not, the handler does not take its report (the counters go on counting).
    var wantsReport: Bool { get }
    /// When the sink wants `tick(now:)` next, whether or not any session is open (nil: never).
    var nextDeadline: Instant? { get }
    /// The sink's own timers, on the handler's timer (never a task of its own).
    func tick(now: Instant)
    /// The controllers the sink holds on other transports (the web page, DSU sources, local
    /// pads): they share the datagram sessions' slots, and their ids are never given to one.
    var sessionsElsewhere: Set<SessionID> { get }
    /// The handler that drives this sink, once it is in the channel: what the sink tells
    /// when work it did outside a datagram changed its controllers or deadlines.
    func attached(to driver: any HostSinkDriver)
}

extension HostEventSink {
    public func report(_ report: HostReport, now: Instant) {}
    public var wantsReport: Bool { true }
    public var nextDeadline: Instant? { nil }
    public func tick(now: Instant) {}
    public var sessionsElsewhere: Set<SessionID> { [] }
    public func attached(to driver: any HostSinkDriver) {}
}

/// The handler as its sink sees it (on the loop): after a controller on another transport
/// came, went or sent something, the handler reads the sink's controllers and deadlines again.
public protocol HostSinkDriver: AnyObject {
    /// `membership`: a controller opened or closed (its slot, its id, a report at once).
    func sinkChanged(now: Instant, membership: Bool)
    /// The sink has a deadline that may come before the one the handler's timer waits for (a
    /// game's rumble held back by its pacer): the timer wakes at `deadline` at the latest.
    func sinkWakes(at deadline: Instant)
    /// Rumble and light to a datagram session's controller, sent at once; false when `id`
    /// is not one.
    func sendFeedback(_ id: SessionID, _ feedback: ControllerFeedback) -> Bool
    /// The protocol's numbers now (what `report(_:now:)` gets every report tick).
    func report() -> HostReport
    /// The static key a datagram session's controller authenticated with (nil: plain, or
    /// not a datagram session).
    func peerKey(of id: SessionID) -> [UInt8]?
}

/// A point-in-time view of the host's protocol engine, for status displays and summaries.
public struct HostReport: Sendable {
    public var sessions: [SessionID: HostSession<SocketAddress>]
    public var drops: DropCounters
    public var datagramsReceived: Int
    public var datagramsSent: Int
    /// Datagrams the kernel discarded before the host could read them (receive buffer
    /// full), since the host started; 0 where the counter cannot be read.
    public var kernelDrops = 0

    public init(sessions: [SessionID: HostSession<SocketAddress>], drops: DropCounters, datagramsReceived: Int,
                datagramsSent: Int, kernelDrops: Int = 0) {
        self.sessions = sessions
        self.drops = drops
        self.datagramsReceived = datagramsReceived
        self.datagramsSent = datagramsSent
        self.kernelDrops = kernelDrops
    }
}

/// Owns the host's state machine, framing and sink on one event loop.
public final class HostChannelHandler<Framing: HostFraming, Sink: HostEventSink>: ChannelInboundHandler, HostSinkDriver {
    public typealias InboundIn = AddressedEnvelope<ByteBuffer>
    public typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    var machine: HostStateMachine<SocketAddress>
    private var framing: Framing
    public let sink: Sink
    private var timer: DeadlineTimer?
    private var context: ChannelHandlerContext?
    /// The time on the handler's event loop: real time on a socket's loop, virtual time
    /// on an EmbeddedEventLoop / NIOAsyncTestingEventLoop (tests drive it with advanceTime).
    func loopNow() -> Instant { Instant(context?.eventLoop.now ?? .now()) }
    /// The loop's time, for work done on the loop outside a datagram (a web frame).
    public var now: Instant { loopNow() }
    private var received = 0
    private var actionBuffer: [HostAction<SocketAddress>] = []
    private var kernelDrops = 0
    private var readBatch = ReadBatchSizer()
    private var sent = 0
    private var stopped = false
    private var lastReport = Instant.zero
    private var lastFramingTick = Instant.zero
    /// A session opened or closed since the last report: report at the next chance.
    var membershipChanged = false
    public static var reportInterval: Duration { .milliseconds(100) }
    /// How often the framing's housekeeping runs (trust reloads: a revoked controller
    /// is gone within this, plus one report tick).
    public static var framingTickInterval: Duration { .milliseconds(250) }
    /// The wire machine's `stallAllowance`: ten report intervals.
    public static var stallAllowance: Duration { .seconds(1) }

    public init(configuration: HostStateMachine<SocketAddress>.Configuration, framing: Framing, sink: Sink) {
        // This handler looks in at least every `reportInterval` while sessions are open, so
        // a longer gap is the loop's own stall (the datagrams wait in the socket), not the
        // controllers' silence.
        var configuration = configuration
        if configuration.stallAllowance == nil { configuration.stallAllowance = Self.stallAllowance }
        self.machine = HostStateMachine(configuration: configuration)
        self.framing = framing
        self.sink = sink
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        timer = DeadlineTimer(loop: context.eventLoop) { [weak self] in self?.tick() }
        machine.sessionsElsewhere = sink.sessionsElsewhere
        sink.attached(to: self)
        // One recvmmsg per wake-up: a vector read that returned less than it asked for
        // has emptied the socket, and NIO's default would try again (an EAGAIN system
        // call per wake-up at controller rates). Under load epoll reports the socket
        // again at once.
        try? context.channel.syncOptions?.setOption(.maxMessagesPerRead, value: 1)
    }

    /// A wake-up's datagrams, as NIO read them with one recvmmsg: kept until the read
    /// completes, then taken in one pass (`receive(_:now:)`). The array is allocated once
    /// (room for the largest vector read) and emptied keeping its capacity; the envelopes'
    /// buffers are slices of NIO's one receive buffer, released before its next read.
    private var batch: [AddressedEnvelope<ByteBuffer>] = []
    /// Something was written since the last flush (a reply, an ack): most motion needs none.
    private var unflushed = false

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if batch.capacity == 0 { batch.reserveCapacity(ReadBatchSizer.largest) }
        batch.append(unwrapInboundIn(data))
    }

    public func channelReadComplete(context: ChannelHandlerContext) {
        let now = loopNow()
        readBatch.batchRead(batch.count)
        receive(batch, now: now)
        batch.removeAll(keepingCapacity: true)
        flushIfWritten()
        reportIfDue(now: now)
        timer?.armIfIdle(nextWakeUp)
    }

    /// One wake-up's datagrams in their order, at the wake-up's time: the framing's
    /// housekeeping checked once, each datagram framed, given to the wire machine and its
    /// actions performed before the next (so a session closed by one is closed for the
    /// rest), one action buffer for all. A datagram the framing refuses is counted and
    /// dropped; the others are untouched by it.
    private func receive(_ datagrams: [AddressedEnvelope<ByteBuffer>], now: Instant) {
        guard !datagrams.isEmpty else { return }
        received += datagrams.count
        // Before the datagrams, so a controller revoked while the host was idle is
        // refused at its first datagram (a time check per batch; a stat at most every
        // framingTickInterval, however much traffic arrives).
        tickFramingIfDue(now: now)
        // Swapped out, so a re-entrant call from the sink cannot overlap it: no
        // allocation per motion packet.
        var actions = actionBuffer
        actionBuffer = []
        for envelope in datagrams {
            let frame = envelope.data.withUnsafeReadableBytes { framing.inbound($0, from: envelope.remoteAddress, now: now) }
            switch frame {
            case let .message(message, session):
                machine.receive(message, session: session, from: envelope.remoteAddress, now: now, into: &actions)
                perform(actions, now: now)
                actions.removeAll(keepingCapacity: true)
            case let .reply(bytes):
                write(bytes, to: envelope.remoteAddress)
            case .handled:
                break
            case let .drop(reason):
                machine.countDrop(reason)
            }
        }
        actionBuffer = actions
    }

    public func channelInactive(context: ChannelHandlerContext) {
        batch.removeAll()
        context.fireChannelInactive()
    }

    private func flushIfWritten() {
        guard unflushed else { return }
        unflushed = false
        context?.flush()
    }

    /// After the sink's work that did not come from the socket (a controller on another
    /// transport): its controllers take their slots, a report if due, the timer armed.
    public func sinkChanged(now: Instant, membership: Bool) {
        if membership {
            machine.sessionsElsewhere = sink.sessionsElsewhere
            membershipChanged = true
        }
        reportIfDue(now: now)
        timer?.armIfIdle(nextWakeUp)
    }

    public func sinkWakes(at deadline: Instant) { timer?.armIfEarlier(deadline) }

    public func peerKey(of id: SessionID) -> [UInt8]? { framing.peerKey(of: id) }

    /// Rumble and light for a datagram session's controller: sent at once. False when
    /// `id` is not a datagram session (another transport carries its own).
    @discardableResult
    public func sendFeedback(_ id: SessionID, _ feedback: ControllerFeedback) -> Bool {
        let actions = machine.feedback(id, feedback)
        guard !actions.isEmpty else { return false }
        perform(actions, now: loopNow())
        flushIfWritten()
        return true
    }

    /// The framing's housekeeping; sessions it no longer trusts are told and closed.
    private func tickFramingIfDue(now: Instant) {
        guard now - lastFramingTick >= Self.framingTickInterval else { return }
        lastFramingTick = now
        for id in framing.tick(now: now) {
            perform(machine.revoke(id), now: now)
            framing.sessionClosed(id)   // also for half-open sessions the machine never saw
        }
    }

    /// Session timeouts, and a report tick while any session is open.
    private var nextWakeUp: Instant? {
        earliest(earliest(machine.nextDeadline, machine.sessionCount == 0 ? nil : lastReport + Self.reportInterval),
                 sink.nextDeadline)
    }

    private func reportIfDue(now: Instant) {
        guard membershipChanged || now - lastReport >= Self.reportInterval else { return }
        lastReport = now
        membershipChanged = false
        if let size = readBatch.resize() {
            try? context?.channel.syncOptions?.setOption(.datagramVectorReadMessageCount, value: size)
        }
        guard sink.wantsReport else { return }
        sink.report(report(), now: now)
    }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A datagram socket reports ICMP errors (e.g. port unreachable) here; they are
        // not fatal for the host: the silent session will time out.
    }

    /// Says goodbye to every client, releases everything, then stops the timer.
    public func shutdown() {
        guard !stopped else { return }
        stopped = true
        let now = loopNow()
        perform(machine.shutdown(), now: now)
        flushIfWritten()
        sink.shutdown(now: now)
        timer?.cancel()
    }

    /// Runs `body` with the framing (on the loop), e.g. to open a pairing window on a
    /// running host or to read a session's peer key.
    public func withFraming<T>(_ body: (inout Framing) throws -> T) rethrows -> T {
        try body(&framing)
    }

    public func report() -> HostReport {
        if let context, let drops = ReceiveBuffer.kernelDrops(of: context.channel) { kernelDrops = drops }
        return HostReport(sessions: machine.sessions, drops: machine.drops, datagramsReceived: received, datagramsSent: sent,
                          kernelDrops: kernelDrops)
    }

    private func tick() {
        let now = loopNow()
        perform(machine.tick(now: now), now: now)
        tickFramingIfDue(now: now)
        sink.tick(now: now)
        flushIfWritten()
        reportIfDue(now: now)
        timer?.arm(nextWakeUp)
    }

    func perform(_ actions: [HostAction<SocketAddress>], now: Instant) {
        for action in actions {
            switch action {
            case let .send(message, session, address):
                if let bytes = framing.outbound(message, session: session, to: address, now: now) {
                    write(bytes, to: address)
                }
            case let .sessionClosed(id, _):
                framing.sessionClosed(id)
                membershipChanged = true
                sink.handle(action, now: now)
            case .sessionOpened:
                membershipChanged = true
                sink.handle(action, now: now)
            default:
                sink.handle(action, now: now)
            }
        }
    }

    private func write(_ bytes: [UInt8], to address: SocketAddress) {
        guard let context else { return }
        sent += 1
        unflushed = true
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.write(wrapOutboundOut(AddressedEnvelope(remoteAddress: address, data: buffer)), promise: nil)
    }
}
