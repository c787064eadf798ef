
/// Encodes and decodes `Message` bodies (docs/PROTOCOL.md §3 has the byte tables).
public enum MessageCodec {
    /// Bits of the motion packet's `fields` byte.
    static let hasAttitude: UInt8 = 1 << 0
    static let hasGyro: UInt8 = 1 << 1
    static let hasAcceleration: UInt8 = 1 << 2
    /// Sticks and triggers (protocol 1.1): 4 × i16 then 2 × u16. A host older than that
    /// drops such a packet as `invalidFields`; a client sends it only when it has analog input.
    static let hasAnalog: UInt8 = 1 << 3
    static let knownFields: UInt8 = hasAttitude | hasGyro | hasAcceleration | hasAnalog
    /// `feedback`'s flags: the colour bytes are a light the game set.
    static let feedbackHasLightbar: UInt8 = 1 << 0

    /// The analog block's units: each stick axis an Int16 (−32767…32767), each trigger a
    /// UInt16 (0…65535); values out of range (or not finite) are clamped when encoded.
    static func stickUnits(_ v: Float) -> Int16 { Int16((min(max(v.isFinite ? v : 0, -1), 1) * 32767).rounded()) }
    static func triggerUnits(_ v: Float) -> UInt16 { UInt16((min(max(v.isFinite ? v : 0, 0), 1) * 65535).rounded()) }

    public static func encode(_ message: Message, into w: inout ByteWriter) {
        w.u8(message.typeCode.rawValue)
        switch message {
        case let .ping(t, offset):
            w.u64(t); w.i64(offset)
        case let .pong(echo, host):
            w.u64(echo); w.u64(host)
        case let .buttons(events):
            precondition(!events.isEmpty && events.count <= maxButtonBatch, "button batch size")
            w.u8(UInt8(events.count))
            for e in events {
                w.u32(e.sequence); w.u8(e.button.rawValue); w.u8(e.isDown ? 1 : 0); w.u64(e.timestampMicros)
            }
        case let .motion(m):
            w.u32(m.sequence); w.u32(m.buttonSequence); w.u64(m.sample.timestampMicros)
            w.u16(m.sample.buttons.rawValue)
            var fields: UInt8 = 0
            if m.sample.attitude != nil { fields |= hasAttitude }
            if m.sample.gyro != nil { fields |= hasGyro }
            if m.sample.acceleration != nil { fields |= hasAcceleration }
            if m.sample.analog != nil { fields |= hasAnalog }
            w.u8(fields)
            if let a = m.sample.attitude { w.f64(a.roll); w.f64(a.pitch); w.f64(a.yaw) }
            if let g = m.sample.gyro { w.f32(g.x); w.f32(g.y); w.f32(g.z) }
            if let a = m.sample.acceleration { w.f32(a.x); w.f32(a.y); w.f32(a.z) }
            if let a = m.sample.analog {
                for v in [a.leftX, a.leftY, a.rightX, a.rightY] { w.u16(UInt16(bitPattern: stickUnits(v))) }
                w.u16(triggerUnits(a.leftTrigger)); w.u16(triggerUnits(a.rightTrigger))
            }
        case let .ack(a):
            w.u32(a.cumulative); w.u64(a.selective)
        case let .disconnect(reason):
            w.u8(reason.rawValue)
        case let .feedback(f):
            let light = f.lightbar ?? ControllerFeedback.Color(red: 0, green: 0, blue: 0)
            w.u8(f.lightbar == nil ? 0 : feedbackHasLightbar)
            w.u8(f.rumbleLow); w.u8(f.rumbleHigh); w.u8(light.red); w.u8(light.green); w.u8(light.blue)
        }
    }

    public static func encode(_ message: Message) -> [UInt8] {
        var w = ByteWriter()
        encode(message, into: &w)
        return w.bytes
    }

    /// Decodes one message that must fill the rest of the reader exactly.
    public static func decode(from r: inout ByteReader) throws(WireError) -> Message {
        guard let type = MessageType(rawValue: try r.u8()) else { throw .unknownMessageType }
        let message: Message
        switch type {
        case .ping:
            message = .ping(clientTimeMicros: try r.u64(), clockOffsetMicros: try r.i64())
        case .pong:
            message = .pong(echoClientTimeMicros: try r.u64(), hostTimeMicros: try r.u64())
        case .buttons:
            let count = Int(try r.u8())
            guard count >= 1, count <= maxButtonBatch else { throw .invalidBatchCount }
            guard r.remaining == count * 14 else { throw r.remaining < count * 14 ? .truncated : .trailingBytes }
            var events: [ButtonEvent] = []
            events.reserveCapacity(count)
            for _ in 0..<count {
                let seq = try r.u32()
                guard let button = Button(rawValue: try r.u8()) else { throw .invalidButton }
                let state = try r.u8()
                guard state <= 1 else { throw .invalidButtonState }
                events.append(ButtonEvent(sequence: seq, button: button, isDown: state == 1, timestampMicros: try r.u64()))
            }
            message = .buttons(events)
        case .motion:
            let seq = try r.u32()
            let buttonSeq = try r.u32()
            let t = try r.u64()
            let buttons = ButtonSet(rawValue: try r.u16())
            let fields = try r.u8()
            // fields == 0 is legal: a packet that carries only the button state (and
            // the buttonSequence the host repairs from). The encoder emits it for a
            // sample without sensors, so the decoder must accept it.
            guard fields & ~knownFields == 0 else { throw .invalidFields }
            var sample = MotionSample(timestampMicros: t, buttons: buttons)
            if fields & hasAttitude != 0 {
                let a = Attitude(roll: try r.f64(), pitch: try r.f64(), yaw: try r.f64())
                guard a.isFinite else { throw .nonFiniteValue }
                sample.attitude = a
            }
            if fields & hasGyro != 0 {
                let g = Vector3(x: try r.f32(), y: try r.f32(), z: try r.f32())
                guard g.isFinite else { throw .nonFiniteValue }
                sample.gyro = g
            }
            if fields & hasAcceleration != 0 {
                let a = Vector3(x: try r.f32(), y: try r.f32(), z: try r.f32())
                guard a.isFinite else { throw .nonFiniteValue }
                sample.acceleration = a
            }
            if fields & hasAnalog != 0 {
                func stick(_ raw: UInt16) throws(WireError) -> Float {
                    guard raw != 0x8000 else { throw .invalidAnalog }   // -32768: ±32767 only, one encoding each
                    return Float(Int16(bitPattern: raw)) / 32767
                }
                let lx = try stick(try r.u16()), ly = try stick(try r.u16())
                let rx = try stick(try r.u16()), ry = try stick(try r.u16())
                sample.analog = AnalogState(leftX: lx, leftY: ly, rightX: rx, rightY: ry,
                                            leftTrigger: Float(try r.u16()) / 65535, rightTrigger: Float(try r.u16()) / 65535)
            }
            message = .motion(MotionPacket(sequence: seq, buttonSequence: buttonSeq, sample: sample))
        case .ack:
            message = .ack(Ack(cumulative: try r.u32(), selective: try r.u64()))
        case .disconnect:
            guard let reason = DisconnectReason(rawValue: try r.u8()) else { throw .invalidReason }
            message = .disconnect(reason)
        case .feedback:
            let flags = try r.u8()
            guard flags & ~feedbackHasLightbar == 0 else { throw .invalidFields }
            let low = try r.u8(), high = try r.u8()
            let light = ControllerFeedback.Color(red: try r.u8(), green: try r.u8(), blue: try r.u8())
            // Without a light its colour bytes are 0: each value has one encoding.
            guard flags & feedbackHasLightbar != 0 || light == ControllerFeedback.Color(red: 0, green: 0, blue: 0) else {
                throw .invalidFields
            }
            message = .feedback(ControllerFeedback(rumbleLow: low, rumbleHigh: high,
                                                   lightbar: flags & feedbackHasLightbar != 0 ? light : nil))
        }
        guard r.remaining == 0 else { throw .trailingBytes }
        return message
    }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> Message {
        let result: Result<Message, WireError> = bytes.withUnsafeBytes { buf in
            var r = ByteReader(buf)
            do throws(WireError) { return .success(try decode(from: &r)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
