import NIOCore
import NIOEmbedded
import RemotionProtocol
import RemotionNetwork
import Testing

/// The client's channel handler on an EmbeddedChannel, driven by virtual time.
@Suite struct ClientChannelHandlerTests {
    let host = try! SocketAddress(ipAddress: "127.0.0.1", port: 7474)
    let session = SessionID(0x0bad_cafe)

    func make() -> (EmbeddedChannel, ClientChannelHandler<PlainClientFraming>, AsyncStream<ClientEvent>) {
        let (events, continuation) = AsyncStream.makeStream(of: ClientEvent.self)
        let plan = StreamPlan(source: SyntheticMotion(shape: .circle), rate: 100, duration: 1, presses: PressScript(presses: []))
        let handler = ClientChannelHandler(session: ClientSession(id: session), framing: PlainClientFraming(),
                                           host: host, plan: plan, events: continuation)
        return (EmbeddedChannel(handler: handler), handler, events)
    }

    func sent(_ channel: EmbeddedChannel) throws -> [Message] {
        var out: [Message] = []
        while let e = try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self) {
            out.append(try e.data.withUnsafeReadableBytes { try PlainDatagram.decode($0) }.message)
        }
        return out
    }

    @Test func connectingPingsUntilTheTimeoutThenReportsTimedOut() async throws {
        let (channel, handler, events) = make()
        handler.start()
        let first = try sent(channel)
        #expect(first.count == 1)
        if case .ping = first.first {} else { Issue.record("first datagram is not a ping: \(first)") }
        // Nobody answers: the client keeps probing, then gives up at the timeout (2.5 s).
        for _ in 0..<25 { channel.embeddedEventLoop.advanceTime(by: .milliseconds(100)) }
        let probes = try sent(channel).filter { if case .ping = $0 { true } else { false } }
        #expect(probes.count >= 2, "the connecting client re-sends its ping")
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .timedOut)
        _ = try? channel.finish()
    }

    @Test func aPongConnectsAndStreamingStartsOnTheLoopsClock() async throws {
        let (channel, handler, events) = make()
        handler.start()
        _ = try sent(channel)
        let pong = PlainDatagram(session: session, message: .pong(echoClientTimeMicros: 0, hostTimeMicros: 0)).encode()
        try channel.writeInbound(AddressedEnvelope(remoteAddress: host, data: channel.allocator.buffer(bytes: pong)))
        channel.pipeline.fireChannelReadComplete()
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .connected)
        // 100 Hz for 0.5 s of virtual time: about 50 motion datagrams, no sleeping.
        for _ in 0..<50 { channel.embeddedEventLoop.advanceTime(by: .milliseconds(10)) }
        let motion = try sent(channel).filter { if case .motion = $0 { true } else { false } }
        #expect((45...52).contains(motion.count), "motion datagrams: \(motion.count)")
        _ = try? channel.finish()
    }
}
