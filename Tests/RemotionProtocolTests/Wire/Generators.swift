import RemotionProtocol
@testable import RemotionProtocol

/// Random valid messages for the property tests: every field anywhere in its legal
/// range, floats from arbitrary finite bit patterns (including -0 and subnormals).
enum Gen {
    static func finiteDouble(_ g: inout SplitMix64) -> Double {
        while true {
            let d = g.chance(0.5) ? Double(bitPattern: g.next()) : Double.random(in: -4...4, using: &g)
            if d.isFinite { return d }
        }
    }

    static func finiteFloat(_ g: inout SplitMix64) -> Float {
        while true {
            let f = g.chance(0.5) ? Float(bitPattern: UInt32(truncatingIfNeeded: g.next())) : Float.random(in: -40...40, using: &g)
            if f.isFinite { return f }
        }
    }

    static func vector(_ g: inout SplitMix64) -> Vector3 {
        Vector3(x: finiteFloat(&g), y: finiteFloat(&g), z: finiteFloat(&g))
    }

    static func sample(_ g: inout SplitMix64) -> MotionSample {
        MotionSample(
            timestampMicros: g.next(),
            attitude: g.chance(0.6) ? Attitude(roll: finiteDouble(&g), pitch: finiteDouble(&g), yaw: finiteDouble(&g)) : nil,
            gyro: g.chance(0.6) ? vector(&g) : nil,
            acceleration: g.chance(0.5) ? vector(&g) : nil,
            buttons: ButtonSet(rawValue: UInt16(truncatingIfNeeded: g.next())))
    }

    static func buttonEvent(_ g: inout SplitMix64) -> ButtonEvent {
        ButtonEvent(sequence: UInt32(truncatingIfNeeded: g.next()),
                    button: Button.allCases.randomElement(using: &g)!,
                    isDown: g.chance(0.5), timestampMicros: g.next())
    }

    static func message(_ g: inout SplitMix64) -> Message {
        switch Int.random(in: 0..<7, using: &g) {
        case 0: return .ping(clientTimeMicros: g.next(), clockOffsetMicros: Int64(bitPattern: g.next()))
        case 1: return .pong(echoClientTimeMicros: g.next(), hostTimeMicros: g.next())
        case 2: return .buttons((0..<Int.random(in: 1...maxButtonBatch, using: &g)).map { _ in buttonEvent(&g) })
        case 3: return .motion(MotionPacket(sequence: UInt32(truncatingIfNeeded: g.next()),
                                            buttonSequence: UInt32(truncatingIfNeeded: g.next()), sample: sample(&g)))
        case 4: return .ack(Ack(cumulative: UInt32(truncatingIfNeeded: g.next()), selective: g.next()))
        case 5:
            let v = g.next()
            let light = g.chance(0.5) ? ControllerFeedback.Color(red: UInt8(truncatingIfNeeded: v >> 16),
                                                                 green: UInt8(truncatingIfNeeded: v >> 24),
                                                                 blue: UInt8(truncatingIfNeeded: v >> 32)) : nil
            return .feedback(ControllerFeedback(rumbleLow: UInt8(truncatingIfNeeded: v), rumbleHigh: UInt8(truncatingIfNeeded: v >> 8),
                                                lightbar: light))
        default: return .disconnect(DisconnectReason.allCases.randomElement(using: &g)!)
        }
    }

    static func datagram(_ g: inout SplitMix64) -> PlainDatagram {
        PlainDatagram(session: SessionID(UInt32.random(in: 1...UInt32.max, using: &g)), message: message(&g))
    }
}

/// Decodes and, when that succeeds, checks the canonical-encoding property.
/// Returns the typed outcome so callers can tally it.
func decodeCanonically(_ bytes: [UInt8]) -> Result<PlainDatagram, WireError> {
    do throws(WireError) {
        return .success(try PlainDatagram.decode(bytes))
    } catch {
        return .failure(error)
    }
}
