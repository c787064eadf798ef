import RemotionProtocol

/// The seed corpus of the datagram fuzz target (Fuzz/corpus/datagram): one valid
/// plain datagram per message shape, the extremes of each field included.
package enum DatagramSeeds {
    package static var all: [(name: String, bytes: [UInt8])] {
        let s = SessionID(0x1234_5678)
        let full = MotionSample(timestampMicros: 1_700_000_000_000_000,
                                attitude: Attitude(roll: 0.25, pitch: -1.5, yaw: 3.0),
                                gyro: Vector3(x: 0.5, y: -0.25, z: 8), acceleration: Vector3(x: 0, y: -9.81, z: 0.1),
                                buttons: ButtonSet([.a, .c, .p]))
        let batch = (0..<UInt32(maxButtonBatch)).map {
            ButtonEvent(sequence: $0 + 1, button: Button.allCases[Int($0) % Button.allCases.count],
                        isDown: $0 % 2 == 0, timestampMicros: 1000 + UInt64($0))
        }
        let messages: [(String, Message)] = [
            ("ping", .ping(clientTimeMicros: 123_456_789, clockOffsetMicros: -42)),
            ("pong", .pong(echoClientTimeMicros: 123_456_789, hostTimeMicros: 987_654_321)),
            ("buttons-1", .buttons([ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 5)])),
            ("buttons-32", .buttons(batch)),
            ("motion-buttons-only", .motion(MotionPacket(sequence: 7, buttonSequence: 3,
                                                          sample: MotionSample(timestampMicros: 9, buttons: ButtonSet([.b]))))),
            ("motion-attitude", .motion(MotionPacket(sequence: 8, buttonSequence: 0,
                                                      sample: MotionSample(timestampMicros: 10, attitude: full.attitude)))),
            ("motion-gyro", .motion(MotionPacket(sequence: 9, buttonSequence: 0,
                                                  sample: MotionSample(timestampMicros: 11, gyro: full.gyro)))),
            ("motion-full", .motion(MotionPacket(sequence: .max, buttonSequence: .max, sample: full))),
            ("motion-analog", .motion(MotionPacket(sequence: 10, buttonSequence: 0, sample: MotionSample(
                timestampMicros: 12, gyro: full.gyro,
                analog: AnalogState(leftX: 1, leftY: -1, rightX: 0.5, rightY: -0.25, leftTrigger: 1, rightTrigger: 0.5))))),
            ("ack", .ack(Ack(cumulative: 17, selective: 0b1011))),
            ("disconnect", .disconnect(.timeout)),
        ]
        return messages.map { name, message in
            ("plain-\(name)", PlainDatagram(session: s, message: message).encode())
        }
    }
}
