import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A plain TCP client for the tests: HTTP/1.1 requests with `Connection: close`, and a
/// minimal WebSocket client (handshake, masked text frames out, unmasked frames in).
enum RawClient {
    static func connect(_ port: Int) async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    struct HTTPResponse {
        var status: Int
        var headers: String
        var body: String
    }

    /// Sends one request and reads the response until the server closes. `host` nil:
    /// `127.0.0.1:PORT`; `headers` are extra lines such as `Origin: http://evil.test`.
    /// `token`: the dashboard's per-start token, sent as `X-Remotion-Token` (writes need it).
    static func request(_ port: Int, _ method: String, _ path: String, token: String? = nil, body: String? = nil,
                        host: String? = nil, contentType: String? = "application/json",
                        headers: [String] = []) async throws -> HTTPResponse {
        let channel = try await connect(port)
        var text = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        if let token { text += "X-Remotion-Token: \(token)\r\n" }
        for line in headers { text += line + "\r\n" }
        if let body {
            if let contentType { text += "Content-Type: \(contentType)\r\n" }
            text += "Content-Length: \(body.utf8.count)\r\n"
        }
        text += "\r\n" + (body ?? "")
        var received = ByteBuffer()
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: text))
            for try await var chunk in inbound { received.writeBuffer(&chunk) }
        }
        let all = String(buffer: received)
        guard let split = all.range(of: "\r\n\r\n") else { return HTTPResponse(status: 0, headers: all, body: "") }
        let head = String(all[..<split.lowerBound])
        let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
        return HTTPResponse(status: status, headers: head, body: String(all[split.upperBound...]))
    }

    /// Text messages a WebSocket received so far, in order.
    final class Received: Sendable {
        let messages = Mutex<[String]>([])

        /// Waits (polling, bounded) until `condition` holds for the messages; returns them.
        /// The bound only ends a broken run: a loaded machine holds this task for seconds.
        func wait(seconds: Double = 30, until condition: ([String]) -> Bool) async throws -> [String] {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < deadline {
                let now = messages.withLock { $0 }
                if condition(now) { return now }
                try await Task.sleep(for: .milliseconds(10))
            }
            return messages.withLock { $0 }
        }
    }

    /// Opens a WebSocket to /ws, runs `body` with what it receives and a way to send,
    /// then closes it. With `reading: false` it never reads (a stuck browser).
    /// `token`: the dashboard's per-start token, on the URL as the page sends it.
    static func withWebSocket(_ port: Int, token: String? = nil, reading: Bool = true, origin: String? = nil,
                              _ body: (Received, _ send: (String) async throws -> Void) async throws -> Void) async throws {
        let channel = try await connect(port)
        let received = Received()
        try await channel.executeThenClose { inbound, outbound in
            let key = Data((0..<16).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            let originLine = origin.map { "Origin: \($0)\r\n" } ?? ""
            try await outbound.write(ByteBuffer(string: "GET /ws\(token.map { "?token=" + $0 } ?? "") HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n" + originLine + "\r\n"))
            try await withThrowingTaskGroup(of: Void.self) { group in
                if reading {
                    group.addTask {
                        var parser = FrameParser()
                        for try await chunk in inbound {
                            let texts = parser.feed(chunk)
                            if !texts.isEmpty { received.messages.withLock { $0 += texts } }
                        }
                    }
                }
                try await body(received) { text in try await outbound.write(maskedTextFrame(text)) }
                group.cancelAll()
            }
        }
    }

    static func maskedTextFrame(_ text: String) -> ByteBuffer {
        let payload = Array(text.utf8)
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        var frame = ByteBuffer()
        frame.writeInteger(UInt8(0x81))
        if payload.count < 126 {
            frame.writeInteger(UInt8(0x80 | payload.count))
        } else {
            frame.writeInteger(UInt8(0x80 | 126))
            frame.writeInteger(UInt16(payload.count))
        }
        frame.writeBytes(mask)
        frame.writeBytes(payload.enumerated().map { $0.element ^ mask[$0.offset % 4] })
        return frame
    }
}

/// Splits the server's byte stream into the HTTP 101 head and unmasked text frames.
struct FrameParser {
    private var buffer = ByteBuffer()
    private var upgraded = false
    private(set) var status = ""

    mutating func feed(_ chunk: ByteBuffer) -> [String] {
        var chunk = chunk
        buffer.writeBuffer(&chunk)
        if !upgraded {
            let view = String(buffer: buffer)
            guard let end = view.range(of: "\r\n\r\n") else { return [] }
            status = String(view[..<end.lowerBound])
            buffer.moveReaderIndex(forwardBy: view[..<end.upperBound].utf8.count)
            upgraded = true
        }
        var texts: [String] = []
        while let text = nextFrame() { if !text.isEmpty { texts.append(text) } }
        buffer.discardReadBytes()
        return texts
    }

    /// One complete frame's text (non-text frames give ""), or nil when incomplete.
    private mutating func nextFrame() -> String? {
        let start = buffer.readerIndex
        guard let b0 = buffer.readInteger(as: UInt8.self), let b1 = buffer.readInteger(as: UInt8.self) else {
            buffer.moveReaderIndex(to: start); return nil
        }
        var length = Int(b1 & 0x7f)
        if length == 126 {
            guard let l = buffer.readInteger(as: UInt16.self) else { buffer.moveReaderIndex(to: start); return nil }
            length = Int(l)
        } else if length == 127 {
            guard let l = buffer.readInteger(as: UInt64.self) else { buffer.moveReaderIndex(to: start); return nil }
            length = Int(l)
        }
        guard let payload = buffer.readSlice(length: length) else { buffer.moveReaderIndex(to: start); return nil }
        return b0 & 0x0f == 1 ? String(buffer: payload) : ""
    }
}
