import RemotionProtocol

/// The units of the virtual pad's motion, fixed by the calibration blob it answers with
/// (`DualSenseFeatures.calibration`): 20 raw units per °/s, 10000 per g. The kernel scales
/// them to 1024 per °/s and 8192 per g on the Motion Sensors node; SDL to rad/s and m/s².
package enum DualSenseUnits {
    package static let gyroPerDegreePerSecond: Float = 20
    package static let accelPerG: Float = 10_000
    /// The sensor timestamp counts thirds of a microsecond.
    package static let timestampTicksPerMicrosecond: Int64 = 3
}

/// The sensor timestamp: thirds of a microsecond, from `startTicks` at the pad's first report
/// (a real pad's counts from power-on, and it is seconds past its Bluetooth connection by the
/// time a game sees it: SDL holds a game's lightbar colour until this counter reaches
/// 10,200,000, "the Bluetooth connection LED animation is complete"; a counter from 0 held a
/// colour set at once for 3.4 s of samples, and for ever if the controller left first), from
/// the samples' times (already on the host's clock: `SampleTimeline`), and always advancing — a
/// repeated or older sample time still moves it on by one microsecond (the kernel rounds
/// deltas to µs; dt = 0 would break games' integration), and a step longer than a second
/// (a pause, a clock restart) moves it by one second. 32 bits that wrap, as the kernel expects.
/// Only the step between two samples is computed, clamped before it is scaled, so no time a
/// controller sends can make this arithmetic trap.
package struct DualSenseSensorClock: Hashable, Sendable {
    private var last: Instant?
    private var ticks = Self.startTicks
    package init() {}

    /// The first report's timestamp: 5 s, past SDL's 10,200,000 (3.4 s) for the lightbar.
    package static let startTicks: UInt32 = 15_000_000

    /// The longest step the clock takes at once.
    package static let maxStepMicros: Int64 = 1_000_000

    package mutating func ticks(at time: Instant) -> UInt32 {
        guard let last else { last = time; return ticks }
        self.last = max(last, time)   // an older time does not rewind the next step's start
        // Wrapping difference of two Int64s, then clamped to 1 µs … 1 s: a step in that range
        // is the true one whatever the two times were.
        let (difference, overflow) = time.nanoseconds.subtractingReportingOverflow(last.nanoseconds)
        let micros = overflow ? (time > last ? Self.maxStepMicros : 1) : min(max(difference / 1_000, 1), Self.maxStepMicros)
        ticks &+= UInt32(micros) &* UInt32(DualSenseUnits.timestampTicksPerMicrosecond)   // ≤ 3e6: fits; the counter wraps
        return ticks
    }
}

/// Encodes `GamepadState` as the DualSense's input report: USB 0x01 (64 bytes) or
/// Bluetooth 0x31 (78 bytes: a tag byte, the same fields one byte later, CRC-32 seeded 0xA1
/// in the last four). Offsets below are within the common part, which starts at byte 1
/// (USB) or 2 (Bluetooth).
package struct DualSenseInputReport: Hashable, Sendable {
    package enum Offset {
        package static let leftX = 0, leftY = 1, rightX = 2, rightY = 3, l2 = 4, r2 = 5
        package static let sequence = 6
        package static let buttons0 = 7, buttons1 = 8, buttons2 = 9
        package static let gyro = 15, accel = 21, timestamp = 27
        package static let touch0 = 32, touch1 = 36
        package static let status = 52
    }

    package let bus: DualSenseBus
    private var sequence: UInt8 = 0
    private var clock = DualSenseSensorClock()

    package init(bus: DualSenseBus) { self.bus = bus }

    /// Where the common fields start in a report of this bus.
    package var commonStart: Int { bus == .usb ? 1 : 2 }

    package mutating func encode(_ state: GamepadState) -> [UInt8] {
        var r: [UInt8] = []
        encode(state, into: &r)
        return r
    }

    /// The report for `state` written into `r`, which is reused when it already has the
    /// report's size (the per-sample path allocates nothing): every byte a report sets is
    /// written each time, the others stay the zeros the buffer was made with.
    package mutating func encode(_ state: GamepadState, into r: inout [UInt8]) {
        let size = bus == .usb ? DualSenseReports.usbInputSize : DualSenseReports.btInputSize
        if r.count != size { r = [UInt8](repeating: 0, count: size) }
        r[0] = bus == .usb ? DualSenseReports.usbInputID : DualSenseReports.btInputID
        let c = commonStart
        r[c + Offset.leftX] = Self.axis(state.leftStick.x)
        r[c + Offset.leftY] = Self.axis(state.leftStick.y)
        r[c + Offset.rightX] = Self.axis(state.rightStick.x)
        r[c + Offset.rightY] = Self.axis(state.rightStick.y)
        r[c + Offset.l2] = Self.trigger(state.leftTrigger)
        r[c + Offset.r2] = Self.trigger(state.rightTrigger)
        r[c + Offset.sequence] = sequence
        sequence &+= 1
        let b = state.buttons
        r[c + Offset.buttons0] = state.dpad.hat | bit(b, .square, 4) | bit(b, .cross, 5)
            | bit(b, .circle, 6) | bit(b, .triangle, 7)
        r[c + Offset.buttons1] = bit(b, .l1, 0) | bit(b, .r1, 1) | bit(b, .l2, 2) | bit(b, .r2, 3)
            | bit(b, .create, 4) | bit(b, .options, 5) | bit(b, .l3, 6) | bit(b, .r3, 7)
        r[c + Offset.buttons2] = bit(b, .ps, 0) | bit(b, .touchpad, 1) | bit(b, .mute, 2)
        let rate = state.motion.angularRate, accel = state.motion.acceleration
        Self.put16(&r, c + Offset.gyro, Self.sensor(rate.x, DualSenseUnits.gyroPerDegreePerSecond))
        Self.put16(&r, c + Offset.gyro + 2, Self.sensor(rate.y, DualSenseUnits.gyroPerDegreePerSecond))
        Self.put16(&r, c + Offset.gyro + 4, Self.sensor(rate.z, DualSenseUnits.gyroPerDegreePerSecond))
        Self.put16(&r, c + Offset.accel, Self.sensor(accel.x, DualSenseUnits.accelPerG))
        Self.put16(&r, c + Offset.accel + 2, Self.sensor(accel.y, DualSenseUnits.accelPerG))
        Self.put16(&r, c + Offset.accel + 4, Self.sensor(accel.z, DualSenseUnits.accelPerG))
        let ticks = clock.ticks(at: state.motion.time)
        for i in 0..<4 { r[c + Offset.timestamp + i] = UInt8(truncatingIfNeeded: ticks >> (8 * UInt32(i))) }
        Self.putTouch(&r, c + Offset.touch0, state.touch.first)
        Self.putTouch(&r, c + Offset.touch1, state.touch.second)
        // Battery: charging status 2 (full) in the high nibble.
        r[c + Offset.status] = 0x2A
        if bus == .bluetooth { DualSenseCRC.sign(&r, seed: DualSenseCRC.inputSeed) }
    }

    private func bit(_ set: GamepadButtons, _ button: GamepadButtons, _ shift: UInt8) -> UInt8 {
        set.contains(button) ? 1 << shift : 0
    }

    /// −1 … +1 → 0 … 255, centre 128.
    package static func axis(_ v: Float) -> UInt8 {
        guard v.isFinite else { return 128 }
        return UInt8(((min(max(v, -1), 1) + 1) * 127.5).rounded())
    }

    /// 0 … 1 → 0 … 255.
    package static func trigger(_ v: Float) -> UInt8 {
        guard v.isFinite else { return 0 }
        return UInt8((min(max(v, 0), 1) * 255).rounded())
    }

    /// A physical value in raw sensor units, clamped to int16.
    package static func sensor(_ v: Float, _ perUnit: Float) -> Int16 {
        guard v.isFinite else { return 0 }
        return Int16(min(max((v * perUnit).rounded(), -32768), 32767))
    }

    /// The touchpad's size in the report's units (hid-playstation: 1920 × 1080).
    package static let touchWidth = 1920, touchHeight = 1080

    /// One touch point (hid-playstation's `dualsense_touch_point`): the contact byte — bit 7
    /// set when no finger is down, the finger's id in the low 7 bits — then x and y, 12 bits
    /// each, packed little-endian in three bytes. Out of 0…1 (or NaN) is the edge (or 0).
    private static func putTouch(_ r: inout [UInt8], _ at: Int, _ finger: TouchState.Finger?) {
        guard let f = finger else {
            r[at] = 0x80; r[at + 1] = 0; r[at + 2] = 0; r[at + 3] = 0
            return
        }
        func scaled(_ v: Float, _ size: Int) -> Int { v.isFinite ? Int((min(max(v, 0), 1) * Float(size - 1)).rounded()) : 0 }
        let x = scaled(f.x, touchWidth), y = scaled(f.y, touchHeight)
        r[at] = f.id & 0x7F
        r[at + 1] = UInt8(x & 0xFF)
        r[at + 2] = UInt8((x >> 8) & 0x0F) | UInt8((y & 0x0F) << 4)
        r[at + 3] = UInt8((y >> 4) & 0xFF)
    }

    private static func put16(_ r: inout [UInt8], _ at: Int, _ v: Int16) {
        let u = UInt16(bitPattern: v)
        r[at] = UInt8(u & 0xFF)
        r[at + 1] = UInt8(u >> 8)
    }
}
