import RemotionProtocol
import RemotionHostLogic

/// One step of a fuzzed host's life, read from bytes (`HostScript.steps`): what controllers
/// of every origin send, what the host's clock and its person do.
package enum HostStep: Sendable {
    case open(SessionID)
    case close(SessionID)
    /// A sample as the pipeline gets it after the origin's decoder.
    case motion(SessionID, MotionSample)
    case button(SessionID, Button, isDown: Bool)
    case advance(Duration)
    case setPad(SessionID, on: Bool)
    case feedback(SessionID, FeedbackChange)
    /// The desktop session becomes inactive (a fast user switch) or active again.
    case suspend(Bool)
    /// The host's mapping settings change (the dashboard, a reloaded config), live.
    case settings(MappingSettings)
}

/// The bytes of a fuzz input as steps. A sample comes from one of the four origins' own
/// decoders, fed bytes that the origin's encoder made from fuzzed values (so values reach the
/// pipeline at every limit the codec admits): the UDP wire codec, the page's binary frame,
/// a DSU pad-data packet, and a local pad's evdev frame.
package enum HostScript {
    package static let sessions: UInt32 = 4

    package static func steps(_ bytes: [UInt8]) -> [HostStep] {
        var input = FuzzInput(bytes)
        var steps: [HostStep] = []
        var clocks = [UInt64](repeating: 1_000_000, count: Int(sessions))
        var pads: [LocalPadMotionDecoder] = (0..<sessions).compactMap { _ in try? LocalPadMotionDecoder(driver: .playstation, axes: padAxes) }
        while !input.isAtEnd, steps.count < 4096 {
            let op = input.u8()
            let id = SessionID(UInt32(op >> 4) % sessions)
            let i = Int(id.rawValue)
            switch op % 14 {
            case 0: steps.append(.open(id))
            case 1: steps.append(.close(id))
            case 2, 3:
                clocks[i] = input.timestamp(after: clocks[i])
                if let s = udp(clocks[i], &input) { steps.append(.motion(id, s)) }
            case 4:
                clocks[i] = input.timestamp(after: clocks[i])
                if let s = web(clocks[i], &input) { steps.append(.motion(id, s)) }
            case 5:
                clocks[i] = input.timestamp(after: clocks[i])
                if let s = dsu(clocks[i], &input) { steps.append(.motion(id, s)) }
            case 6:
                clocks[i] = input.timestamp(after: clocks[i])
                if i < pads.count { steps += pads[i].feed(evdev(clocks[i], &input)).map { .motion(id, $0) } }
            case 7, 8:
                steps.append(.button(id, Button(rawValue: input.u8() % 16) ?? .a, isDown: input.bool()))
            case 9:
                let amount = input.u8()
                steps.append(.advance(amount == 255 ? .seconds(86_400) : .milliseconds(Int64(amount) * 4)))
            case 10: steps.append(.setPad(id, on: input.bool()))
            case 12: steps.append(.suspend(input.bool()))
            case 13: steps.append(.settings(settings(input.u8(), input.u8())))
            default:
                let rumble = input.bool() ? FeedbackChange.Rumble(low: input.u8(), high: input.u8()) : nil
                steps.append(.feedback(id, FeedbackChange(rumble: rumble)))
            }
        }
        return steps
    }

    /// Mapping settings from two bytes: every mode, filter, gyro stick side and flick stick
    /// (what the FuzzMapping target was to cover), at the ends of their sensitivities' ranges.
    static func settings(_ a: UInt8, _ b: UInt8) -> MappingSettings {
        var s = MappingSettings()
        let modes = MappingSettings.Mode.allCases
        try? s.set("mode", to: modes[Int(a) % modes.count].rawValue)
        try? s.set("filter", to: ["none", "one-euro", "kalman", "lowpass"][Int(a >> 2) % 4])
        try? s.set("gyro_stick.target", to: ["off", "right", "left"][Int(a >> 4) % 3])
        try? s.set("flick.stick", to: ["off", "right", "left"][Int(b) % 3])
        try? s.set("fps.calibration", to: b & 4 != 0 ? "counts" : "screen")
        try? s.set("gyro_stick.rate", to: b & 8 != 0 ? "540" : "180")
        try? s.set("calibration.rest_gate", to: b & 16 != 0 ? "off" : "on")
        return s
    }

    /// The four origins whose decoders feed the pipeline.
    package enum Origin: CaseIterable, Sendable { case udp, web, dsu, localPad }

    /// Samples stamped `times` through `origin`'s encoder and decoder, every other value
    /// fixed (about 1 in each field): a test's stream from one origin.
    package static func samples(_ origin: Origin, times: [UInt64]) -> [MotionSample] {
        var pad = try? LocalPadMotionDecoder(driver: .playstation, axes: padAxes)
        return times.flatMap { time -> [MotionSample] in
            var input = FuzzInput([UInt8](repeating: 4, count: 256))
            switch origin {
            case .udp: return udp(time, &input).map { [$0] } ?? []
            case .web: return web(time, &input).map { [$0] } ?? []
            case .dsu: return dsu(time, &input).map { [$0] } ?? []
            case .localPad: return pad?.feed(evdev(time, &input)) ?? []
            }
        }
    }

    /// A UDP controller's motion packet through the wire codec.
    static func udp(_ time: UInt64, _ input: inout FuzzInput) -> MotionSample? {
        var sample = MotionSample(timestampMicros: time, buttons: ButtonSet(rawValue: input.u16()))
        let flags = input.u8()
        if flags & 1 != 0 { sample.attitude = Attitude(roll: Double(input.float()), pitch: Double(input.float()), yaw: Double(input.float())) }
        if flags & 2 != 0 { sample.gyro = input.vector() }
        if flags & 4 != 0 { sample.acceleration = input.vector() }
        if flags & 8 != 0 {
            sample.analog = AnalogState(leftX: input.float(), leftY: input.float(), rightX: input.float(),
                                        rightY: input.float(), leftTrigger: input.float(), rightTrigger: input.float())
        }
        let bytes = MessageCodec.encode(.motion(MotionPacket(sequence: input.u32(), buttonSequence: 0, sample: sample)))
        guard case .motion(let packet)? = try? MessageCodec.decode(bytes) else { return nil }
        return packet.sample
    }

    /// The page's motion frame (type 1, every block present) through `WebFrame.decode`; its
    /// time in milliseconds as the page sends it.
    static func web(_ time: UInt64, _ input: inout FuzzInput) -> MotionSample? {
        var b = [UInt8](repeating: 0, count: WebFrame.motionAnalogLength + WebFrame.touchBlockLength)
        b[0] = 0x01
        b[1] = 0x3F   // every block: attitude, gyro, acceleration, clutch, analog, touchpad
        func put32(_ v: UInt32, _ o: Int) { for k in 0..<4 { b[o + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) } }
        let ms = Double(time) / 1000
        let bits = ms.bitPattern
        for k in 0..<8 { b[8 + k] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(k))) }
        for o in stride(from: 16, to: 52, by: 4) { put32(input.finiteFloat().bitPattern, o) }
        for o in 52..<b.count { b[o] = input.u8() }
        b[2] = input.u8(); b[3] = input.u8()
        guard case .motion(let m)? = try? WebFrame.decode(b) else { return nil }
        return m.sample
    }

    /// A DSU source's pad-data packet through `DSUCodec` and the source's own conversion.
    static func dsu(_ time: UInt64, _ input: inout FuzzInput) -> MotionSample? {
        let info = DSUSlotInfo(slot: 0, state: .connected, model: .fullGyro, connection: .bluetooth,
                               mac: DSUMAC(rawValue: 0x02_0000_0000_01), battery: .notApplicable)
        var pad = DSUPadData(info: info, isConnected: true, packetCounter: input.u32(),
                             analog: DSUAnalogButtons(digital: DSUButtons(rawValue: UInt32(input.u16()))),
                             motionTimestampMicros: time,
                             accel: DSUAccel(x: input.float(), y: input.float(), z: input.float()),
                             gyro: DSUGyro(pitch: input.float(), yaw: input.float(), roll: input.float()))
        pad.leftStickX = input.u8(); pad.leftStickY = input.u8(); pad.rightStickX = input.u8(); pad.rightStickY = input.u8()
        let bytes = DSUCodec.encode(DSUPacket(senderID: 7, message: .padData(pad)))
        guard case .padData(let p)? = try? DSUCodec.decode(bytes).message else { return nil }
        return DSUSourceStateMachine.sample(from: p, table: .default)
    }

    /// One evdev frame of a local pad's Motion Sensors node: six axes at any value, the
    /// driver's MSC_TIMESTAMP (32 bits that wrap), SYN_REPORT.
    static func evdev(_ time: UInt64, _ input: inout FuzzInput) -> [EvdevInputEvent] {
        var events = EvdevCode.motionAxes.map {
            EvdevInputEvent(timeMicros: Int64(truncatingIfNeeded: time), type: EvdevCode.absType, code: $0,
                            value: Int32(bitPattern: input.u32()))
        }
        events.append(EvdevInputEvent(type: EvdevCode.mscType, code: EvdevCode.mscTimestamp,
                                      value: Int32(truncatingIfNeeded: time)))
        if input.bool() { events.append(EvdevInputEvent(type: EvdevCode.synType, code: EvdevCode.synDropped, value: 0)) }
        events.append(EvdevInputEvent(type: EvdevCode.synType, code: EvdevCode.synReport, value: 0))
        return events
    }

    /// hid-playstation's Motion Sensors node: 8192 per g, 1024 per °/s, the full int32 range.
    static let padAxes: [UInt16: EvdevAbsInfo] = Dictionary(uniqueKeysWithValues: EvdevCode.motionAxes.map {
        ($0, EvdevAbsInfo(minimum: .min, maximum: .max, resolution: $0 <= EvdevCode.absZ ? 8192 : 1024))
    })
}
