import Foundation
import NIOCore
import NIOPosix
import RemotionHostLogic
import Synchronization

/// Answers one request on one connection. Runs off the host's loop; a handler that
/// needs the host hops there itself (`HostService.onLoop`).
package typealias ControlHandler = @Sendable (ControlRequest, ControlConnection) async -> ControlResponse

/// One client of the control socket. Handlers keep per-connection state by its `id`
/// and register what must happen when the client goes away (a pairing window closes).
package final class ControlConnection: Sendable {
    package let id: Int
    private let cleanups = Mutex<[@Sendable () async -> Void]>([])

    init(id: Int) { self.id = id }

    package func onClose(_ body: @escaping @Sendable () async -> Void) {
        cleanups.withLock { $0.append(body) }
    }

    func closed() async {
        for body in cleanups.withLock({ c in defer { c.removeAll() }; return c }) { await body() }
    }
}

/// The host's local control socket (docs/SECURITY.md §5): a Unix domain socket in the
/// data directory, `control.sock`, mode 0600 in a 0700 directory, so only the user who
/// runs the host (and root) can connect. One JSON object per line each way: a request
/// `{"command":NAME,...}` gets exactly one response `{"ok":true,...}` or
/// `{"ok":false,"error":"..."}`, in order. Commands are registered by name, so other
/// parts of the host (the web controller) can add theirs.
package final class ControlServer: Sendable {
    package static let fileName = "control.sock"

    package let path: String
    private let handlers: [String: ControlHandler]
    private let state = Mutex<(any Channel)?>(nil)
    private let connections = ControlConnections()

    package static func path(dataDirectory: URL) -> String {
        dataDirectory.appendingPathComponent(fileName).path
    }

    package init(path: String, handlers: [String: ControlHandler]) {
        self.path = path
        self.handlers = handlers
    }

    /// Binds the socket and serves until `shutdown`. A socket file left by a host that
    /// died is replaced; one a live host answers on is not (`ControlSocketError.busy`).
    package func start(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws {
        let directory = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        if FileManager.default.fileExists(atPath: path) {
            if await ControlClient.isAnswering(path: path) { throw ControlSocketError.busy(path) }
            try? FileManager.default.removeItem(atPath: path)
        }
        // The directory is 0700, so nobody else can reach the socket even in the moment
        // before its own mode is set to 0600.
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: directory)
        let (handlers, connections) = (self.handlers, self.connections)
        let server = try await ServerBootstrap(group: group)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let id = connections.add(channel)
                    try channel.pipeline.syncOperations.addHandler(
                        ControlConnectionHandler(channel: channel, id: id, handlers: handlers) { connections.remove(id) })
                }
            }
            .bind(unixDomainSocketPath: path).get()
        chmod(path, 0o600)
        state.withLock { $0 = server }
    }

    /// Stops accepting, ends every connection (running their close handlers) and removes the socket file.
    package func shutdown() async {
        guard let server = state.withLock({ s in defer { s = nil }; return s }) else { return }
        try? await server.close()
        for channel in connections.all() { try? await channel.close() }
        unlink(path)
    }
}

/// One connection: lines in (split on the loop), answered one at a time, in order, by a
/// task that runs the handlers and writes each response.
final class ControlConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private var lines = LineBuffer()
    private let continuation: AsyncStream<String>.Continuation

    init(channel: Channel, id: Int, handlers: [String: ControlHandler], onEnd: @escaping @Sendable () -> Void) {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        self.continuation = continuation
        Self.answerLines(stream, channel: channel, connection: ControlConnection(id: id), handlers: handlers, onEnd: onEnd)
    }

    private static func answerLines(_ stream: AsyncStream<String>, channel: any Channel, connection: ControlConnection,
                                    handlers: [String: ControlHandler], onEnd: @escaping @Sendable () -> Void) {
        Task {
            for await line in stream {
                let response = await answer(line, connection: connection, handlers: handlers)
                try? await channel.writeAndFlush(ByteBuffer(string: response.line + "\n"))
            }
            onEnd()
            await connection.closed()
        }
    }

    static func answer(_ line: String, connection: ControlConnection, handlers: [String: ControlHandler]) async -> ControlResponse {
        guard let request = ControlRequest.parse(line) else {
            return .failure("expected one JSON object with a \"command\" per line")
        }
        guard let handler = handlers[request.command] else {
            let known = handlers.keys.sorted().joined(separator: ", ")
            return .failure("unknown command \(EchoedValue.quoted(request.command)); known: \(known)")
        }
        return await handler(request, connection)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard lines.append(unwrapInboundIn(data)) else {
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: ControlResponse.failure("line too long").line + "\n")),
                                  promise: nil)
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

/// The open connections (closed at shutdown), numbered: their ids key per-connection state.
final class ControlConnections: Sendable {
    private let state = Mutex<(next: Int, open: [Int: any Channel])>((1, [:]))

    func add(_ channel: any Channel) -> Int {
        state.withLock { s in
            defer { s.next += 1 }
            s.open[s.next] = channel
            return s.next
        }
    }

    func remove(_ id: Int) { _ = state.withLock { $0.open.removeValue(forKey: id) } }
    func all() -> [any Channel] { state.withLock { Array($0.open.values) } }
}

/// Splits a byte stream into lines (LF, an optional CR before it dropped).
struct LineBuffer {
    private var pending: [UInt8] = []

    /// False when a line grew beyond `ControlLine.maxLength`.
    mutating func append(_ buffer: ByteBuffer) -> Bool {
        pending += buffer.readableBytesView
        return pending.count <= ControlLine.maxLength || pending.contains(UInt8(ascii: "\n"))
    }

    mutating func next() -> String? {
        guard let newline = pending.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        var line = Array(pending[..<newline])
        pending.removeFirst(newline + 1)
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }
}

package enum ControlSocketError: Error, CustomStringConvertible {
    case busy(String)
    case noHost(String)
    case broken(String)

    package var description: String {
        switch self {
        case .busy(let path): "another remotion host already answers on \(path)"
        case .noHost(let path): "no remotion host answers on \(path)"
        case .broken(let why): "the host's control socket \(why)"
        }
    }
}
