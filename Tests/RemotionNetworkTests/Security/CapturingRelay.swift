import NIOCore
import NIOPosix
import Synchronization

/// A loopback UDP relay that forwards a client's datagrams to the host and the host's
/// answers back, recording every client → host datagram (what a LAN attacker captures).
final class CapturingRelay: Sendable {
    let channel: Channel
    let capture: SharedCapture

    var address: SocketAddress { channel.localAddress! }
    var datagrams: [[UInt8]] { capture.datagrams.withLock { $0 } }

    private init(channel: Channel, capture: SharedCapture) {
        self.channel = channel
        self.capture = capture
    }

    static func start(upstream: SocketAddress) async throws -> CapturingRelay {
        let capture = SharedCapture()
        let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RelayHandler(upstream: upstream, capture: capture))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return CapturingRelay(channel: channel, capture: capture)
    }

    func close() async { try? await channel.close() }
}

final class SharedCapture: Sendable {
    let datagrams = Mutex<[[UInt8]]>([])
}

final class RelayHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>
    let upstream: SocketAddress
    let capture: SharedCapture
    var client: SocketAddress?

    init(upstream: SocketAddress, capture: SharedCapture) {
        self.upstream = upstream
        self.capture = capture
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let target: SocketAddress
        if envelope.remoteAddress == upstream {
            guard let client else { return }
            target = client
        } else {
            client = envelope.remoteAddress
            let bytes = Array(envelope.data.readableBytesView)
            capture.datagrams.withLock { $0.append(bytes) }
            target = upstream
        }
        context.writeAndFlush(wrapOutboundOut(AddressedEnvelope(remoteAddress: target, data: envelope.data)), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {}
}
