import RemotionProtocol

/// The web controller page's binary WebSocket frames (docs/WEB-CONTROLLER.md,
/// "Protocol"). Little-endian. Decoding never traps; a bad frame is a typed error the
/// host counts and drops.
package enum WebFrame: Sendable, Equatable {
    /// 0x01: one sensor sample with the full button state.
    case motion(WebMotion)
    /// 0x02: one button edge, with the full state after it.
    case button(Button, isDown: Bool, state: ButtonSet)
    /// 0x03: a ping to echo (nonce, page time in ms, the page's current RTT in 0.1 ms or 0).
    case ping(nonce: UInt32, pageTimeMillis: Double, rttTenthsMillis: UInt16)
}

package struct WebMotion: Sendable, Equatable {
    package var sequence: UInt32
    /// When the sensor event fired: the page's epoch milliseconds (timeOrigin + timeStamp).
    package var timeMillis: Double
    package var buttons: ButtonSet
    /// The hold-to-aim clutch is held on the page.
    package var clutch: Bool
    package var attitude: Attitude?
    package var gyro: Vector3?
    package var acceleration: Vector3?
    /// The Gamepad mode's sticks and triggers (flag bit 4, 12 bytes after the base), as in
    /// the UDP motion packet's analog block.
    package var analog: AnalogState?
    /// The Gamepad mode's touchpad (flag bit 5, 12 bytes after the analog block or the base):
    /// up to two fingers, 0…1 of the pad left to right and top to bottom. The page sends it
    /// while a finger is down; a frame without it has none (`GamepadFeed` lifts them).
    package var touch: TouchState?

    /// The protocol's sample (timestamps in microseconds on the page's clock).
    package var sample: MotionSample {
        // Saturated: a finite time past 2^64 µs (1e300 ms) would trap the conversion.
        MotionSample(timestampMicros: UInt64(min(max(0, timeMillis * 1000), 1.8e19)), attitude: attitude, gyro: gyro,
                     acceleration: acceleration, buttons: buttons, analog: analog, touch: touch)
    }
}

package enum WebFrameError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case unknownType(UInt8)
    case badLength(type: UInt8, length: Int)
    case badButton(UInt8)
    case notFinite

    package var description: String {
        switch self {
        case .empty: "empty frame"
        case .unknownType(let t): "unknown frame type \(t)"
        case let .badLength(t, n): "frame type \(t) has \(n) bytes"
        case .badButton(let b): "button index \(b) is not 0-15"
        case .notFinite: "a number is not finite"
        }
    }

    /// A short label for drop counters.
    package var reason: String {
        switch self {
        case .empty: "empty"
        case .unknownType: "unknown-type"
        case .badLength: "bad-length"
        case .badButton: "bad-button"
        case .notFinite: "not-finite"
        }
    }
}

extension WebFrame {
    package static let motionLength = 52, motionAnalogLength = 64, buttonLength = 8, pingLength = 16
    /// The optional blocks' lengths: a frame is 52 bytes plus each block its flags announce.
    package static let analogBlockLength = 12, touchBlockLength = 12
    /// MOTION flag bits 4 and 5.
    package static let analogFlag: UInt8 = 0x10, touchFlag: UInt8 = 0x20

    package static func decode(_ bytes: some Collection<UInt8>) throws(WebFrameError) -> WebFrame {
        let b = Array(bytes)
        guard let type = b.first else { throw .empty }
        func u16(_ o: Int) -> UInt16 { UInt16(b[o]) | UInt16(b[o + 1]) << 8 }
        func u32(_ o: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(b[o + $1]) << (8 * UInt32($1)) } }
        func u64(_ o: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(b[o + $1]) << (8 * UInt64($1)) } }
        func f32(_ o: Int) -> Float { Float(bitPattern: u32(o)) }
        func f64(_ o: Int) -> Double { Double(bitPattern: u64(o)) }
        func vector(_ o: Int) -> Vector3 { Vector3(x: f32(o), y: f32(o + 4), z: f32(o + 8)) }
        // −32768 reads as −1 (the page never writes it): every stick value is in range.
        func axis(_ o: Int) -> Float { max(-1, Float(Int16(bitPattern: u16(o))) / 32767) }
        switch type {
        case 0x01:
            let flags = b.count >= 2 ? b[1] : 0
            let analogAt = motionLength
            let touchAt = analogAt + (flags & analogFlag != 0 ? analogBlockLength : 0)
            guard b.count == touchAt + (flags & touchFlag != 0 ? touchBlockLength : 0) else {
                throw .badLength(type: type, length: b.count)
            }
            let time = f64(8)
            guard time.isFinite else { throw .notFinite }
            var m = WebMotion(sequence: u32(4), timeMillis: time, buttons: ButtonSet(rawValue: u16(2)),
                              clutch: flags & 0x08 != 0)
            if flags & 0x01 != 0 {
                let a = Attitude(roll: Double(f32(16)), pitch: Double(f32(20)), yaw: Double(f32(24)))
                guard a.isFinite else { throw .notFinite }
                m.attitude = a
            }
            if flags & 0x02 != 0 {
                let g = vector(28)
                guard g.isFinite else { throw .notFinite }
                m.gyro = g
            }
            if flags & 0x04 != 0 {
                let a = vector(40)
                guard a.isFinite else { throw .notFinite }
                m.acceleration = a
            }
            if flags & analogFlag != 0 {
                let o = analogAt
                m.analog = AnalogState(leftX: axis(o), leftY: axis(o + 2), rightX: axis(o + 4), rightY: axis(o + 6),
                                       leftTrigger: Float(u16(o + 8)) / 65535, rightTrigger: Float(u16(o + 10)) / 65535)
            }
            if flags & touchFlag != 0 {
                // Each finger: a state byte (bit 7 down, bits 0–6 its id), a zero byte, u16 x, u16 y.
                func finger(_ o: Int) -> TouchState.Finger? {
                    guard b[o] & 0x80 != 0 else { return nil }
                    return .init(id: b[o] & 0x7F, x: Float(u16(o + 2)) / 65535, y: Float(u16(o + 4)) / 65535)
                }
                m.touch = TouchState(first: finger(touchAt), second: finger(touchAt + 6))
            }
            return .motion(m)
        case 0x02:
            guard b.count == buttonLength else { throw .badLength(type: type, length: b.count) }
            guard let button = Button(rawValue: b[1]) else { throw .badButton(b[1]) }
            return .button(button, isDown: b[2] != 0, state: ButtonSet(rawValue: u16(4)))
        case 0x03:
            guard b.count == pingLength else { throw .badLength(type: type, length: b.count) }
            let t = f64(8)
            guard t.isFinite else { throw .notFinite }
            return .ping(nonce: u32(4), pageTimeMillis: t, rttTenthsMillis: u16(2))
        default:
            throw .unknownType(type)
        }
    }

    /// The host's answer to a ping frame: the same bytes with type 0x83.
    package static func pong(echoing ping: some Collection<UInt8>) -> [UInt8] {
        var out = Array(ping)
        if !out.isEmpty { out[0] = 0x83 }
        return out
    }
}
