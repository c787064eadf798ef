import Testing
import RemotionProtocol
@testable import RemotionProtocol

/// encode → decode gives back the same value, for the header and every message type.
@Suite struct RoundTripTests {
    static let session = SessionID(0x1122_3344)

    static let fullBatch: [ButtonEvent] = (1...32).map { (i: Int) -> ButtonEvent in
        ButtonEvent(sequence: UInt32(i), button: Button(rawValue: UInt8(i % 16))!, isDown: i % 2 == 0, timestampMicros: UInt64(i))
    }
    static let allSensors: MotionSample = {
        let attitude = Attitude(roll: .pi, pitch: -.pi / 2, yaw: -0.0)
        let acceleration = Vector3(x: 0, y: 0, z: 1)
        return MotionSample(timestampMicros: 6, attitude: attitude, gyro: .zero, acceleration: acceleration,
                            buttons: ButtonSet([.a, .p] as [Button]))
    }()
    static let gyroOnly = MotionSample(timestampMicros: 5, gyro: Vector3(x: 1, y: -1, z: .greatestFiniteMagnitude),
                                       buttons: ButtonSet(rawValue: 0xffff))
    static let accelerationOnly = MotionSample(timestampMicros: 5, acceleration: Vector3(x: -0.0, y: .leastNonzeroMagnitude, z: 0))
    static let attitudeOnly = MotionSample(timestampMicros: 5, attitude: .zero)

    static let examples: [Message] = {
        var m: [Message] = []
        m.append(.ping(clientTimeMicros: 0, clockOffsetMicros: 0))
        m.append(.ping(clientTimeMicros: .max, clockOffsetMicros: .min))
        m.append(.pong(echoClientTimeMicros: 1, hostTimeMicros: .max))
        m.append(.buttons([ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 9)]))
        m.append(.buttons(fullBatch))
        m.append(.motion(MotionPacket(sequence: .max, buttonSequence: 0, sample: attitudeOnly)))
        m.append(.motion(MotionPacket(sequence: 1, buttonSequence: 2, sample: gyroOnly)))
        m.append(.motion(MotionPacket(sequence: 1, buttonSequence: 2, sample: accelerationOnly)))
        m.append(.motion(MotionPacket(sequence: 3, buttonSequence: 4, sample: allSensors)))
        m.append(.ack(Ack(cumulative: 0)))
        m.append(.ack(Ack(cumulative: .max, selective: .max)))
        for r in DisconnectReason.allCases { m.append(.disconnect(r)) }
        m.append(.feedback(ControllerFeedback()))
        m.append(.feedback(ControllerFeedback(rumbleLow: 255, rumbleHigh: 1, lightbar: .init(red: 255, green: 255, blue: 255))))
        return m
    }()

    @Test(arguments: examples)
    func messageRoundTrips(_ message: Message) throws {
        let d = PlainDatagram(session: Self.session, message: message)
        let bytes = d.encode()
        #expect(try PlainDatagram.decode(bytes) == d)
        #expect(try MessageCodec.decode(MessageCodec.encode(message)) == message)
        #expect(Array(bytes[datagramHeaderSize...]) == MessageCodec.encode(message))
    }

    @Test func everyMessageTypeIsCovered() {
        #expect(Set(Self.examples.map(\.typeCode)) == Set(MessageType.allCases))
    }

    @Test(arguments: DatagramKind.allCases)
    func headerRoundTrips(_ kind: DatagramKind) throws {
        for id: UInt32 in [1, 0x1122_3344, .max] {
            var w = ByteWriter()
            DatagramHeader(kind: kind, session: SessionID(id)).write(to: &w)
            #expect(w.bytes.count == datagramHeaderSize)
            let decoded = try w.bytes.withUnsafeBytes { buf throws(WireError) in
                var r = ByteReader(buf)
                let h = try DatagramHeader.read(from: &r)
                #expect(r.remaining == 0)
                return h
            }
            #expect(decoded == DatagramHeader(kind: kind, session: SessionID(id)))
        }
    }

    @Test func pingIs25Bytes() throws {
        let d = PlainDatagram(session: SessionID(7), message: .ping(clientTimeMicros: 1, clockOffsetMicros: -2))
        #expect(d.encode().count == 25)
        #expect(try PlainDatagram.decode(d.encode()) == d)
    }

    /// Sizes the docs promise (header included); the largest datagram fits maxDatagramSize.
    @Test func sizes() {
        func size(_ m: Message) -> Int { PlainDatagram(session: Self.session, message: m).encode().count }
        #expect(size(.pong(echoClientTimeMicros: 0, hostTimeMicros: 0)) == 25)
        #expect(size(.ack(Ack(cumulative: 0))) == 21)
        #expect(size(.disconnect(.user)) == 10)
        #expect(size(.feedback(ControllerFeedback())) == 15)
        #expect(size(.buttons([ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 0)])) == 24)
        let full = MotionSample(timestampMicros: 0, attitude: .zero, gyro: .zero, acceleration: .zero)
        #expect(size(.motion(MotionPacket(sequence: 0, buttonSequence: 0, sample: full))) == 76)
        #expect(size(.motion(MotionPacket(sequence: 0, buttonSequence: 0, sample: MotionSample(timestampMicros: 0, attitude: .zero)))) == 52)
        let biggest = (1...32).map { ButtonEvent(sequence: UInt32($0), button: .a, isDown: true, timestampMicros: 0) }
        #expect(size(.buttons(biggest)) == 8 + 2 + 32 * 14)
        #expect(size(.buttons(biggest)) <= maxDatagramSize)
    }

    /// A motion packet that carries only the button state (no sensor block) is
    /// something `ClientSession.motion` sends when the sample has no sensors; the
    /// host must be able to decode what the client encodes.
    @Test func motionWithoutSensorsRoundTrips() throws {
        let m = Message.motion(MotionPacket(sequence: 9, buttonSequence: 4, sample: MotionSample(timestampMicros: 77, buttons: ButtonSet([.b] as [Button]))))
        let d = PlainDatagram(session: Self.session, message: m)
        #expect(try PlainDatagram.decode(d.encode()) == d)
    }

    @Test func ackCoversCumulativeAndSelectiveBits() {
        let a = Ack(cumulative: 10, selective: 0b1001 | (1 << 63))
        #expect(a.covers(1) && a.covers(10))
        #expect(!a.covers(11))          // cumulative + 1 is by definition missing
        #expect(a.covers(12))           // bit 0
        #expect(!a.covers(13) && !a.covers(14))
        #expect(a.covers(15))           // bit 3
        #expect(a.covers(12 + 63))      // bit 63
        #expect(!a.covers(12 + 64))     // beyond the bitmap
        #expect(Ack(cumulative: 0).covers(0))
        #expect(!Ack(cumulative: 0, selective: .max).covers(1))
        #expect(Ack(cumulative: 0, selective: .max).covers(2))
    }
}
