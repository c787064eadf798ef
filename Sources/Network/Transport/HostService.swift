import NIOCore
import NIOPosix
import RemotionProtocol

/// A bound UDP socket serving controllers. Its state lives on the channel's event loop;
/// this object is only a handle to it.
public final class HostService<Framing: HostFraming, Sink: HostEventSink>: Sendable {
    public let channel: Channel
    public let localAddress: SocketAddress
    let handler: NIOLoopBound<HostChannelHandler<Framing, Sink>>

    /// Binds `address` (use "::" for dual-stack IPv4/IPv6, "127.0.0.1" for loopback only)
    /// and starts serving. `makeFraming` and `makeSink` run on the event loop, so what
    /// they build never crosses threads.
    public static func start(
        host: String, port: Int,
        configuration: HostStateMachine<SocketAddress>.Configuration = .init(),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        makeFraming: @escaping @Sendable () throws -> Framing,
        makeSink: @escaping @Sendable () throws -> Sink
    ) async throws -> HostService {
        let loop = group.next()
        let handlerPromise = loop.makePromise(of: NIOLoopBound<HostChannelHandler<Framing, Sink>>.self)
        // No SO_REUSEADDR: with it a second process could bind the same UDP port and
        // take the controllers' datagrams (docs/SECURITY.md, "port takeover").
        let bootstrap = DatagramBootstrap(group: loop)
            .channelOption(.datagramVectorReadMessageCount, value: 64)
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 64 * 2048))
            // Sized for the controller budget (ReceiveBuffer): the default 208 KiB overflows at 64 × 250 Hz.
            .channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(ReceiveBuffer.bytes(forSessions: configuration.maximumSessions)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let handler = HostChannelHandler(configuration: configuration,
                                                     framing: try makeFraming(), sink: try makeSink())
                    try channel.pipeline.syncOperations.addHandler(handler)
                    handlerPromise.succeed(NIOLoopBound(handler, eventLoop: channel.eventLoop))
                }
            }
        let channel: Channel
        do {
            channel = try await bootstrap.bind(host: host, port: port).get()
        } catch {
            handlerPromise.fail(error)
            throw error
        }
        let handler = try await handlerPromise.futureResult.get()
        guard let local = channel.localAddress else { throw ChannelError.unknownLocalAddress }
        return HostService(channel: channel, localAddress: local, handler: handler)
    }

    private init(channel: Channel, localAddress: SocketAddress, handler: NIOLoopBound<HostChannelHandler<Framing, Sink>>) {
        self.channel = channel
        self.localAddress = localAddress
        self.handler = handler
    }

    /// Runs `body` on the event loop with the handler (and through it the typed sink).
    public func onLoop<T: Sendable>(_ body: @escaping @Sendable (HostChannelHandler<Framing, Sink>) throws -> T) async throws -> T {
        let handler = self.handler
        return try await channel.eventLoop.submit { try body(handler.value) }.get()
    }

    /// Runs `body` on the host's loop without waiting; calls from one thread run in order.
    public func execute(_ body: @escaping @Sendable (HostChannelHandler<Framing, Sink>) -> Void) {
        let handler = self.handler
        channel.eventLoop.execute { body(handler.value) }
    }

    public func report() async throws -> HostReport {
        try await onLoop { $0.report() }
    }

    /// Graceful stop: disconnect every client, release every held input, close the socket.
    public func shutdown() async {
        _ = try? await onLoop { $0.shutdown() }
        try? await channel.close()
    }

    /// Waits until the socket closes.
    public func closed() async {
        try? await channel.closeFuture.get()
    }
}
