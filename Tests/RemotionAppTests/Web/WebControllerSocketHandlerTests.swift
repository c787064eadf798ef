import Foundation
import NIOCore
import NIOEmbedded
import NIOWebSocket
@testable import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import RemotionTestSupport
import Synchronization
import Testing

/// The phone's WebSocket handler (docs/WEB-CONTROLLER.md) on NIO's testing channel: frames
/// in, the host's commands and the frames written out. The host is `RecordingHost` (it answers
/// when told, later, as the host's loop does); the registry and its store are real. The
/// whole socket over TLS with a real page is scripts/web-controller-test.sh and the
/// WebKit/Chromium stages.
@Suite(.timeLimit(.minutes(1))) struct WebControllerSocketHandlerTests {
    typealias RecordingHost = WebSessionDriverTests.RecordingHost

    /// A paired phone's socket with the handler in the pipeline, behind a counter of reads.
    struct Socket {
        let channel = NIOAsyncTestingChannel()
        let host = RecordingHost()
        let registry: WebDeviceRegistry
        let reads = ReadCounter()
        let id: String, credential: String
        let dir: TemporaryDirectory

        init() async throws {
            dir = try TemporaryDirectory()
            registry = try WebDeviceRegistry(store: WebCredentialStore(directory: dir.url.appendingPathComponent("remotion")))
            let (ticket, request) = try registry.redeem(secret: registry.openPairing(), name: "phone", address: "127.0.0.1")
            _ = registry.decide(code: request.code, id: request.id, accept: true)
            guard case .accepted(let pairing) = try registry.collect(ticket: ticket) else { throw CancellationError() }
            (id, credential) = (pairing.device.id, pairing.credential)
            // Timeouts far past the test: the watchdog must not end the socket here.
            let socket = WebControllerSocket(host: host.controllers, registry: registry, stats: WebControllerStats(),
                                             timeout: .seconds(60), helloTimeout: .seconds(60))
            let channel = self.channel, reads = self.reads
            try await channel.testingEventLoop.executeInContext {
                try channel.pipeline.syncOperations.addHandler(reads)
                try channel.pipeline.syncOperations.addHandler(WebControllerSocketHandler(socket: socket, channel: channel))
            }
            try await channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 9))
        }

        func text(_ s: String) async throws {
            try await channel.writeInbound(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: s)))
        }
        func binary(_ b: [UInt8]) async throws {
            try await channel.writeInbound(WebSocketFrame(fin: true, opcode: .binary, data: ByteBuffer(bytes: b)))
        }
        /// The next frame written to the phone, as text (binary as its first byte's hex).
        func next() async throws -> String {
            let frame = try await channel.waitForOutboundWrite(as: WebSocketFrame.self)
            var data = frame.data
            switch frame.opcode {
            case .text: return data.readString(length: data.readableBytes) ?? ""
            case .binary: return String(format: "binary %02x", data.readableBytesView.first ?? 0)
            case .connectionClose: return "close \(data.readWebSocketErrorCode().map { "\($0)" } ?? "")"
            default: return "\(frame.opcode)"
            }
        }
        func hello() async throws {
            try await text(#"{"type":"hello","v":1,"id":"\#(id)","credential":"\#(credential)"}"#)
            // The welcome says the session's mode: the host is asked, and answers when told.
            await host.calls { !$0.isEmpty }
            #expect(calls() == ["mode"])
            host.calls.withLock { $0 = [] }
            host.answer()
            #expect(try await next().contains(#""type":"welcome""#))
        }
        func calls() -> [String] { host.calls.withLock { $0 } }
        /// The reads that reached the socket, once the loop did what was handed to it.
        func readsSoFar() async throws -> Int {
            try await channel.testingEventLoop.executeInContext {}
            return reads.count.load(ordering: .relaxed)
        }
    }

    /// Counts the reads that reach the socket below the handler.
    final class ReadCounter: ChannelOutboundHandler, Sendable {
        typealias OutboundIn = NIOAny
        let count = Atomic<Int>(0)
        func read(context: ChannelHandlerContext) {
            count.add(1, ordering: .relaxed)
            context.read()
        }
    }

    static func button(_ b: Button, down: Bool) -> [UInt8] { [0x02, b.rawValue, down ? 1 : 0, 0, 0, 0, 0, 0] }
    static func ping() -> [UInt8] {
        var b = [UInt8](repeating: 0, count: 16)
        b[0] = 0x03
        withUnsafeBytes(of: (1_000_000.0 as Double).bitPattern.littleEndian) { b.replaceSubrange(8..<16, with: $0) }
        return b
    }

    @Test func framesBeforeTheHelloInjectNothingAndAForgedHelloEndsTheSocket() async throws {
        let s = try await Socket()
        try await s.binary(Self.button(.a, down: true))
        try await s.text(#"{"type":"hello","v":1,"id":"\#(s.id)","credential":"forged"}"#)
        #expect(try await s.next().contains(#""reason":"unknown""#))
        let closed = try await s.next()
        #expect(closed == "close normalClosure")
        #expect(s.calls().isEmpty, "nothing reached the host")
        try await s.channel.closeFuture.get()
    }

    /// A message that waits for the host's answer holds every later frame, in order, and
    /// the socket reads nothing more until the answer is written.
    @Test func framesBehindACommandWaitForItsAnswerInOrder() async throws {
        let s = try await Socket()
        try await s.hello()
        try await s.text(#"{"type":"command","command":"mode","mode":"pointer"}"#)
        try await s.binary(Self.button(.a, down: true))
        try await s.binary(Self.ping())
        let before = try await s.readsSoFar()
        s.channel.read()
        #expect(s.calls() == ["mode"], "the button waits behind the mode command")
        #expect(try await s.readsSoFar() == before, "no read while a step is in flight")
        s.host.answer()                 // from another thread, as the host's loop answers
        #expect(try await s.next().contains(#""type":"mode""#))
        let pong = try await s.next()
        #expect(pong == "binary 83", "then the ping's pong, in order")
        #expect(s.calls() == ["mode", "button A down", "heard"])
        #expect(try await s.readsSoFar() == before + 1, "the held read goes on")
    }

    /// A phone that does not take what is written is not read (its silence grows until the
    /// watchdog ends it); rumble meanwhile waits, the newest replacing the older.
    @Test func aPhoneThatDoesNotReadIsNotReadAndGetsTheNewestFeedbackAfter() async throws {
        let s = try await Socket()
        try await s.hello()
        s.channel.isWritable = false
        s.channel.pipeline.fireChannelWritabilityChanged()
        let before = try await s.readsSoFar()
        s.channel.read()
        #expect(try await s.readsSoFar() == before)
        let notices = try #require(s.host.noticeSink.withLock { $0 })
        notices(.feedback(ControllerFeedback(rumbleLow: 10, rumbleHigh: 20)))
        notices(.feedback(ControllerFeedback(rumbleLow: 0, rumbleHigh: 0)))
        try await s.channel.testingEventLoop.executeInContext {}   // both reached the loop
        #expect(try await s.channel.readOutbound(as: WebSocketFrame.self) == nil, "nothing written while not writable")
        s.channel.isWritable = true
        s.channel.pipeline.fireChannelWritabilityChanged()
        let rumble = try await s.next()
        #expect(rumble.contains(#""rumble":[0,0]"#), "only the newest rumble is written")
        #expect(try await s.readsSoFar() == before + 1)
    }

    /// Calibrate on the WebSocket: the host is asked, its answer is written, then its progress
    /// notices; while the phone does not read, only the newest progress waits.
    @Test func calibrateIsAnsweredAndItsProgressWrittenNewestFirst() async throws {
        let s = try await Socket()
        try await s.hello()
        try await s.text(#"{"type":"command","command":"calibrate"}"#)
        #expect(s.calls() == ["calibrate"])
        s.host.answer()
        #expect(try await s.next() == #"{"type":"calibration","state":"running","progress":0.0}"#)
        let notices = try #require(s.host.noticeSink.withLock { $0 })
        s.channel.isWritable = false
        s.channel.pipeline.fireChannelWritabilityChanged()
        notices(.calibration(.running(progress: 0.2)))
        notices(.calibration(.running(progress: 0.4)))
        try await s.channel.testingEventLoop.executeInContext {}
        #expect(try await s.channel.readOutbound(as: WebSocketFrame.self) == nil, "nothing written while not writable")
        s.channel.isWritable = true
        s.channel.pipeline.fireChannelWritabilityChanged()
        #expect(try await s.next() == #"{"type":"calibration","state":"running","progress":0.4}"#)
        notices(.calibration(.done))
        #expect(try await s.next() == #"{"type":"calibration","state":"done","progress":1}"#)
    }

    /// The watchdog runs on the socket's loop: a revocation ends the session at its next
    /// look (released first), and the phone is told why before the close frame.
    @Test func aRevokedPhoneIsToldAndReleasedAtTheWatchdogsNextLook() async throws {
        let s = try await Socket()
        try await s.hello()
        try await s.binary(Self.button(.a, down: true))
        _ = try s.registry.store.revoke(s.id)
        try s.registry.reload()
        #expect(s.calls() == ["button A down"], "nothing until the watchdog looks")
        await s.channel.testingEventLoop.advanceTime(by: .milliseconds(100))
        let told = try await s.next()
        #expect(told.contains(#""reason":"revoked""#))
        let closed = try await s.next()
        #expect(closed == "close normalClosure")
        #expect(s.calls() == ["button A down", "button A up", "close revoked"], "released, then closed")
    }

    /// The page's close frame ends the session once (the host releases what it held) and
    /// the socket answers with a close frame of its own.
    @Test func aCloseFromThePageEndsTheSessionOnce() async throws {
        let s = try await Socket()
        try await s.hello()
        try await s.binary(Self.button(.a, down: true))
        try await s.channel.writeInbound(WebSocketFrame(fin: true, opcode: .connectionClose, data: ByteBuffer()))
        let closed = try await s.next()
        #expect(closed == "close normalClosure")
        try await s.channel.closeFuture.get()
        #expect(s.calls() == ["button A down", "button A up", "close client-disconnected:user"], "released, then closed")
    }
}
