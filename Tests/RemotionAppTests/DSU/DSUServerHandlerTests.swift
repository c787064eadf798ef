import NIOCore
import NIOEmbedded
@testable import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import Testing

/// The DSU server's channel handler watching the real host pipeline on one
/// EmbeddedEventLoop: Remotion controllers (plain datagrams into the host's handler)
/// come out as DSU pad data to subscribed DSU clients.
@Suite struct DSUServerHandlerTests {
    let emulator = try! SocketAddress(ipAddress: "127.0.0.1", port: 5000)
    let controller = try! SocketAddress(ipAddress: "127.0.0.1", port: 40000)

    func fromController(_ id: UInt32, _ message: Message, _ rig: DSURig, port: Int = 40000) throws {
        let from = try SocketAddress(ipAddress: "127.0.0.1", port: port)
        try rig.hostChannel.receive(PlainDatagram(session: SessionID(id), message: message).encode(), from: from)
    }

    func request(_ m: DSUMessage) -> [UInt8] { DSUCodec.encode(DSUPacket(senderID: 9, message: m)) }

    func pads(_ channel: EmbeddedChannel) throws -> [DSUPadData] {
        try channel.sentDatagrams().compactMap { to, bytes in
            #expect(to == emulator)
            if case .padData(let p) = try DSUCodec.decode(bytes).message { return p }
            return nil
        }
    }

    func motion(_ seq: UInt32, micros: UInt64, attitude: Attitude? = nil, gyro: Vector3? = nil) -> Message {
        .motion(MotionPacket(sequence: seq, buttonSequence: 0,
                             sample: MotionSample(timestampMicros: micros, attitude: attitude, gyro: gyro)))
    }

    @Test func versionAndPortInfoAreAnsweredAndSlotsFillInConnectOrder() throws {
        let rig = DSURig()
        let (_, server) = try rig.addServer()
        try server.receive(request(.versionRequest), from: emulator)
        try server.receive(request(.portInfoRequest(slots: [0, 1])), from: emulator)
        let before = try server.sentDatagrams().map { try DSUCodec.decode($0.1).message }
        #expect(before == [.versionReply(1001), .portInfo(.empty(slot: 0)), .portInfo(.empty(slot: 1))])
        try fromController(1, .ping(clientTimeMicros: 1, clockOffsetMicros: 0), rig)
        try fromController(2, .ping(clientTimeMicros: 1, clockOffsetMicros: 0), rig, port: 40001)
        try server.receive(request(.portInfoRequest(slots: [0, 1, 2])), from: emulator)
        let states = try server.sentDatagrams().map { d -> DSUSlotState in
            guard case .portInfo(let info) = try DSUCodec.decode(d.1).message else { return DSUSlotState(rawValue: 99) }
            return info.state
        }
        #expect(states == [.connected, .connected, .disconnected])
    }

    @Test func aControllersMotionIsServedAsGyroAndAccelerometer() throws {
        let rig = DSURig()
        let (_, server) = try rig.addServer()
        try server.receive(request(.padDataRequest(.allPads)), from: emulator)
        try fromController(1, .ping(clientTimeMicros: 1, clockOffsetMicros: 0), rig)
        let attitude = Attitude(roll: 0, pitch: 0.3, yaw: 0.1)
        try fromController(1, motion(1, micros: 1_000_000, attitude: attitude, gyro: Vector3(x: 0.5, y: 0, z: 1)), rig)
        try fromController(1, motion(2, micros: 1_010_000, attitude: attitude, gyro: Vector3(x: 0.5, y: 0, z: 1)), rig)
        let got = try pads(server)
        #expect(got.map(\.packetCounter) == [1, 2])
        // Served on the host's clock (SampleTimeline): the first anchored at the loop's now (0),
        // the next by the controller's own 10 ms step.
        #expect(got.map(\.motionTimestampMicros) == [0, 10_000])
        let p = try #require(got.first)
        #expect(p.info.slot == 0 && p.info.state == .connected && p.isConnected)
        #expect(abs(p.gyro.pitch - Float(0.5 * 180 / Double.pi)) < 1e-4)      // tilting up
        #expect(abs(p.gyro.yaw + Float(180 / Double.pi)) < 1e-4)              // turning left = negative yaw
        #expect(p.gyro.roll == 0)
        // No accelerometer: gravity at the attitude, pitched up 0.3 rad, in DSU's frame.
        #expect(abs(p.accel.x) < 1e-6)
        #expect(abs(p.accel.y + 0.955_336_489) < 1e-6)                         // −cos 0.3
        #expect(abs(p.accel.z - 0.295_520_207) < 1e-6)                         // sin 0.3
    }

    @Test func aButtonEdgeGoesOutAtOnceWithTheLatestMotion() throws {
        let rig = DSURig()
        let (_, server) = try rig.addServer()
        try server.receive(request(.padDataRequest(.slot(0))), from: emulator)
        try fromController(1, .ping(clientTimeMicros: 1, clockOffsetMicros: 0), rig)
        try fromController(1, motion(1, micros: 500, gyro: .zero), rig)
        try fromController(1, .buttons([ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 600)]), rig)
        try fromController(1, .buttons([ButtonEvent(sequence: 2, button: .a, isDown: false, timestampMicros: 700)]), rig)
        let got = try pads(server)
        #expect(got.map { $0.buttons.contains(.cross) } == [false, true, false])
        #expect(got.map(\.motionTimestampMicros) == [0, 0, 0], "the motion's time on the host's clock, for every edge")
        #expect(got[1].analog.cross == 255)
    }

    @Test func subscriptionsLiveFiveSecondsAfterTheLatestRequest() throws {
        let rig = DSURig(timeout: .seconds(10))
        let (_, server) = try rig.addServer()
        try server.receive(request(.padDataRequest(.allPads)), from: emulator)
        try fromController(1, .ping(clientTimeMicros: 1, clockOffsetMicros: 0), rig)
        rig.advance(by: .milliseconds(4999))
        try fromController(1, motion(1, micros: 1, gyro: .zero), rig)
        #expect(try pads(server).count == 1)
        rig.advance(by: .milliseconds(1))
        try fromController(1, motion(2, micros: 2, gyro: .zero), rig)
        #expect(try pads(server).isEmpty)
    }

    @Test func aFifthControllerWaitsAndALeavingOneFreesItsSlot() throws {
        let rig = DSURig()
        let (handler, server) = try rig.addServer()
        for i in 1...5 { try fromController(UInt32(i), .ping(clientTimeMicros: 1, clockOffsetMicros: 0), rig, port: 40000 + i) }
        #expect((1...5).map { handler.slot(of: SessionID(UInt32($0))) } == [0, 1, 2, 3, nil])
        #expect(handler.unserved == 1)
        try fromController(2, .disconnect(.user), rig, port: 40002)
        #expect(handler.slot(of: SessionID(2)) == nil)
        try fromController(6, .ping(clientTimeMicros: 1, clockOffsetMicros: 0), rig, port: 40006)
        #expect(handler.slot(of: SessionID(6)) == 1)
        _ = try server.sentDatagrams()
    }

    @Test func malformedRequestsAreCountedByReasonAndTheServerGoesOn() throws {
        let rig = DSURig()
        let (handler, server) = try rig.addServer()
        let good = request(.versionRequest)
        var badMagic = good; badMagic[3] = UInt8(ascii: "X")
        var badCRC = good; badCRC[8] ^= 0xFF
        var count = request(.portInfoRequest(slots: [0]))
        count[20] = 9                                            // i32 count 9
        for i in 8..<12 { count[i] = 0 }
        let crc = DSUCodec.crc32(count)
        for i in 0..<4 { count[8 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        try server.receiveBatch([badMagic, badCRC, Array(good.prefix(12)), count], from: emulator)
        #expect(handler.dropCounts == [.decode(.badMagic): 1, .decode(.badCRC): 1, .decode(.truncated): 1, .decode(.countOutOfRange): 1])
        #expect(try server.sentDatagrams().isEmpty)
        try server.receive(good, from: emulator)
        #expect(try server.sentDatagrams().count == 1)
        #expect(handler.summary.contains("bad-crc=1 bad-magic=1 count-out-of-range=1 truncated=1"))
    }
}
