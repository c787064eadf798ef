import NIOCore
import NIOPosix
import RemotionProtocol

public struct PairingError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// The controller's side of `remotion pair <code>`: runs `PairingClient` over a UDP
/// socket, retransmitting every 0.5 s until the host's user decides or `timeout` passes.
public enum PairingConnector {
    /// Returns the host's static key once the host's user accepted.
    public static func pair(code: PairingCode, staticKey: KeyPair, name: String, timeout: Duration,
                            group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> [UInt8] {
        let address: SocketAddress
        do { address = try AddressParser.parse(code.address) } catch {
            throw PairingError(description: "pairing code address \(error.description)")
        }
        let loop = group.next()
        let done = loop.makePromise(of: PairingClient.Outcome.self)
        let bootstrap = DatagramBootstrap(group: loop).channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                let handler = PairingHandler(client: PairingClient(staticKey: staticKey, code: code, name: name),
                                             host: address, done: done)
                try channel.pipeline.syncOperations.addHandler(handler)
            }
        }
        let channel = try await bootstrap.bind(host: address.protocol == .inet6 ? "::" : "0.0.0.0", port: 0).get()
        let deadline = loop.scheduleTask(in: .nanoseconds(timeout.nanoseconds)) {
            done.fail(PairingError(description: "no answer from the host within \(timeout.secondsDouble) s (is `remotion pair --listen` running and the code current?)"))
        }
        defer { deadline.cancel() }
        let outcome: PairingClient.Outcome
        do { outcome = try await done.futureResult.get() } catch {
            try? await channel.close()
            throw error
        }
        try? await channel.close()
        switch outcome {
        case let .accepted(hostKey): return hostKey
        case .refused: throw PairingError(description: "the host's user refused the pairing")
        }
    }
}

final class PairingHandler: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>
    private var client: PairingClient
    private let host: SocketAddress
    private let done: EventLoopPromise<PairingClient.Outcome>
    private var random = SecureRandom()
    private var timer: RepeatedTask?

    init(client: PairingClient, host: SocketAddress, done: EventLoopPromise<PairingClient.Outcome>) {
        self.client = client
        self.host = host
        self.done = done
    }

    func channelActive(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleRepeatedTask(initialDelay: .zero, delay: .milliseconds(500)) { _ in
            let (handler, context) = loopBound.value
            handler.retransmit(context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) { timer?.cancel() }

    private func retransmit(context: ChannelHandlerContext) {
        if let bytes = client.retransmission(now: MonotonicClock.now(), random: &random) { send(bytes, context: context) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        guard envelope.remoteAddress == host else { return }
        let result = envelope.data.withUnsafeReadableBytes { client.inbound($0, now: MonotonicClock.now(), random: &random) }
        switch result {
        case let .send(bytes): send(bytes, context: context)
        case let .finished(outcome):
            timer?.cancel()
            done.succeed(outcome)
        case .drop: break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {}

    private func send(_ bytes: [UInt8], context: ChannelHandlerContext) {
        let buffer = context.channel.allocator.buffer(bytes: bytes)
        context.writeAndFlush(wrapOutboundOut(AddressedEnvelope(remoteAddress: host, data: buffer)), promise: nil)
    }
}
