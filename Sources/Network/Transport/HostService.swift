import NIOCore
import NIOPosix
import RemotionProtocol

/// A bound UDP socket serving controllers: a peer of the host's loop driver, on the
/// driver's loop. Its state lives on that loop; this object is only a handle to it.
public final class HostService<Framing: HostFraming, Driver: HostDatagramDriver>: Sendable {
    public let channel: Channel
    public let localAddress: SocketAddress
    /// The loop driver this socket is a peer of (made before it): what the other transports
    /// reach on the host's loop without passing through this socket's code.
    public let driver: NIOLoopBound<Driver>
    let handler: NIOLoopBound<HostChannelHandler<Framing, Driver>>

    /// Binds `address` (use "::" for dual-stack IPv4/IPv6, "127.0.0.1" for loopback only)
    /// on the loop of `driver`, which exists already (made before any socket), and starts
    /// serving as its peer. `makeFraming` runs on the loop. The driver's
    /// `maximumControllers`, when it has one, is the wire machine's `maximumSessions`.
    public static func start(
        host: String, port: Int,
        configuration: HostStateMachine<SocketAddress>.Configuration = .init(),
        driver: NIOLoopBound<Driver>,
        makeFraming: @escaping @Sendable () throws -> Framing
    ) async throws -> HostService {
        let loop = driver.eventLoop
        // The driver's slot count sizes the receive buffer (the handler takes it as its limit).
        var sized = configuration
        if let slots = try await loop.submit({ driver.value.maximumControllers }).get() { sized.maximumSessions = slots }
        let configuration = sized
        let handlerPromise = loop.makePromise(of: NIOLoopBound<HostChannelHandler<Framing, Driver>>.self)
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
                                                     framing: try makeFraming(), driver: driver.value)
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
        return HostService(channel: channel, localAddress: local, driver: driver, handler: handler)
    }

    private init(channel: Channel, localAddress: SocketAddress, driver: NIOLoopBound<Driver>,
                 handler: NIOLoopBound<HostChannelHandler<Framing, Driver>>) {
        self.channel = channel
        self.localAddress = localAddress
        self.driver = driver
        self.handler = handler
    }

    /// Runs `body` on the event loop with the handler (and through it the typed driver).
    public func onLoop<T: Sendable>(_ body: @escaping @Sendable (HostChannelHandler<Framing, Driver>) throws -> T) async throws -> T {
        let handler = self.handler
        return try await channel.eventLoop.submit { try body(handler.value) }.get()
    }

    /// Runs `body` on the host's loop without waiting; calls from one thread run in order.
    public func execute(_ body: @escaping @Sendable (HostChannelHandler<Framing, Driver>) -> Void) {
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

extension HostService {
    /// A host of one's own: a `SinkDriver` around the sink `makeSink` builds (on the loop),
    /// then the socket. `makeFraming` and `makeSink` run on the event loop, so what they build
    /// never crosses threads.
    public static func start<Sink: HostEventSink>(
        host: String, port: Int,
        configuration: HostStateMachine<SocketAddress>.Configuration = .init(),
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        makeFraming: @escaping @Sendable () throws -> Framing,
        makeSink: @escaping @Sendable () throws -> Sink
    ) async throws -> HostService where Driver == SinkDriver<Sink> {
        let loop = group.next()
        let driver = try await loop.submit { NIOLoopBound(SinkDriver(sink: try makeSink()), eventLoop: loop) }.get()
        return try await start(host: host, port: port, configuration: configuration, driver: driver, makeFraming: makeFraming)
    }
}
