import Foundation
import NIOCore
import NIOPosix
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
    private let state = Mutex<(channel: Channel?, task: Task<Void, Never>?)>((nil, nil))
    private let connections = ConnectionCounter()

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
        let server = try await ServerBootstrap(group: group).bind(unixDomainSocketPath: path) { channel in
            channel.eventLoop.makeCompletedFuture {
                try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
            }
        }
        chmod(path, 0o600)
        let task = Task { [handlers, connections] in
            _ = try? await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { inbound in
                    for try await connection in inbound {
                        let id = connections.next()
                        group.addTask { await Self.serve(connection, id: id, handlers: handlers) }
                    }
                }
            }
        }
        state.withLock { $0 = (server.channel, task) }
    }

    /// Stops accepting, ends every connection (running their close handlers) and removes the socket file.
    package func shutdown() async {
        let (channel, task) = state.withLock { s in defer { s = (nil, nil) }; return s }
        try? await channel?.close()
        task?.cancel()
        await task?.value
        if channel != nil { unlink(path) }
    }

    private static func serve(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, id: Int,
                              handlers: [String: ControlHandler]) async {
        let connection = ControlConnection(id: id)
        try? await channel.executeThenClose { inbound, outbound in
            var lines = LineBuffer()
            for try await buffer in inbound {
                guard lines.append(buffer) else {
                    try await outbound.write(ByteBuffer(string: ControlResponse.failure("line too long").line + "\n"))
                    return
                }
                while let line = lines.next() {
                    let response: ControlResponse
                    if let request = ControlRequest.parse(line) {
                        if let handler = handlers[request.command] {
                            response = await handler(request, connection)
                        } else {
                            let known = handlers.keys.sorted().joined(separator: ", ")
                            response = .failure("unknown command \"\(request.command.prefix(40))\"; known: \(known)")
                        }
                    } else {
                        response = .failure("expected one JSON object with a \"command\" per line")
                    }
                    try await outbound.write(ByteBuffer(string: response.line + "\n"))
                }
            }
        }
        await connection.closed()
    }
}

/// Numbers connections (their ids key per-connection state in handlers).
final class ConnectionCounter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.add(1, ordering: .relaxed).newValue }
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
