import Foundation
import NIOCore
import NIOPosix

/// A client of the host's control socket: one request line out, one response line back.
package final class ControlClient: Sendable {
    private let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    private let reader: Reader

    /// Connects to a running host's socket; throws `ControlSocketError.noHost` when no
    /// host answers there (no file, or a file left by a host that died).
    package static func connect(path: String,
                                group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> ControlClient {
        guard FileManager.default.fileExists(atPath: path) else { throw ControlSocketError.noHost(path) }
        let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: group).connect(unixDomainSocketPath: path) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        } catch {
            throw ControlSocketError.noHost(path)
        }
        return ControlClient(channel: channel)
    }

    /// True when a live host accepts connections on `path`.
    package static func isAnswering(path: String) async -> Bool {
        guard let client = try? await connect(path: path) else { return false }
        await client.close()
        return true
    }

    private init(channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>) {
        self.channel = channel
        reader = Reader(channel.inbound)
    }

    /// Sends one request and waits for its response.
    package func send(_ request: ControlRequest) async throws -> ControlResponse {
        try await channel.outbound.write(ByteBuffer(string: request.line + "\n"))
        guard let line = try await reader.nextLine() else { throw ControlSocketError.broken("closed the connection") }
        guard let response = ControlResponse.parse(line) else { throw ControlSocketError.broken("sent an unreadable answer") }
        return response
    }

    package func close() async {
        channel.outbound.finish()
        try? await channel.channel.close()
    }

    /// Reads lines from the inbound stream; one caller at a time (requests are sequential).
    private actor Reader {
        private var iterator: NIOAsyncChannelInboundStream<ByteBuffer>.AsyncIterator
        private var lines = LineBuffer()

        init(_ inbound: NIOAsyncChannelInboundStream<ByteBuffer>) { iterator = inbound.makeAsyncIterator() }

        func nextLine() async throws -> String? {
            while true {
                if let line = lines.next() { return line }
                var it = iterator
                let buffer = try await it.next(isolation: self)
                iterator = it
                guard let buffer else { return nil }
                guard lines.append(buffer) else { throw ControlSocketError.broken("sent a line that is too long") }
            }
        }
    }
}
