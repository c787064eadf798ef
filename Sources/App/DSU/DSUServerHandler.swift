import Logging
import NIOCore
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// Remotion's controllers served to emulators as DSU pads: a UDP channel bound on the
/// host's event loop, driving `DSUServerStateMachine`. It watches the host pipeline
/// (`HostPipelineObserver`), so each controller's motion is turned into a pad-data
/// packet and sent to the subscribed DSU clients synchronously, on the loop that
/// decoded it: a controller takes the lowest free slot of four when it connects
/// and frees it when it leaves. Requests from any number of clients are answered
/// (version, port info) or recorded (subscriptions, 5 s); anything the codec rejects
/// is counted by reason and dropped.
package final class DSUServerHandler: ChannelInboundHandler, HostPipelineObserver, HostDropReporter {
    package typealias InboundIn = AddressedEnvelope<ByteBuffer>
    package typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    private var machine: DSUServerStateMachine<SocketAddress, SessionID>
    private let logger: Logger
    private var context: ChannelHandlerContext?
    private var timer: DeadlineTimer?
    /// Each controller's buttons as the host delivered the edges (once each).
    private var buttons: [SessionID: ButtonSet] = [:]
    private var lastSample: [SessionID: MotionSample] = [:]
    package private(set) var requests = 0
    package private(set) var padPacketsSent = 0
    /// Controllers that found all four slots taken.
    package private(set) var unserved = 0

    package init(configuration: DSUServerStateMachine<SocketAddress, SessionID>.Configuration, logger: Logger) {
        machine = DSUServerStateMachine(configuration: configuration)
        self.logger = logger
    }

    private func loopNow() -> Instant { Instant(context?.eventLoop.now ?? .now()) }

    package var drops: DSUDropCounters { machine.drops }
    package func slot(of id: SessionID) -> UInt8? { machine.slot(of: id) }

    // MARK: requests from DSU clients

    package func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        timer = DeadlineTimer(loop: context.eventLoop) { [weak self] in self?.expire() }
    }

    package func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        self.context = nil
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        requests += 1
        let replies = machine.receive(envelope.data.readableBytesView, from: envelope.remoteAddress, now: loopNow())
        write(replies)
    }

    package func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
        timer?.arm(machine.nextDeadline)
    }

    /// ICMP errors from clients that went away are not fatal; their subscriptions expire.
    package func errorCaught(context: ChannelHandlerContext, error: Error) {}

    private func expire() {
        machine.tick(now: loopNow())
        timer?.arm(machine.nextDeadline)
    }

    // MARK: the host's controllers

    package func sessionOpened(_ id: SessionID, origin: HostControllerOrigin, now: Instant) {
        buttons[id] = ButtonSet.none
        if let slot = machine.attach(id) {
            logger.info("DSU server slot filled", metadata: ["session": "\(id)", "slot": "\(slot)"])
        } else {
            unserved += 1
            logger.info("DSU server: all 4 slots taken; this controller is not served", metadata: ["session": "\(id)"])
        }
    }

    package func motion(_ id: SessionID, _ sample: MotionSample, now: Instant) {
        var s = sample
        s.buttons = buttons[id] ?? .none
        lastSample[id] = s
        serve(id, s, now: now)
    }

    /// A button edge goes out at once, with the latest motion (same timestamp, so a
    /// client integrating the gyro adds nothing for it).
    package func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant) {
        buttons[id, default: .none].set(button, down: isDown)
        guard var s = lastSample[id] else { return }
        s.buttons = buttons[id] ?? .none
        lastSample[id] = s
        serve(id, s, now: now)
    }

    package func sessionClosed(_ id: SessionID, now: Instant) {
        if let slot = machine.detach(id) {
            logger.info("DSU server slot freed", metadata: ["session": "\(id)", "slot": "\(slot)"])
        }
        buttons[id] = nil
        lastSample[id] = nil
    }

    private func serve(_ id: SessionID, _ sample: MotionSample, now: Instant) {
        let out = machine.update(id, sample: sample, now: now)
        guard !out.isEmpty else { return }
        padPacketsSent += out.count
        write(out)
        context?.flush()
    }

    private func write(_ datagrams: [DSUServerStateMachine<SocketAddress, SessionID>.Outgoing]) {
        guard let context else { return }
        for d in datagrams {
            let envelope = AddressedEnvelope(remoteAddress: d.to, data: context.channel.allocator.buffer(bytes: d.bytes))
            context.write(wrapOutboundOut(envelope), promise: nil)
        }
    }

    // MARK: HostDropReporter

    /// Drops by reason.
    package var dropCounts: [DSUDropReason: Int] { machine.drops.counts }

    package var hostDrops: [HostDrop: Int] { [HostDrop: Int]().adding(dropCounts, as: HostDrop.dsuServer) }

    package var summary: String {
        "DSU server: \(requests) requests, \(padPacketsSent) pad packets sent, dropped \(dropCounts.dropWords { "\($0)" })"
    }
}
