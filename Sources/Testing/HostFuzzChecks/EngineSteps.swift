import RemotionProtocol
import RemotionHostLogic

/// The bytes of a FuzzHost input as steps on an `EnginePair`: each step's first byte says
/// which origin speaks (its low four bits) and which of its two peers (bit 4); the bytes
/// after it say what it sends, and how far time moves. Reads past the end are zeros, so
/// every input is a whole script (`FuzzInput`).
struct EngineSteps {
    let pair: EnginePair
    private var input: FuzzInput
    /// Each controller's own clock (UDP phones, pages, DSU slots, pads), stepped by the script.
    private var clocks = [UInt64](repeating: 1_000_000, count: 12)
    private var steps = 0
    static let phones = [PeerAddress(192, 0, 2, 7, port: 50_000), PeerAddress(192, 0, 2, 8, port: 50_001)]
    static let stranger = PeerAddress(198, 51, 100, 1, port: 9)
    static let pads = ["event7", "event8"]
    /// The page's text frames: every command and kind of page input, and some that are not.
    static let texts = [
        #"{"type":"recenter"}"#, #"{"type":"mode","mode":"fps"}"#, #"{"type":"mode","mode":"pointer"}"#,
        #"{"type":"pad","on":true}"#, #"{"type":"pad","on":false}"#, #"{"type":"gyroStick","target":"right"}"#,
        #"{"type":"calibrate"}"#, #"{"type":"pad","dx":12.5,"dy":-3,"ms":16}"#, #"{"type":"scroll","dx":0,"dy":3}"#,
        #"{"type":"click","button":"left","down":true}"#, #"{"type":"click","button":"left","down":false}"#,
        #"{"type":"text","text":"hé"}"#, #"{"type":"key","key":"Return"}"#, #"{"type":"laser","on":true}"#,
        #"{"type":"laser","on":false}"#, #"{"type":"pad","dx":1e308,"dy":-1e308,"ms":-1}"#, "{", "",
    ]

    /// Handshakes done in this input (each costs milliseconds under the sanitizers): at most one.
    private var handshakes = 0
    /// Each of the two pages' newest index in `pair.pages`.
    private var pageOf: [Int?] = [nil, nil]
    /// The two phones with their first handshakes done, the second's key paired or not.
    static let prepared = [true, false].map { PreparedPeers([(phones[0], paired: true), (phones[1], paired: $0)]) }

    init(_ bytes: [UInt8]) {
        input = FuzzInput(bytes)
        pair = EnginePair(maximum: EngineProperties.maximum, prepared: Self.prepared[Int((bytes.first ?? 0) >> 7)])
        pair.keepsLog = false
        pair.addDSUServer(at: PeerAddress(127, 0, 0, 1, port: 26_760))
    }

    /// Phone `k` handshakes again (its keys renewed), at most once per input.
    private mutating func handshake(_ k: Int) {
        guard handshakes < 1 else { return }
        handshakes += 1
        pair.udpHandshake(k)
    }

    var isAtEnd: Bool { input.isAtEnd || steps >= 2_048 }

    /// One step; a property it broke on the way (a timer that spins), if any.
    mutating func step() -> String? {
        steps += 1
        let op = input.u8()
        let k = Int(op >> 4) & 1
        switch op % 16 {
        case 0:
            // Its session opens with a ping (its keys are ready: `prepared`), or a new handshake first.
            if input.u8() == 0xFF { handshake(k) }
            pair.udpSend(k, .ping(clientTimeMicros: UInt64(max(0, pair.now.microseconds)), clockOffsetMicros: 0))
        case 1: pair.udpSend(k, .ping(clientTimeMicros: input.u64(), clockOffsetMicros: Int64(bitPattern: input.u64())))
        case 2, 3: pair.udpMotion(k, sample(clock: k))
        case 4: pair.udpButton(k, button(), isDown: input.bool(), timestampMicros: input.u64())
        case 5: datagram(k)
        case 6: pair.udpSend(k, .disconnect(DisconnectReason(rawValue: input.u8() % 7) ?? .user))
        case 7: page(k)
        case 8: pageFrame(k)
        case 9: pageMessage(k)
        case 10: dsu()
        case 11:
            if pair.localPads.contains(where: { $0.key == Self.pads[k] }) { pair.unplugPad(Self.pads[k]) } else {
                pair.plugPad(Self.pads[k], controls: input.bool(), pressed: input.bool() ? [EvdevCode.btnSouth] : [])
            }
        case 12: pad(k)
        case 13: return time()
        case 14: feedback()
        default:
            switch input.u8() % 3 {
            case 0: pair.setSuspended(input.bool())
            case 1: pair.padAlive(Self.pads[k])
            default: if input.u8() == 0xFF { handshake(k) }
            }
        }
        return nil
    }

    private mutating func button() -> Button { Button(rawValue: input.u8() % 16) ?? .a }

    /// A sample at the next time of controller `c`'s clock: the blocks the input says, any value.
    private mutating func sample(clock c: Int) -> MotionSample {
        clocks[c] = input.timestamp(after: clocks[c])
        var s = MotionSample(timestampMicros: clocks[c])
        let flags = input.u8()
        if flags & 1 != 0 { s.attitude = Attitude(roll: Double(input.float()), pitch: Double(input.float()), yaw: Double(input.float())) }
        if flags & 2 != 0 { s.gyro = input.vector() }
        if flags & 4 != 0 { s.acceleration = input.vector() }
        if flags & 8 != 0 {
            s.analog = AnalogState(leftX: input.float(), leftY: input.float(), rightX: input.float(), rightY: input.float(),
                                   leftTrigger: input.float(), rightTrigger: input.float())
        }
        if flags & 16 != 0 { s.buttons = ButtonSet(rawValue: input.u16()) }
        return s
    }

    /// A datagram that is not what the peer's client would send: sealed and then changed,
    /// or bytes from the input from the peer's address or a stranger's.
    private mutating func datagram(_ k: Int) {
        if input.bool() {
            pair.udpTampered(k, .ping(clientTimeMicros: 1, clockOffsetMicros: 0), flip: Int(input.u8()), with: input.u8())
        } else {
            let bytes = (0..<Int(input.u8() % 96)).map { _ in input.u8() }
            pair.receiveDatagram(bytes, from: input.bool() ? Self.stranger : Self.phones[k])
        }
    }

    /// Page `k` opens (either transport) when it has no session, else its transport ends.
    private mutating func page(_ k: Int) {
        if let p = pageOf[k], pair.pages[p].id != nil {
            let endings: [WebSessionEnding] = [.closedByPage, .timedOut, .revoked, .replaced, .shutdown]
            pair.pageCloses(p, endings[Int(input.u8()) % endings.count])
        } else {
            pageOf[k] = pair.openPage(device: "phone-\(k)", transport: input.bool() ? .webSocket : .dataChannels,
                                      peer: Self.phones[k])
        }
    }

    /// The newest page of `k`'s: a motion frame (on a channel the input picks) or any bytes.
    private mutating func pageFrame(_ k: Int) {
        guard let p = newestPage(k) else { return }
        let channels: [WebSession.Channel] = [.primary, .lane, .control, .motion]
        let channel = channels[Int(input.u8()) % 4]
        if input.u8() % 4 != 0 {
            let s = sample(clock: 2 + k)
            pair.pageMotion(p, s, timeMillis: Double(s.timestampMicros) / 1000, on: channel, buttons: s.buttons)
        } else {
            pair.pageFrame(p, (0..<Int(input.u8() % 80)).map { _ in input.u8() }, on: channel)
        }
    }

    /// A button, a ping or a text frame of page `k`.
    private mutating func pageMessage(_ k: Int) {
        guard let p = newestPage(k) else { return }
        switch input.u8() % 3 {
        case 0: pair.pageButton(p, button(), isDown: input.bool())
        case 1: pair.pagePing(p, nonce: input.u32())
        default: pair.pageText(p, Self.texts[Int(input.u8()) % Self.texts.count])
        }
    }

    /// Page `k`'s newest session (open, refused or ended: its frames go to its machine all the same).
    private func newestPage(_ k: Int) -> Int? { pageOf[k] }

    /// The DSU server's pad data for a slot (any value, connected or not) or any bytes.
    private mutating func dsu() {
        let slot = input.u8() % 4
        if input.u8() % 8 == 0 {
            pair.dsuDatagram(0, (0..<Int(input.u8())).map { _ in input.u8() })
            return
        }
        clocks[4 + Int(slot)] = input.timestamp(after: clocks[4 + Int(slot)])
        pair.dsuPad(0, slot: slot, timestampMicros: clocks[4 + Int(slot)],
                    gyro: DSUGyro(pitch: input.float(), yaw: input.float(), roll: input.float()),
                    accel: DSUAccel(x: input.float(), y: input.float(), z: input.float()),
                    buttons: DSUButtons(rawValue: UInt32(input.u16()) | UInt32(input.u8() & 3) << 16),
                    connected: input.u8() % 16 != 0)
    }

    /// Pad `k`'s motion frame (any raw values; sometimes after a SYN_DROPPED) or a key.
    private mutating func pad(_ k: Int) {
        let key = Self.pads[k]
        if input.bool() {
            let codes = Array(LocalPadControls.keyTable.keys.sorted()) + [EvdevCode.btnThumbR, input.u16()]
            pair.padKey(key, codes[Int(input.u8()) % codes.count], down: input.bool())
            return
        }
        clocks[8 + k] = input.timestamp(after: clocks[8 + k])
        let raw = (0..<6).map { _ in Int32(bitPattern: input.u32()) }
        if input.u8() % 8 == 0 {
            pair.padMotionEvents(key, [EvdevInputEvent(timeMicros: pair.now.microseconds, type: EvdevCode.synType, code: EvdevCode.synDropped, value: 0)])
        }
        pair.padMotion(key, raw: raw, timestampMicros: UInt32(truncatingIfNeeded: clocks[8 + k]))
    }

    /// Virtual time moves on: to each deadline on the way, up to a second or half a minute;
    /// or the host's loop stalls for up to a day (only the end fires).
    private mutating func time() -> String? {
        let amount = input.u8()
        let result: (fires: Int, spun: Bool)
        switch amount {
        case 0..<240: result = pair.advance(by: .milliseconds(Int64(amount) * 4 + 1), maximumFires: 10_000)
        case 240..<252: result = pair.advance(by: .seconds(Int64(amount - 239) * 3), maximumFires: 10_000)
        default: result = pair.advance(by: .seconds(Int64(input.u16()) * 2), stalled: true)
        }
        if result.spun { return "a timer is never due again at or before the time it ran" }
        if let next = pair.nextDeadline, next <= pair.now { return "no deadline is left at or before the time the timers ran" }
        return nil
    }

    /// A game rumbles or lights the pad of one of the open sessions.
    private mutating func feedback() {
        let open = pair.engine.core.sessions.keys.sorted()
        guard !open.isEmpty else { return }
        let id = open[Int(input.u8()) % open.count]
        let rumble = input.bool() ? FeedbackChange.Rumble(low: input.u8(), high: input.u8()) : nil
        let light = input.bool() ? ControllerFeedback.Color(red: input.u8(), green: input.u8(), blue: input.u8()) : nil
        pair.padFeedback(id, FeedbackChange(rumble: rumble, lightbar: light))
    }
}
