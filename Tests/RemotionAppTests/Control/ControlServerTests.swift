import Foundation
import RemotionApp
import RemotionTestSupport
import Synchronization
import Testing

/// The host's control socket: one JSON line each way, a 0600 socket in a 0700 directory.
@Suite(.serialized) struct ControlServerTests {
    static func directory() -> URL {
        // Short: a Unix socket path holds at most 107 bytes.
        URL(fileURLWithPath: "/tmp/rc-\(UInt32.random(in: 0...UInt32.max))")
    }

    static let echo: [String: ControlHandler] = [
        "echo": { request, connection in .success(["said": .string(request.string("text") ?? ""),
                                                   "connection": .number(Double(connection.id))]) },
    ]

    @Test func answersOneLinePerRequestInOrder() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = ControlServer(path: ControlServer.path(dataDirectory: dir), handlers: Self.echo)
        try await server.start()
        let client = try await ControlClient.connect(path: server.path)
        let first = try await client.send(ControlRequest("echo", ["text": .string("one")]))
        let second = try await client.send(ControlRequest("echo", ["text": .string("two\nlines")]))
        #expect(first.ok && first.string("said") == "one")
        #expect(second.string("said") == "two\nlines")
        #expect(first.number("connection") == second.number("connection"))
        let unknown = try await client.send(ControlRequest("nope"))
        #expect(!unknown.ok)
        #expect(unknown.error?.contains("unknown command \"nope\"; known: echo") == true)
        await client.close()
        await server.shutdown()
        #expect(!FileManager.default.fileExists(atPath: server.path), "the socket file is removed on shutdown")
    }

    @Test func socketIs0600InA0700Directory() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let server = ControlServer(path: ControlServer.path(dataDirectory: dir), handlers: Self.echo)
        try await server.start()
        let socketMode = try FileManager.default.attributesOfItem(atPath: server.path)[.posixPermissions] as? Int
        let dirMode = try FileManager.default.attributesOfItem(atPath: dir.path)[.posixPermissions] as? Int
        #expect(socketMode.map { $0 & 0o777 } == 0o600)
        #expect(dirMode.map { $0 & 0o777 } == 0o700)
        await server.shutdown()
    }

    @Test func badLinesGetAnErrorAndTheConnectionGoesOn() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let server = ControlServer(path: ControlServer.path(dataDirectory: dir), handlers: Self.echo)
        try await server.start()
        #expect(ControlRequest.parse("not json") == nil)
        #expect(ControlRequest.parse("{\"seconds\":1}") == nil)
        #expect(ControlRequest.parse("{\"command\":\"pair-window\",\"seconds\":120}")
                == ControlRequest("pair-window", ["seconds": .number(120)]))
        let client = try await ControlClient.connect(path: server.path)
        #expect(try await client.send(ControlRequest("echo")).ok)
        await client.close()
        await server.shutdown()
    }

    @Test func aStaleSocketFileIsReplacedButALiveOneIsNot() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = ControlServer.path(dataDirectory: dir)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: nil)   // left by a host that died
        let server = ControlServer(path: path, handlers: Self.echo)
        try await server.start()
        await #expect(throws: ControlSocketError.self) {
            try await ControlServer(path: path, handlers: [:]).start()
        }
        #expect(await ControlClient.isAnswering(path: path), "the first server still serves")
        await server.shutdown()
        #expect(await !ControlClient.isAnswering(path: path))
        await #expect(throws: ControlSocketError.self) { try await ControlClient.connect(path: path) }
    }

    @Test func closingAConnectionRunsItsCloseHandlers() async throws {
        let dir = Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let closed = ClosedFlag()
        let server = ControlServer(path: ControlServer.path(dataDirectory: dir), handlers: [
            "watch": { _, connection in
                connection.onClose { closed.set() }
                return .success()
            },
        ])
        try await server.start()
        let client = try await ControlClient.connect(path: server.path)
        #expect(try await client.send(ControlRequest("watch")).ok)
        #expect(!closed.value)
        await client.close()
        #expect(await eventually(within: .seconds(30)) { closed.value })
        await server.shutdown()
    }
}

final class ClosedFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var value: Bool { flag.withLock { $0 } }
}
