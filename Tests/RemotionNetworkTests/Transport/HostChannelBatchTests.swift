import NIOCore
import NIOEmbedded
import RemotionProtocol
import RemotionNetwork
import Testing

/// The host takes a wake-up's datagrams (what one recvmmsg returned: NIO's reads up to the
/// read-complete) as one batch. On an EmbeddedChannel: a batch is several channelReads and
/// one channelReadComplete, as NIO's vector read fires them.
@Suite struct HostChannelBatchTests {
    let a = try! SocketAddress(ipAddress: "127.0.0.1", port: 40000)
    let b = try! SocketAddress(ipAddress: "127.0.0.1", port: 40001)
    let sessionA = SessionID(0x0a0a_0001)
    let sessionB = SessionID(0x0b0b_0002)

    func datagram(_ session: SessionID, _ message: Message) -> [UInt8] {
        PlainDatagram(session: session, message: message).encode()
    }

    func motion(_ sequence: UInt32, yaw: Double) -> Message {
        .motion(MotionPacket(sequence: sequence, buttonSequence: 0, sample: MotionSample(
            timestampMicros: UInt64(sequence) * 4000, attitude: Attitude(roll: 0, pitch: 0, yaw: yaw),
            gyro: Vector3(x: 0, y: 0, z: 1))))
    }

    /// Two controllers: opened, a press and its release, motion, one leaves and sends on
    /// after its goodbye (refused: its session is closed by an earlier datagram of the batch).
    var traffic: [(SocketAddress, [UInt8])] {
        [(a, datagram(sessionA, .ping(clientTimeMicros: 1, clockOffsetMicros: 0))),
         (b, datagram(sessionB, .ping(clientTimeMicros: 2, clockOffsetMicros: 0))),
         (a, datagram(sessionA, .buttons([ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 3)]))),
         (a, datagram(sessionA, motion(1, yaw: 0.01))),
         (b, datagram(sessionB, motion(1, yaw: -0.02))),
         (a, datagram(sessionA, motion(2, yaw: 0.03))),
         (a, datagram(sessionA, .buttons([ButtonEvent(sequence: 2, button: .a, isDown: false, timestampMicros: 9)]))),
         (b, datagram(sessionB, .disconnect(.user))),
         (b, datagram(sessionB, motion(2, yaw: -0.04))),
         (a, datagram(sessionA, motion(3, yaw: 0.05)))]
    }

    struct Outcome {
        var actions: [HostAction<SocketAddress>]
        var replies: [String]
        var received: Int
        var drops: DropCounters
        var sessions: Set<SessionID>
    }

    /// `batches`: the datagrams of each wake-up; the host's answers and what its sink saw.
    func run(_ batches: [[(SocketAddress, [UInt8])]]) throws -> Outcome {
        let sink = RecordingSink()
        let handler = HostChannelHandler(configuration: .init(), framing: PlainFraming(), sink: sink)
        let channel = EmbeddedChannel(handler: handler)
        for batch in batches {
            for (from, bytes) in batch {
                channel.pipeline.syncOperations.fireChannelRead(NIOAny(AddressedEnvelope(remoteAddress: from, data: channel.allocator.buffer(bytes: bytes))))
            }
            channel.pipeline.syncOperations.fireChannelReadComplete()
        }
        var replies: [String] = []
        while let envelope = try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self) {
            let message = try envelope.data.withUnsafeReadableBytes { try PlainDatagram.decode($0) }.message
            replies.append("\(envelope.remoteAddress.port ?? 0) \(message)")
        }
        let report = handler.report()
        _ = try channel.finish()
        return Outcome(actions: sink.actions, replies: replies, received: report.datagramsReceived,
                       drops: report.drops, sessions: Set(report.sessions.keys))
    }

    @Test func aBatchOfDatagramsGivesWhatTheSameDatagramsReadOneByOneGive() throws {
        let batched = try run([traffic])
        let single = try run(traffic.map { [$0] })
        #expect(batched.actions == single.actions)
        #expect(batched.replies == single.replies)
        #expect(batched.received == single.received)
        #expect(batched.drops == single.drops)
        #expect(batched.sessions == single.sessions)
        // And the traffic did what it says: both opened, the press released, B gone.
        #expect(batched.actions.contains(.button(sessionA, .a, isDown: true)))
        #expect(batched.actions.contains(.button(sessionA, .a, isDown: false)))
        #expect(batched.actions.contains { if case .sessionClosed(sessionB, _) = $0 { true } else { false } })
        #expect(batched.sessions == [sessionA])
        #expect(batched.received == traffic.count)
    }

    @Test func batchesOfEverySizeGiveTheSameResult() throws {
        let single = try run(traffic.map { [$0] })
        for size in [2, 3, 4, 7] {
            let batches = stride(from: 0, to: traffic.count, by: size).map { Array(traffic[$0..<min($0 + size, traffic.count)]) }
            let batched = try run(batches)
            #expect(batched.actions == single.actions, "batches of \(size)")
            #expect(batched.replies == single.replies, "batches of \(size)")
            #expect(batched.drops == single.drops, "batches of \(size)")
        }
    }

    @Test func aMalformedDatagramInABatchIsCountedAndDroppedAndTheRestArrive() throws {
        var poisoned = traffic
        poisoned.insert((a, [0xff, 0x00, 0x13]), at: 3)                        // garbage
        poisoned.insert((a, Array(datagram(sessionA, motion(9, yaw: 1)).dropLast(5))), at: 5)   // truncated
        poisoned.insert((b, []), at: 8)                                         // empty
        let clean = try run([traffic])
        let batched = try run([poisoned])
        #expect(batched.received == poisoned.count)
        #expect(batched.drops.total == clean.drops.total + 3, "drops: \(batched.drops.summary)")
        #expect(batched.actions == clean.actions)
        #expect(batched.replies == clean.replies)
        #expect(batched.sessions == clean.sessions)
    }

    @Test func aBatchReachesTheSinkWhenItsReadCompletes() throws {
        let sink = RecordingSink()
        let channel = EmbeddedChannel(handler: HostChannelHandler(configuration: .init(), framing: PlainFraming(), sink: sink))
        for (from, bytes) in traffic.prefix(4) {
            channel.pipeline.syncOperations.fireChannelRead(NIOAny(AddressedEnvelope(remoteAddress: from, data: channel.allocator.buffer(bytes: bytes))))
        }
        #expect(sink.actions.isEmpty)
        #expect(try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self) == nil)
        channel.pipeline.syncOperations.fireChannelReadComplete()
        #expect(sink.actions.filter { if case .sessionOpened = $0 { true } else { false } }.count == 2)
        #expect(sink.actions.contains(.button(sessionA, .a, isDown: true)))
        #expect(try channel.readOutbound(as: AddressedEnvelope<ByteBuffer>.self) != nil)
        _ = try channel.finish()
    }
}
