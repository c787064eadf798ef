import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket
import ServiceLifecycle

/// One HTTPS connection of the web controller server (after TLS): HTTP/1 for the page and
/// its API (Hummingbird's router), or — when its first request asks for `/ws` and passes the
/// request guard — the phone's WebSocket, served by `WebControllerSocketHandler` on the
/// connection's own event loop.
///
/// Why not Hummingbird's `HTTP1WebSocketUpgradeChannel`: it hands every frame to an async
/// sequence on the Swift concurrency pool and every reply back through an async writer; a
/// 60 Hz MOTION frame crossed threads three times and that layer was the largest share of a
/// web frame's host CPU (docs/BENCHMARKS.md). Here a MOTION frame is
/// decoded, stepped and acknowledged in one pass on the connection's loop, and reaches the
/// host's loop in one `execute`. The HTTP side is Hummingbird's, unchanged.
struct WebControllerChannel: ServerChildChannel, HTTPChannelHandler {
    /// What a connection became after its first request.
    enum Negotiated: Sendable {
        /// The phone's WebSocket: the handler owns it; `handle` waits for its close.
        case controller
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        /// Asked for a WebSocket and was refused (wrong path, Host or Origin): a 400 and close.
        case refused(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
        let negotiated: EventLoopFuture<Negotiated>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    /// Decides whether a request may become a controller socket (path, Host, Origin).
    let admit: @Sendable (HTTPRequest) -> Bool
    /// Makes the handler for an admitted socket (on the connection's loop).
    let makeHandler: @Sendable (any Channel) -> WebControllerSocketHandler
    var http = HTTP1Channel.Configuration()

    init(responder: @escaping HTTPChannelHandler.Responder, admit: @escaping @Sendable (HTTPRequest) -> Bool,
         makeHandler: @escaping @Sendable (any Channel) -> WebControllerSocketHandler) {
        self.responder = Self.redirectingLateUpgrades(responder)
        self.admit = admit
        self.makeHandler = makeHandler
    }

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let attempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let admit = self.admit, makeHandler = self.makeHandler
            let upgrader = NIOTypedWebSocketServerUpgrader<Negotiated>(
                maxFrameSize: WebControllerSocket.maxFrame,
                shouldUpgrade: { channel, head in
                    attempted.value = true
                    guard let request = try? HTTPRequest(head, secure: true, splitCookie: false), admit(request) else {
                        return channel.eventLoop.makeSucceededFuture(nil)
                    }
                    return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        // A message in fragments is joined (up to the frame limit) before the handler.
                        try channel.pipeline.syncOperations.addHandler(NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: 16,
                            maxAccumulatedFrameSize: WebControllerSocket.maxFrame))
                        try channel.pipeline.syncOperations.addHandler(makeHandler(channel))
                        return .controller
                    }
                })
            let upgrade = NIOTypedHTTPServerUpgradeConfiguration<Negotiated>(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let pipeline = channel.pipeline.syncOperations
                        try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: true))
                        try pipeline.addHandlers(self.http.additionalChannelHandlers())
                        try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: self.http.idleTimeout.map { .init($0) },
                                                                           logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                        return attempted.value ? .refused(http) : .http(http)
                    }
                })
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<Negotiated>(upgradeConfiguration: upgrade)
            configuration.enablePipelining = false          // HTTP is pipelined by NIOAsyncChannel
            configuration.enableErrorHandling = false       // Hummingbird answers errors
            configuration.enableResponseHeaderValidation = false
            let negotiated = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
            return Value(negotiated: negotiated, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        guard let negotiated = try? await value.negotiated.get() else { return }
        switch negotiated {
        case .http(let http):
            await handleHTTP(asyncChannel: http, logger: logger)
        case .refused(let http):
            try? await http.executeThenClose { _, outbound in
                try await outbound.write(contentsOf: [
                    .head(HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])),
                    .end(nil),
                ])
            }
        case .controller:
            // The handler serves the socket; this task only waits, and tells it when the
            // server stops (the session ends as `shutdown`, releasing what it held).
            let channel = value.channel
            await withGracefulShutdownHandler {
                await withTaskCancellationHandler {
                    try? await channel.closeFuture.get()
                } onCancel: { WebControllerSocketHandler.stop(channel) }
            } onGracefulShutdown: { WebControllerSocketHandler.stop(channel) }
        }
    }

    /// NIO upgrades only a connection's first request; a WebSocket asked for later on a
    /// kept-alive connection is sent to a new connection (a redirect to itself, then close),
    /// as Hummingbird's own WebSocket channel does.
    static func redirectingLateUpgrades(_ responder: @escaping HTTPChannelHandler.Responder) -> HTTPChannelHandler.Responder {
        struct Redirected: Error {}
        return { request, writer, channel in
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                try await responder(request, writer, channel)
                return
            }
            var path = request.uri.path
            if let query = request.uri.query { path += "?\(query)" }
            try await writer.writeResponse(HTTPResponse(status: .temporaryRedirect,
                                                        headerFields: [.connection: "close", .location: path]))
            throw Redirected()
        }
    }
}
