import NIOCore
import RemotionProtocol

/// The UDP socket as a peer of the host's loop driver: its wire machine (`HostStateMachine`)
/// and framing, on the driver's loop. It hands the driver what it read, at the driver's time,
/// and writes what it is asked to send; the timer, the clock, the report cadence and the slot
/// count are the driver's (`HostDatagramDriver`), and it knows nothing of the engine behind it.
public final class HostChannelHandler<Framing: HostFraming, Driver: HostDatagramDriver>: ChannelInboundHandler, HostDatagramPeer {
    public typealias InboundIn = AddressedEnvelope<ByteBuffer>
    public typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    var machine: HostStateMachine<SocketAddress>
    private var framing: Framing
    /// The host's loop driver: what this peer hands its actions to, and whose clock it reads.
    public let driver: Driver
    private var context: ChannelHandlerContext?
    /// The driver's clock (the loop's time: virtual on an EmbeddedEventLoop, driven by advanceTime).
    public var now: Instant { driver.now }
    private var received = 0
    private var actionBuffer: [HostAction<SocketAddress>] = []
    private var kernelDrops = 0
    private var readBatch = ReadBatchSizer()
    private var sent = 0
    private var lastFramingTick = Instant.zero
    /// How often the framing's housekeeping runs (trust reloads: a revoked controller
    /// is gone within this, plus one report tick).
    public static var framingTickInterval: Duration { .milliseconds(250) }
    /// The wire machine's `stallAllowance`: ten report intervals.
    public static var stallAllowance: Duration { .seconds(1) }

    public init(configuration: HostStateMachine<SocketAddress>.Configuration, framing: Framing, driver: Driver) {
        // The driver looks in at least every report interval (100 ms) while sessions are
        // open, so a longer gap is the loop's own stall (the datagrams wait in the socket),
        // not the controllers' silence.
        var configuration = configuration
        if configuration.stallAllowance == nil { configuration.stallAllowance = Self.stallAllowance }
        // The slot count is the driver's when it has one (`--max-controllers`, in one place).
        if let slots = driver.maximumControllers { configuration.maximumSessions = slots }
        self.machine = HostStateMachine(configuration: configuration)
        self.framing = framing
        self.driver = driver
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        driver.attach(self, loop: context.eventLoop)
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
        let now = driver.now
        readBatch.batchRead(batch.count)
        receive(batch, now: now)
        batch.removeAll(keepingCapacity: true)
        flushIfWritten()
        driver.peerRead(now: now)
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
        // Swapped out, so a re-entrant call from the driver cannot overlap it: no
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

    public func peerKey(of id: SessionID) -> [UInt8]? { framing.peerKey(of: id) }

    /// Rumble and light for a datagram session's controller: sent at once. False when
    /// `id` is not a datagram session (another transport carries its own).
    @discardableResult
    public func sendFeedback(_ id: SessionID, _ feedback: ControllerFeedback) -> Bool {
        let actions = machine.feedback(id, feedback)
        guard !actions.isEmpty else { return false }
        perform(actions, now: driver.now)
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

    // The driver's view of this peer (`HostDatagramPeer`).

    public var nextDeadline: Instant? { machine.nextDeadline }
    public var sessionCount: Int { machine.sessionCount }
    public func admit(elsewhere: Set<SessionID>) { machine.sessionsElsewhere = elsewhere }

    public func reportTick() {
        if let size = readBatch.resize() {
            try? context?.channel.syncOptions?.setOption(.datagramVectorReadMessageCount, value: size)
        }
    }

    /// The driver's timer: the wire machine's timeouts, then the framing's housekeeping.
    public func tick(now: Instant) {
        perform(machine.tick(now: now), now: now)
        tickFramingIfDue(now: now)
        flushIfWritten()
    }

    public func sayGoodbye(now: Instant) {
        perform(machine.shutdown(), now: now)
        flushIfWritten()
    }

    public func errorCaught(context: ChannelHandlerContext, error: Error) {
        // A datagram socket reports ICMP errors (e.g. port unreachable) here; they are
        // not fatal for the host: the silent session will time out.
    }

    /// The host stops (its driver): a goodbye to every client, everything released, the timer stopped.
    public func shutdown() { driver.shutdown() }

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

    func perform(_ actions: [HostAction<SocketAddress>], now: Instant) {
        for action in actions {
            switch action {
            case let .send(message, session, address):
                if let bytes = framing.outbound(message, session: session, to: address, now: now) {
                    write(bytes, to: address)
                }
            case let .sessionClosed(id, _):
                framing.sessionClosed(id)
                driver.received(action, now: now)
            default:
                driver.received(action, now: now)
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

extension HostChannelHandler where Driver: HostSinkHolding {
    /// The driver's sink (tests and tools read what it recorded).
    public var sink: Driver.Sink { driver.sink }
}

extension HostChannelHandler {
    /// A host of one's own: the handler with a `SinkDriver` around `sink`.
    public convenience init<Sink: HostEventSink>(configuration: HostStateMachine<SocketAddress>.Configuration, framing: Framing,
                                                 sink: Sink) where Driver == SinkDriver<Sink> {
        self.init(configuration: configuration, framing: framing, driver: SinkDriver(sink: sink))
    }
}
