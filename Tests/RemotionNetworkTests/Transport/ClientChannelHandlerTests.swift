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

    /// A client that fell behind its sample clock (a starved machine) skips the slots it
    /// missed instead of re-arming its timer for "now": NIO runs every due task before it
    /// reads a socket again, so a client that could not catch up sent samples forever and
    /// never read the host's answers (a guest under load: 878 samples sent, 1 answer read,
    /// then a timeout). The embedded loop runs each task at its own deadline, so it cannot
    /// fall behind; the rule is tested here, the effect in the gamepad guest stage.
    @Test func theNextSlotIsNeverAtOrBeforeNow() {
        let start = Instant(nanoseconds: 1_000_000_000)
        let rate = 50.0
        // On time: the next slot as counted.
        #expect(ClientChannelHandler<PlainClientFraming>.nextSlot(after: start + .milliseconds(15), start: start, rate: rate, taken: 1) == 1)
        // 5 s behind: the first slot after now (slot 251 is 5.02 s), never one in the past.
        let now = start + .seconds(5)
        let slot = ClientChannelHandler<PlainClientFraming>.nextSlot(after: now, start: start, rate: rate, taken: 2)
        #expect(slot == 251)
        #expect(start + .secondsDouble(Double(slot) / rate) > now)
        // Exactly on a slot's time: that slot is due now, so the next one.
        #expect(ClientChannelHandler<PlainClientFraming>.nextSlot(after: start + .milliseconds(40), start: start, rate: rate, taken: 2) == 3)
    }
}
