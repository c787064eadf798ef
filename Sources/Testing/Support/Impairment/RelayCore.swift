import NIOCore
import NIOPosix
import RemotionProtocol

/// The single owner of the relay's mutable state. It lives on one event loop: every method
/// runs there (the handlers, timers and bind callbacks reach it only through
/// `NIOLoopBound`, which checks the loop at run time). No locks, no `@unchecked Sendable`.
final class RelayCore {
    /// One client source address and its own upstream-facing socket (as a NAT would).
    struct Flow {
        enum Socket {
            case binding(pending: [ByteBuffer])
            case ready(Channel)
            case failed
        }
        let client: SocketAddress
        var socket: Socket
    }

    let eventLoop: EventLoop
    let upstream: SocketAddress
    let maxClients: Int
    /// Datagrams held per flow while its upstream socket is still being bound.
    let maxPendingPerFlow = 1024
    /// Requested SO_RCVBUF for every relay socket (the kernel caps it at net.core.rmem_max),
    /// so short bursts survive a busy event loop.
    static let receiveBufferBytes: SocketOptionValue = 1 << 20

    var scheduler: ImpairmentScheduler
    var counters = ImpairmentRelaySnapshot.RelayCounters()
    private var listener: Channel?
    private var flowIDs: [SocketAddress: Int] = [:]
    private var flows: [Flow] = []
    private var timer: Scheduled<Void>?
    private var timerDeadline: Instant?
    private var isShutDown = false
    private var bindings: [EventLoopFuture<Channel>] = []
    private let closed: EventLoopPromise<Void>

    init(eventLoop: EventLoop, upstream: SocketAddress, scheduler: ImpairmentScheduler, maxClients: Int) {
        eventLoop.preconditionInEventLoop()
        self.eventLoop = eventLoop
        self.upstream = upstream
        self.scheduler = scheduler
        self.maxClients = maxClients
        self.closed = eventLoop.makePromise()
    }

    private var bound: NIOLoopBound<RelayCore> { NIOLoopBound(self, eventLoop: eventLoop) }

    /// Monotonic time from NIO's clock (the same clock scheduled tasks use).
    private func now() -> Instant { Instant(nanoseconds: Int64(NIODeadline.now().uptimeNanoseconds)) }

    var snapshot: ImpairmentRelaySnapshot {
        ImpairmentRelaySnapshot(stats: scheduler.stats, clients: flows.count, queued: scheduler.queuedCount, relay: counters)
    }

    // MARK: inbound

    func attachListener(_ channel: Channel) {
        listener = channel
    }

    func fromClient(_ envelope: AddressedEnvelope<ByteBuffer>) {
        guard !isShutDown else { return }
        let flow: Int
        if let known = flowIDs[envelope.remoteAddress] {
            flow = known
        } else {
            guard flows.count < maxClients else {
                counters.rejectedClientDatagrams += 1
                return
            }
            flow = openFlow(for: envelope.remoteAddress)
        }
        _ = scheduler.submit(Array(envelope.data.readableBytesView), direction: .clientToHost, flow: flow, now: now())
        pump()
    }

    func fromUpstream(_ envelope: AddressedEnvelope<ByteBuffer>, flow: Int) {
        guard !isShutDown else { return }
        guard envelope.remoteAddress == upstream else {
            counters.strayDatagrams += 1
            return
        }
        _ = scheduler.submit(Array(envelope.data.readableBytesView), direction: .hostToClient, flow: flow, now: now())
        pump()
    }

    func socketError() { counters.socketErrors += 1 }

    // MARK: flows

    private func openFlow(for client: SocketAddress) -> Int {
        let id = flows.count
        flows.append(Flow(client: client, socket: .binding(pending: [])))
        flowIDs[client] = id
        let bound = self.bound
        let binding = DatagramBootstrap(group: eventLoop)
            .channelOption(.socketOption(.so_rcvbuf), value: RelayCore.receiveBufferBytes)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(UpstreamSideHandler(core: bound, flow: id))
                }
            }
            .bind(host: LoopbackAddress.bindHost(sameFamilyAs: upstream), port: 0)
        bindings.append(binding)
        binding.whenComplete { result in bound.value.flowBound(id, result) }
        return id
    }

    private func flowBound(_ id: Int, _ result: Result<Channel, Error>) {
        guard case .binding(let pending) = flows[id].socket else { return }
        switch result {
        case .success(let channel):
            if isShutDown {
                channel.close(promise: nil)
                flows[id].socket = .failed
                return
            }
            flows[id].socket = .ready(channel)
            for buffer in pending {
                channel.write(AddressedEnvelope(remoteAddress: upstream, data: buffer), promise: nil)
            }
            channel.flush()
        case .failure:
            counters.socketErrors += 1
            flows[id].socket = .failed
        }
    }

    // MARK: delivery

    private func pump() {
        var touched: [Int: Channel] = [:]
        for delivery in scheduler.deliverable(now: now()) {
            let buffer = ByteBuffer(bytes: delivery.datagram)
            switch delivery.direction {
            case .hostToClient:
                guard let listener else { continue }
                listener.write(AddressedEnvelope(remoteAddress: flows[delivery.flow].client, data: buffer), promise: nil)
                touched[-1] = listener
            case .clientToHost:
                switch flows[delivery.flow].socket {
                case .ready(let channel):
                    channel.write(AddressedEnvelope(remoteAddress: upstream, data: buffer), promise: nil)
                    touched[delivery.flow] = channel
                case .binding(var pending):
                    if pending.count < maxPendingPerFlow {
                        pending.append(buffer)
                        flows[delivery.flow].socket = .binding(pending: pending)
                    } else {
                        counters.pendingOverflow += 1
                    }
                case .failed:
                    counters.socketErrors += 1
                }
            }
        }
        for channel in touched.values { channel.flush() }
        rearm()
    }

    private func rearm() {
        let next = scheduler.nextDeadline
        guard next != timerDeadline else { return }
        timer?.cancel()
        timer = nil
        timerDeadline = next
        guard let next else { return }
        let bound = self.bound
        timer = eventLoop.scheduleTask(deadline: .uptimeNanoseconds(UInt64(max(0, next.nanoseconds)))) {
            bound.value.timerFired()
        }
    }

    private func timerFired() {
        timer = nil
        timerDeadline = nil
        pump()
    }

    // MARK: shutdown

    /// Closes every socket and forgets the queue; completes when all sockets are closed.
    func shutdown() -> EventLoopFuture<Void> {
        guard !isShutDown else { return closed.futureResult }
        isShutDown = true
        timer?.cancel()
        timer = nil
        timerDeadline = nil
        counters.discardedOnShutdown += scheduler.discardQueued()
        var closing: [EventLoopFuture<Void>] = []
        if let listener { closing.append(listener.close().recover { _ in }) }
        for binding in bindings {
            // Bound or not, each upstream socket is closed (failed binds count as closed).
            closing.append(binding.flatMap { $0.close() }.recover { _ in })
        }
        EventLoopFuture.andAllComplete(closing, on: eventLoop).cascade(to: closed)
        return closed.futureResult
    }
}
