import Testing
import RemotionProtocol
@testable import RemotionProtocol

/// Exact byte layouts. These hex strings are the ones printed in docs/PROTOCOL.md:
/// if one changes, the document must change with it.
@Suite struct GoldenTests {
    static let session = SessionID(0x1122_3344)
    static let header = "52 01 01 00 44 33 22 11"

    struct Golden: Sendable, CustomTestStringConvertible {
        var name: String
        var message: Message
        var body: String
        var testDescription: String { name }
    }

    static let goldens: [Golden] = [
        Golden(name: "ping", message: .ping(clientTimeMicros: 0x0102_0304_0506_0708, clockOffsetMicros: -2),
               body: "01 08 07 06 05 04 03 02 01 fe ff ff ff ff ff ff ff"),
        Golden(name: "pong", message: .pong(echoClientTimeMicros: 0x0102_0304_0506_0708, hostTimeMicros: 0x1112_1314_1516_1718),
               body: "02 08 07 06 05 04 03 02 01 18 17 16 15 14 13 12 11"),
        Golden(name: "buttons", message: .buttons([
                   ButtonEvent(sequence: 1, button: .c, isDown: true, timestampMicros: 0x0a0b),
                   ButtonEvent(sequence: 2, button: .c, isDown: false, timestampMicros: 0x0a0c)]),
               body: "03 02" + " 01 00 00 00 02 01 0b 0a 00 00 00 00 00 00" + " 02 00 00 00 02 00 0c 0a 00 00 00 00 00 00"),
        Golden(name: "motion-full", message: .motion(MotionPacket(
                   sequence: 5, buttonSequence: 3,
                   sample: MotionSample(timestampMicros: 1_000_000,
                                        attitude: Attitude(roll: 0.5, pitch: -0.25, yaw: 1.0),
                                        gyro: Vector3(x: 1, y: -2, z: 0.5),
                                        acceleration: Vector3(x: 0, y: 0, z: 1),
                                        buttons: ButtonSet([.a, .c] as [Button])))),
               body: "04 05 00 00 00 03 00 00 00 40 42 0f 00 00 00 00 00 05 00 07"
                   + " 00 00 00 00 00 00 e0 3f  00 00 00 00 00 00 d0 bf  00 00 00 00 00 00 f0 3f"
                   + " 00 00 80 3f  00 00 00 c0  00 00 00 3f"
                   + " 00 00 00 00  00 00 00 00  00 00 80 3f"),
        Golden(name: "motion-gyro-only", message: .motion(MotionPacket(
                   sequence: 0xffff_ffff, buttonSequence: 0,
                   sample: MotionSample(timestampMicros: 1, gyro: Vector3(x: 0.5, y: 0, z: -1), buttons: ButtonSet([.p] as [Button])))),
               body: "04 ff ff ff ff 00 00 00 00 01 00 00 00 00 00 00 00 00 80 02"
                   + " 00 00 00 3f  00 00 00 00  00 00 80 bf"),
        // Sticks and triggers (fields bit 3): exact at the ends and the centre, so they
        // round-trip: left stick full right (32767), up (-32767 = 01 80), right stick centred,
        // L2 released, R2 full (65535).
        Golden(name: "motion-analog", message: .motion(MotionPacket(
                   sequence: 2, buttonSequence: 1,
                   sample: MotionSample(timestampMicros: 1, analog: AnalogState(leftX: 1, leftY: -1, rightTrigger: 1)))),
               body: "04 02 00 00 00 01 00 00 00 01 00 00 00 00 00 00 00 00 00 08"
                   + " ff 7f  01 80  00 00  00 00  00 00  ff ff"),
        Golden(name: "ack", message: .ack(Ack(cumulative: 7, selective: 0b101)),
               body: "05 07 00 00 00 05 00 00 00 00 00 00 00"),
        Golden(name: "disconnect", message: .disconnect(.timeout), body: "06 02"),
        // Host → client: flags (bit 0: a colour follows), heavy motor, light motor, R G B.
        Golden(name: "feedback", message: .feedback(ControllerFeedback(rumbleLow: 255, rumbleHigh: 128,
                                                                      lightbar: .init(red: 0, green: 0x40, blue: 0xff))),
               body: "07 01 ff 80 00 40 ff"),
        Golden(name: "feedback-no-light", message: .feedback(ControllerFeedback(rumbleLow: 0, rumbleHigh: 20)),
               body: "07 00 00 14 00 00 00"),
    ]

    @Test(arguments: goldens)
    func layout(_ g: Golden) throws {
        let encoded = PlainDatagram(session: Self.session, message: g.message).encode()
        #expect(hex(encoded) == hex(bytes(hex: Self.header + g.body)))
        #expect(try PlainDatagram.decode(bytes(hex: Self.header + g.body)).message == g.message)
    }

    @Test func headerLayout() {
        var w = ByteWriter()
        DatagramHeader(kind: .transport, session: SessionID(0xdead_beef)).write(to: &w)
        #expect(hex(w.bytes) == "52 01 05 00 ef be ad de")
    }

    /// The worked ping example of docs/PROTOCOL.md §5.
    @Test func documentedPingExample() throws {
        let d = try PlainDatagram.decode(bytes(hex: "52 01 01 00 2a 00 00 00 01 40 42 0f 00 00 00 00 00 e8 03 00 00 00 00 00 00"))
        #expect(d == PlainDatagram(session: SessionID(42), message: .ping(clientTimeMicros: 1_000_000, clockOffsetMicros: 1000)))
    }

    /// The worked motion example of docs/PROTOCOL.md §5.
    @Test func documentedMotionExample() throws {
        let d = try PlainDatagram.decode(bytes(hex: """
            52 01 01 00 2a 00 00 00 04 0a 00 00 00 02 00 00 00 a0 86 01 00 00 00 00 00 01 00 02
            00 00 80 3f 00 00 00 00 00 00 00 bf
            """))
        let sample = MotionSample(timestampMicros: 100_000, gyro: Vector3(x: 1, y: 0, z: -0.5), buttons: ButtonSet([.a] as [Button]))
        #expect(d == PlainDatagram(session: SessionID(42), message: .motion(MotionPacket(sequence: 10, buttonSequence: 2, sample: sample))))
    }
}
