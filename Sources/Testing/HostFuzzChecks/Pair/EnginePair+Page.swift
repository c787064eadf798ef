import RemotionProtocol
import RemotionHostLogic

/// A phone's page of the pair: its session machine (`WebSession`, either transport) and
/// the session the engine gave it (nil before, when refused, and once it ended).
package struct PagePeer {
    package let device: String
    var session: WebSession
    package internal(set) var id: SessionID?
    /// Its motion frames' next sequence.
    var sequence: UInt32 = 0
}

extension EnginePair {
    /// The host's clocks for a page: the pair's monotonic time and the wall clock beside it.
    var pageTime: WebSession.Time {
        WebSession.Time(monotonic: now, epochMillis: Double(Self.epochSeconds) * 1000 + Double(now.nanoseconds) / 1e6)
    }

    /// A page of `device` connects over `transport` (a WebSocket from `peer`, or data
    /// channels): its session, or nil when every slot is taken (the page is told so).
    @discardableResult
    package func openPage(device: String, transport: WebSession.Transport = .webSocket, peer: PeerAddress? = nil) -> Int {
        var page = PagePeer(device: device, session: WebSession(transport: transport))
        page.id = engine.open(from: .web(device: device, peer: transport == .webSocket ? peer : nil), name: device,
                              screen: Self.screen, now: now, random: &random, into: &pending)
        if page.id != nil { page.session.opened() }
        pages.append(page)
        route()
        return pages.count - 1
    }

    /// A binary frame from page `k` on `channel` (its primary WebSocket unless said).
    package func pageFrame(_ k: Int, _ bytes: [UInt8], on channel: WebSession.Channel? = nil) {
        let channel = channel ?? (pages[k].session.transport == .webSocket ? .primary : .control)
        let time = pageTime
        pagePerform(k, pages[k].session.received(bytes, on: channel, at: time))
    }

    /// A text frame from page `k`: a command (recenter, mode, pad, gyro stick, calibrate) or
    /// page input (touchpad, click, text, key, laser); anything else is dropped.
    package func pageText(_ k: Int, _ text: String, on channel: WebSession.Channel? = nil) {
        let channel = channel ?? (pages[k].session.transport == .webSocket ? .primary : .control)
        if let command = WebClientMessage.parse(text) {
            pagePerform(k, pages[k].session.command(command, on: channel))
        } else if let input = WebInputMessage.parse(text) {
            pagePerform(k, pages[k].session.input(input, on: channel))
        }
    }

    /// Page `k`'s motion frame: the sample's blocks, its time in milliseconds as the page
    /// sends it, the buttons the page holds (or `buttons`, what a page says it holds).
    package func pageMotion(_ k: Int, _ sample: MotionSample, timeMillis: Double? = nil, on channel: WebSession.Channel? = nil,
                            buttons: ButtonSet? = nil) {
        pages[k].sequence &+= 1
        var sample = sample
        sample.buttons = buttons ?? pages[k].session.buttons
        let millis = timeMillis ?? Double(sample.timestampMicros) / 1000
        pageFrame(k, Self.motionFrame(sample, sequence: pages[k].sequence, timeMillis: millis), on: channel)
    }

    /// Page `k` presses or releases `button` (a BUTTON frame on the owning channel).
    package func pageButton(_ k: Int, _ button: Button, isDown: Bool) {
        var state = pages[k].session.buttons
        state.set(button, down: isDown)
        pageFrame(k, [0x02, button.rawValue, isDown ? 1 : 0, 0, UInt8(state.rawValue & 0xFF), UInt8(state.rawValue >> 8), 0, 0])
    }

    /// Page `k`'s ping (the page's keep-alive).
    package func pagePing(_ k: Int, nonce: UInt32 = 1) {
        var b = [UInt8](repeating: 0, count: WebFrame.pingLength)
        b[0] = 0x03
        Self.put(nonce, at: 4, in: &b)
        Self.put((Double(Self.epochSeconds) * 1000 + Double(now.nanoseconds) / 1e6).bitPattern, at: 8, in: &b)
        pageFrame(k, b)
    }

    /// Page `k`'s transport ends (`ending`: the page closed it, it timed out, …).
    package func pageCloses(_ k: Int, _ ending: WebSessionEnding = .closedByPage) {
        let time = pageTime
        pagePerform(k, pages[k].session.close(ending, limit: .seconds(2), at: time))
    }

    /// What the page's session machine asks: commands into the engine (the answer back to
    /// the page), frames and texts out, the end.
    func pagePerform(_ k: Int, _ actions: [WebSession.Action]) {
        for action in actions {
            switch action {
            case .host(let command):
                guard let id = pages[k].id else { continue }
                let answer = engine.perform(command, for: id, screen: Self.screen, now: now, into: &pending)
                route()
                if case .input = command { pages[k].session.inputDone() }
                if let answer {
                    counts.toPage += 1
                    record(.toPage(k, .answer(answer)))
                }
            case let .send(bytes, channel):
                counts.toPage += 1
                record(.toPage(k, .frame(bytes, on: channel)))
            case let .sendText(text, channel):
                counts.toPage += 1
                record(.toPage(k, .text(text, on: channel)))
            case .drop:
                break
            case .end(let ending):
                guard let id = pages[k].id else { continue }
                pages[k].id = nil     // its transport ended it: nothing to tell it
                engine.perform(.close(ending.closeReason), for: id, screen: Self.screen, now: now, into: &pending)
                route()
            case .stopTransport:
                counts.toPage += 1
                record(.toPage(k, .stopped))
            }
        }
    }

    /// The page's MOTION frame (type 1): the blocks the sample has (attitude, gyro,
    /// acceleration, analog), its time in milliseconds as the page sends it.
    package static func motionFrame(_ s: MotionSample, sequence: UInt32, timeMillis: Double, clutch: Bool = false) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: s.analog == nil ? WebFrame.motionLength : WebFrame.motionAnalogLength)
        b[0] = 0x01
        b[1] = (s.attitude == nil ? 0 : 0x01) | (s.gyro == nil ? 0 : 0x02) | (s.acceleration == nil ? 0 : 0x04)
            | (clutch ? 0x08 : 0) | (s.analog == nil ? 0 : WebFrame.analogFlag)
        b[2] = UInt8(s.buttons.rawValue & 0xFF)
        b[3] = UInt8(s.buttons.rawValue >> 8)
        put(sequence, at: 4, in: &b)
        put(timeMillis.bitPattern, at: 8, in: &b)
        let a = s.attitude ?? Attitude(roll: 0, pitch: 0, yaw: 0)
        let g = s.gyro ?? Vector3(x: 0, y: 0, z: 0), c = s.acceleration ?? Vector3(x: 0, y: 0, z: 0)
        for (i, v) in [Float(a.roll), Float(a.pitch), Float(a.yaw), g.x, g.y, g.z, c.x, c.y, c.z].enumerated() {
            put(v.bitPattern, at: 16 + 4 * i, in: &b)
        }
        guard let analog = s.analog else { return b }
        func axis(_ v: Float) -> UInt16 { UInt16(bitPattern: Int16(max(-1, min(1, v.isFinite ? v : 0)) * 32767)) }
        func trigger(_ v: Float) -> UInt16 { UInt16(max(0, min(1, v.isFinite ? v : 0)) * 65535) }
        let o = WebFrame.motionLength
        for (i, v) in [axis(analog.leftX), axis(analog.leftY), axis(analog.rightX), axis(analog.rightY),
                       trigger(analog.leftTrigger), trigger(analog.rightTrigger)].enumerated() {
            b[o + 2 * i] = UInt8(v & 0xFF)
            b[o + 2 * i + 1] = UInt8(v >> 8)
        }
        return b
    }

    static func put(_ v: UInt32, at o: Int, in b: inout [UInt8]) {
        for k in 0..<4 { b[o + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(k))) }
    }

    static func put(_ v: UInt64, at o: Int, in b: inout [UInt8]) {
        for k in 0..<8 { b[o + k] = UInt8(truncatingIfNeeded: v >> (8 * UInt64(k))) }
    }
}
