import NIOCore
import NIOEmbedded
import RemotionProtocol
import RemotionNetwork
import Testing

/// The host's channel handler on an EmbeddedChannel: datagrams in, datagrams out, and
/// the loop's virtual time (advanceTime) drives the session timeout. No sockets, no sleeps.
@Suite struct HostChannelHandlerTests {
    let client = try! SocketAddress(ipAddress: "127.0.0.1", port: 40000)
    let session = SessionID(0x1a2b_3c4d)

    func makeChannel() throws -> (EmbeddedChannel, RecordingSink) {
        let sink = RecordingSink()
        let handler = HostChannelHandler(configuration: .init(), framing: PlainFraming(), sink: sink)
        let channel = EmbeddedChannel(handler: handler)
        return (channel, sink)
    }

    func send(_ message: Message, on channel: EmbeddedChannel) throws {
        let bytes = PlainDatagram(session: session, message: message).encode()
        try channel.writeInbound(AddressedEnvelope(remoteAddress: client, data: channel.allocator.buffer(bytes: bytes)))
        channel.pipeline.fireChannelReadComplete()
    }

    func replies(on channel: EmbeddedChannel) throws -> [Message] {
        var out: [Message] = []
        while let envelope = try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self) {
            #expect(envelope.remoteAddress == client)
            out.append(try envelope.data.withUnsafeReadableBytes { try PlainDatagram.decode($0) }.message)
        }
        return out
    }

    @Test func pingOpensASessionAndIsAnsweredWithAPongStampedWithTheLoopsTime() throws {
        let (channel, sink) = try makeChannel()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1234))
        try send(.ping(clientTimeMicros: 77, clockOffsetMicros: 0), on: channel)
        let out = try replies(on: channel)
        #expect(out == [.pong(echoClientTimeMicros: 77, hostTimeMicros: 1_234_000)])
        #expect(sink.actions.first == .sessionOpened(session, .udp(client)))
        _ = try channel.finish()
    }

    @Test func silenceForTheTimeoutClosesTheSessionAndReleasesItsButtons() throws {
        let (channel, sink) = try makeChannel()
        try send(.ping(clientTimeMicros: 1, clockOffsetMicros: 0), on: channel)
        try send(.buttons([ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 2)]), on: channel)
        #expect(try replies(on: channel).contains { if case .ack = $0 { true } else { false } })
        #expect(sink.actions.contains(.button(session, .a, isDown: true)))

        channel.embeddedEventLoop.advanceTime(by: .milliseconds(2499))
        #expect(!sink.actions.contains { if case .sessionClosed = $0 { true } else { false } })
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1))
        let tail = Array(sink.actions.suffix(2))
        #expect(tail == [.button(session, .a, isDown: false), .sessionClosed(session, .timedOut)])
        _ = try channel.finish()
    }

    @Test func trafficKeepsTheSessionAliveAcrossVirtualTime() throws {
        let (channel, sink) = try makeChannel()
        try send(.ping(clientTimeMicros: 1, clockOffsetMicros: 0), on: channel)
        for i in 1...20 {
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(500))
            try send(.ping(clientTimeMicros: UInt64(i), clockOffsetMicros: 0), on: channel)
        }
        #expect(!sink.actions.contains { if case .sessionClosed = $0 { true } else { false } })
        #expect(try replies(on: channel).count == 21)
        _ = try channel.finish()
    }

    @Test func shutdownSaysGoodbyeAndReleases() throws {
        let sink = RecordingSink()
        let handler = HostChannelHandler(configuration: .init(), framing: PlainFraming(), sink: sink)
        let channel = EmbeddedChannel(handler: handler)
        try send(.ping(clientTimeMicros: 1, clockOffsetMicros: 0), on: channel)
        try send(.buttons([ButtonEvent(sequence: 1, button: .c, isDown: true, timestampMicros: 2)]), on: channel)
        _ = try replies(on: channel)
        handler.shutdown()
        #expect(try replies(on: channel) == [.disconnect(.shutdown)])
        #expect(sink.actions.suffix(2) == [.button(session, .c, isDown: false), .sessionClosed(session, .hostShutdown)])
        #expect(sink.shutDown)
        _ = try channel.finish()
    }

    /// A sink with no status reader: the handler still looks in every report interval (the
    /// session stays alive, a stall is still told from silence) but takes no report for it.
    @Test func aSinkThatWantsNoReportIsHandedNoneWhileTheTicksGoOn() throws {
        let sink = ReportCountingSink()
        let channel = EmbeddedChannel(handler: HostChannelHandler(configuration: .init(), framing: PlainFraming(), sink: sink))
        try send(.ping(clientTimeMicros: 1, clockOffsetMicros: 0), on: channel)
        for i in 1...30 {
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(100))
            try send(.ping(clientTimeMicros: UInt64(i), clockOffsetMicros: 0), on: channel)
        }
        #expect(sink.reports == 0 && sink.ticks >= 30, "\(sink.reports) reports, \(sink.ticks) ticks")
        sink.wants = true
        for _ in 1...5 { channel.embeddedEventLoop.advanceTime(by: .milliseconds(100)) }
        #expect(sink.reports == 5, "one report per interval once wanted")
        _ = try channel.finish()
    }
}

/// Counts the reports and ticks it is handed; wants reports only when told.
final class ReportCountingSink: HostEventSink {
    var wants = false
    var reports = 0
    var ticks = 0
    func handle(_ action: HostAction<SocketAddress>, now: Instant) {}
    func shutdown(now: Instant) {}
    var wantsReport: Bool { wants }
    func report(_ report: HostReport, now: Instant) { reports += 1 }
    func tick(now: Instant) { ticks += 1 }
}
