import NIOCore
import NIOPosix
import RemotionProtocol

/// A controller connection to one host address: a UDP socket plus its session on one
/// event loop. `events` reports connected / timed out / disconnected / finished.
public final class ClientService<Framing: ClientFraming>: Sendable {
    public let channel: Channel
    public let events: AsyncStream<ClientEvent>
    private let handler: NIOLoopBound<ClientChannelHandler<Framing>>

    public static func start(
        host: SocketAddress,
        sessionID: SessionID,
        configuration: ClientSession.Configuration = .init(),
        plan: StreamPlan,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        makeFraming: @escaping @Sendable () throws -> Framing
    ) async throws -> ClientService {
        let (events, continuation) = AsyncStream.makeStream(of: ClientEvent.self)
        let loop = group.next()
        let handlerPromise = loop.makePromise(of: NIOLoopBound<ClientChannelHandler<Framing>>.self)
        let bootstrap = DatagramBootstrap(group: loop).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let handler = ClientChannelHandler(session: ClientSession(id: sessionID, configuration: configuration),
                                                   framing: try makeFraming(), host: host, plan: plan,
                                                   events: continuation)
                try channel.pipeline.syncOperations.addHandler(handler)
                handlerPromise.succeed(NIOLoopBound(handler, eventLoop: channel.eventLoop))
            }
        }
        let bindHost = host.protocol == .inet6 ? "::" : "0.0.0.0"
        let channel: Channel
        do {
            channel = try await bootstrap.bind(host: bindHost, port: 0).get()
        } catch {
            handlerPromise.fail(error)
            throw error
        }
        let handler = try await handlerPromise.futureResult.get()
        let service = ClientService(channel: channel, events: events, handler: handler)
        try await channel.eventLoop.submit { handler.value.start() }.get()
        return service
    }

    private init(channel: Channel, events: AsyncStream<ClientEvent>, handler: NIOLoopBound<ClientChannelHandler<Framing>>) {
        self.channel = channel
        self.events = events
        self.handler = handler
    }

    /// Says goodbye and stops streaming (the socket stays open until `close`).
    public func stop() async {
        let handler = self.handler
        try? await channel.eventLoop.submit { handler.value.stop() }.get()
    }

    public func close() async {
        await stop()
        try? await channel.close()
    }
}
