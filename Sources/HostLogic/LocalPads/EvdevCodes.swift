/// One `struct input_event` as read from an evdev node (linux/input.h): the kernel's time
/// stamp in microseconds (the clock the node was set to), type, code and value.
package struct EvdevInputEvent: Hashable, Sendable {
    package var timeMicros: Int64
    package var type: UInt16
    package var code: UInt16
    package var value: Int32

    package init(timeMicros: Int64 = 0, type: UInt16, code: UInt16, value: Int32) {
        self.timeMicros = timeMicros; self.type = type; self.code = code; self.value = value
    }

    /// `struct input_event` on 64-bit Linux: timeval (tv_sec, tv_usec as 64-bit), u16 type,
    /// u16 code, s32 value = 24 bytes, native (little-endian) byte order.
    package static let byteCount = 24

    /// The event as `write` takes it (time zero: the kernel stamps what it is written).
    package var bytes: [UInt8] {
        var b = [UInt8](repeating: 0, count: Self.byteCount)
        func put(_ v: UInt64, at i: Int, _ n: Int) { for k in 0..<n { b[i + k] = UInt8((v >> (8 * UInt64(k))) & 0xFF) } }
        put(UInt64(bitPattern: timeMicros / 1_000_000), at: 0, 8)
        put(UInt64(bitPattern: timeMicros % 1_000_000), at: 8, 8)
        put(UInt64(type), at: 16, 2)
        put(UInt64(code), at: 18, 2)
        put(UInt64(UInt32(bitPattern: value)), at: 20, 4)
        return b
    }

    /// Decodes whole events from `bytes`; a trailing partial event is ignored (its size is
    /// the caller's to count: evdev never returns one).
    package static func decode(_ bytes: some Collection<UInt8>) -> [EvdevInputEvent] {
        let b = Array(bytes)
        var out: [EvdevInputEvent] = []
        out.reserveCapacity(b.count / byteCount)
        var at = 0
        func u(_ i: Int, _ n: Int) -> UInt64 { (0..<n).reduce(0) { $0 | UInt64(b[i + $1]) << (8 * UInt64($1)) } }
        while at + byteCount <= b.count {
            let sec = Int64(bitPattern: u(at, 8)), usec = Int64(bitPattern: u(at + 8, 8))
            out.append(EvdevInputEvent(timeMicros: sec &* 1_000_000 &+ usec, type: UInt16(u(at + 16, 2)),
                                       code: UInt16(u(at + 18, 2)), value: Int32(truncatingIfNeeded: u(at + 20, 4))))
            at += byteCount
        }
        return out
    }
}

/// `struct input_absinfo` (EVIOCGABS): the axis's current value, range, fuzz, flat and
/// resolution (units per mm, per g for an accelerometer axis, per °/s for a gyro axis).
package struct EvdevAbsInfo: Hashable, Sendable {
    package var value: Int32
    package var minimum: Int32
    package var maximum: Int32
    package var fuzz: Int32
    package var flat: Int32
    package var resolution: Int32

    package init(value: Int32 = 0, minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.value = value; self.minimum = minimum; self.maximum = maximum
        self.fuzz = fuzz; self.flat = flat; self.resolution = resolution
    }

    /// From the 24 bytes EVIOCGABS fills (six s32, native order); nil when short.
    package init?(bytes: [UInt8]) {
        guard bytes.count >= 24 else { return nil }
        func s(_ i: Int) -> Int32 {
            Int32(bitPattern: UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
        }
        self.init(value: s(0), minimum: s(4), maximum: s(8), fuzz: s(12), flat: s(16), resolution: s(20))
    }
}

/// The event types and codes Remotion reads (linux/input-event-codes.h).
package enum EvdevCode {
    package static let synType: UInt16 = 0x00, keyType: UInt16 = 0x01, absType: UInt16 = 0x03, mscType: UInt16 = 0x04
    package static let synReport: UInt16 = 0, synDropped: UInt16 = 3
    package static let mscTimestamp: UInt16 = 0x05
    package static let absX: UInt16 = 0x00, absY: UInt16 = 0x01, absZ: UInt16 = 0x02
    package static let absRX: UInt16 = 0x03, absRY: UInt16 = 0x04, absRZ: UInt16 = 0x05
    package static let absHat0X: UInt16 = 0x10, absHat0Y: UInt16 = 0x11
    package static let btnSouth: UInt16 = 0x130, btnEast: UInt16 = 0x131, btnNorth: UInt16 = 0x133, btnWest: UInt16 = 0x134
    package static let btnTL: UInt16 = 0x136, btnTR: UInt16 = 0x137, btnTL2: UInt16 = 0x138, btnTR2: UInt16 = 0x139
    package static let btnSelect: UInt16 = 0x13a, btnStart: UInt16 = 0x13b, btnMode: UInt16 = 0x13c
    package static let btnThumbL: UInt16 = 0x13d, btnThumbR: UInt16 = 0x13e
    package static let btnDpadUp: UInt16 = 0x220, btnDpadDown: UInt16 = 0x221, btnDpadLeft: UInt16 = 0x222, btnDpadRight: UInt16 = 0x223
    /// INPUT_PROP_ACCELEROMETER: the node is a motion sensor (its ABS axes are acceleration and rate).
    package static let propAccelerometer = 0x06
    /// The axes a motion node reports: acceleration on X, Y, Z; angular rate on RX, RY, RZ.
    package static let motionAxes: [UInt16] = [absX, absY, absZ, absRX, absRY, absRZ]
    /// The axes a gamepad node may report: sticks, triggers, the d-pad hat.
    package static let padAxes: [UInt16] = [absX, absY, absZ, absRX, absRY, absRZ, absHat0X, absHat0Y]
}
