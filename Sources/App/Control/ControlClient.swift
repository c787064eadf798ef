import Foundation
import NIOCore
import NIOPosix

/// A client of the host's control socket: one request line out, one response line back.
package final class ControlClient: Sendable {
    private let channel: any Channel
    private let reader: Reader

    /// Connects to a running host's socket; throws `ControlSocketError.noHost` when no
    /// host answers there (no file, or a file left by a host that died).
    package static func connect(path: String,
                                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> ControlClient {
        guard FileManager.default.fileExists(atPath: path) else { throw ControlSocketError.noHost(path) }
        let (lines, continuation) = AsyncStream<String>.makeStream()
        do {
            let channel = try await ClientBootstrap(group: group)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(LineReader(continuation: continuation))
                    }
                }
                .connect(unixDomainSocketPath: path).get()
            return ControlClient(channel: channel, lines: lines)
        } catch {
            continuation.finish()
            throw ControlSocketError.noHost(path)
        }
    }

    /// True when a live host accepts connections on `path`.
    package static func isAnswering(path: String) async -> Bool {
        guard let client = try? await connect(path: path) else { return false }
        await client.close()
        return true
    }

    private init(channel: any Channel, lines: AsyncStream<String>) {
        self.channel = channel
        reader = Reader(lines)
    }

    /// Sends one request and waits for its response.
    package func send(_ request: ControlRequest) async throws -> ControlResponse {
        try await channel.writeAndFlush(ByteBuffer(string: request.line + "\n"))
        guard let line = await reader.next() else { throw ControlSocketError.broken("closed the connection") }
        guard let response = ControlResponse.parse(line) else { throw ControlSocketError.broken("sent an unreadable answer") }
        return response
    }

    package func close() async {
        try? await channel.close()
    }

    /// The response lines, one caller at a time (requests are sequential).
    private actor Reader {
        private var iterator: AsyncStream<String>.Iterator

        init(_ lines: AsyncStream<String>) { iterator = lines.makeAsyncIterator() }

        func next() async -> String? {
            var it = iterator
            let line = await it.next(isolation: self)
            iterator = it
            return line
        }
    }
}

/// Splits what the host sends into lines.
final class LineReader: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private var lines = LineBuffer()
    private let continuation: AsyncStream<String>.Continuation

    init(continuation: AsyncStream<String>.Continuation) { self.continuation = continuation }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard lines.append(unwrapInboundIn(data)) else {
            continuation.finish()
            context.close(promise: nil)
            return
        }
        while let line = lines.next() { continuation.yield(line) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        continuation.finish()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) { context.close(promise: nil) }
}
