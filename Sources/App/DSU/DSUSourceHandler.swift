import Logging
import NIOCore
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// One DSU server (a phone app) read as up to four controllers: a UDP channel
/// connected to the server, on the host's event loop, driving `DSUSourceStateMachine`
/// with a timer at its `nextDeadline`. Each connected slot is an external session of
/// the host ("DSU 192.168.1.20:26760 slot 0"); its samples go through the host's
/// state machine (button edges once) into the session's own mapper. A slot that
/// disconnects or goes silent for the timeout is closed, which releases everything it
/// held; a server that comes back is picked up by the renewals.
///
/// Per datagram the work is bounded: one decode (≤ 2 KB read) and one state-machine
/// step; samples are merged per read batch (`DSUEventBatch`), so a flood reaches the
/// mapper and injector at most once per slot per batch (plus button edges), and the
/// loop serves the host's own socket between batches.
package final class DSUSourceHandler: ChannelInboundHandler, HostDropReporter {
    package typealias InboundIn = AddressedEnvelope<ByteBuffer>
    package typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    package let server: SocketAddress
    /// The host's pipeline on this loop (docs/ARCHITECTURE.md), called synchronously.
    private let pipeline: HostPipeline
    private let logger: Logger
    private var machine: DSUSourceStateMachine
    private var batch = DSUEventBatch()
    private var sessions: [UInt8: SessionID] = [:]
    /// Slots that connected while the host was full, with the last attempt.
    private var waiting: [UInt8: Instant] = [:]
    private var timer: DeadlineTimer?
    private var context: ChannelHandlerContext?
    private var started = false
    private let fromLoopback: Bool
    package private(set) var datagrams = 0
    package private(set) var samplesDelivered = 0
    /// Datagrams from another address than the server's (a connected socket gets none).
    package private(set) var foreign = 0
    package private(set) var refusedWhileFull = 0

    package init(server: SocketAddress, pipeline: HostPipeline, configuration: DSUSourceStateMachine.Configuration,
                 logger: Logger) {
        self.server = server
        self.pipeline = pipeline
        self.logger = logger
        machine = DSUSourceStateMachine(configuration: configuration)
        fromLoopback = DSUEndpoint(host: server.ipAddress ?? "", port: server.port ?? 0).isLoopback
    }

    private func loopNow() -> Instant { Instant(context?.eventLoop.now ?? .now()) }

    package var name: String { "DSU \(server.displayText)" }
    package var connectedSlots: [UInt8] { sessions.keys.sorted() }
    package var drops: DSUDropCounters { machine.drops }

    // MARK: channel events

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        timer = DeadlineTimer(loop: context.eventLoop) { [weak self] in self?.tick() }
        if context.channel.isActive { start() }
    }

    package func channelActive(context: ChannelHandlerContext) {
        start()
        context.fireChannelActive()
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        datagrams += 1
        guard envelope.remoteAddress == server else {
            foreign += 1
            return
        }
        let out = machine.receive(envelope.data.readableBytesView, now: loopNow())
        send(out.datagrams)
        batch.append(contentsOf: out.events)
    }

    package func channelReadComplete(context: ChannelHandlerContext) {
        let now = loopNow()
        deliver(batch.drain(), now: now)
        context.flush()
        timer?.arm(machine.nextDeadline)
    }

    /// A connected UDP socket reports "connection refused" while nobody listens at the
    /// server's port: not fatal, the renewals go on until the server is back.
    package func errorCaught(context: ChannelHandlerContext, error: Error) {}

    package func channelInactive(context: ChannelHandlerContext) {
        stop(reason: .hostShutdown)
        context.fireChannelInactive()
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        stop(reason: .hostShutdown)
        self.context = nil
    }

    // MARK: work

    private func start() {
        guard !started else { return }
        started = true
        let now = loopNow()
        send(machine.start(now: now).datagrams)
        context?.flush()
        timer?.arm(machine.nextDeadline)
    }

    private func tick() {
        let now = loopNow()
        let out = machine.tick(now: now)
        deliver(out.events, now: now)
        send(out.datagrams)
        context?.flush()
        timer?.arm(machine.nextDeadline)
    }

    /// Ends every session (the source is stopping): each releases what it held.
    private func stop(reason: SessionCloseReason) {
        timer?.cancel()
        let now = loopNow()
        for slot in sessions.keys.sorted() { close(slot, reason: reason, now: now) }
        waiting = [:]
    }

    private func deliver(_ events: [DSUSourceStateMachine.Event], now: Instant) {
        for event in events {
            switch event {
            case .slotConnected(let slot):
                open(slot, now: now)
            case let .sample(slot, sample):
                if sessions[slot] == nil, let tried = waiting[slot], now - tried >= .seconds(1) { open(slot, now: now) }
                guard let id = sessions[slot] else { continue }
                let latency = DSUSampleLatency.micros(timestampMicros: sample.timestampMicros, now: now,
                                                      fromLoopback: fromLoopback)
                pipeline.perform(.motion(sample, latencyMicros: latency), for: id, now: now)
                samplesDelivered += 1
            case let .slotDisconnected(slot, timedOut):
                waiting[slot] = nil
                close(slot, reason: timedOut ? .timedOut : .clientDisconnected(.user), now: now)
            case .serverVersion(let version):
                logger.info("DSU server answered", metadata: ["source": "\(server.displayText)", "version": "\(version)"])
            }
        }
    }

    private func open(_ slot: UInt8, now: Instant) {
        guard sessions[slot] == nil else { return }
        // The pad's MAC names it for calibration memory (the slot does not: another pad may take it).
        let key = machine.mac(ofSlot: slot).flatMap(ControllerCalibrationKey.dsu(mac:))
        guard let id = pipeline.open(from: .dsu(server: server, slot: slot), name: "\(name) slot \(slot)",
                                     calibrationKey: key, now: now) else {
            if waiting[slot] == nil {
                logger.warning("\(name) slot \(slot): the host is full (--max-controllers); retrying every second")
            }
            refusedWhileFull += 1
            waiting[slot] = now
            return
        }
        waiting[slot] = nil
        sessions[slot] = id
        logger.info("DSU slot connected", metadata: ["session": "\(id)", "source": "\(server.displayText)", "slot": "\(slot)"])
    }

    private func close(_ slot: UInt8, reason: SessionCloseReason, now: Instant) {
        guard let id = sessions.removeValue(forKey: slot) else { return }
        pipeline.close(id, reason: reason, now: now)
        logger.info("DSU slot ended", metadata: ["session": "\(id)", "source": "\(server.displayText)",
                                                  "slot": "\(slot)", "reason": "\(reason)"])
    }

    private func send(_ datagrams: [[UInt8]]) {
        guard let context, !datagrams.isEmpty else { return }
        for d in datagrams {
            let envelope = AddressedEnvelope(remoteAddress: server, data: context.channel.allocator.buffer(bytes: d))
            context.write(wrapOutboundOut(envelope), promise: nil)
        }
    }

    // MARK: HostDropReporter

    /// Drops by reason.
    package var dropCounts: [DSUSourceDrop: Int] {
        var counts = [DSUSourceDrop: Int]().adding(machine.drops.counts, as: DSUSourceDrop.machine)
        if foreign > 0 { counts[.wrongSender] = foreign }
        return counts
    }

    package var hostDrops: [HostDrop: Int] {
        let shown = server.displayText
        return [HostDrop: Int]().adding(dropCounts) { .dsuSource(server: shown, $0) }
    }

    package var summary: String {
        let dropped = dropCounts.dropWords { "\($0)" }
        return "DSU source \(server.displayText): \(machine.accepted) pad packets, \(samplesDelivered) samples to the host "
            + "(\(batch.merged) merged), dropped \(dropped)"
    }
}
