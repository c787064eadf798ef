import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The report codec: CRC, every field's offset, the descriptor's sizes, the timestamp.
@Suite struct DualSenseReportTests {
    func motion(_ gx: Float, _ gy: Float, _ gz: Float, at ms: Int64) -> GamepadState.Motion {
        .init(angularRate: Vector3(x: gx, y: gy, z: gz), acceleration: Vector3(x: 0.5, y: -1, z: 0.25),
              time: .milliseconds(ms))
    }

    func le16(_ r: [UInt8], _ at: Int) -> Int16 { Int16(bitPattern: UInt16(r[at]) | UInt16(r[at + 1]) << 8) }
    func le32(_ r: [UInt8], _ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(r[at + $1]) << (8 * UInt32($1)) } }

    @Test func crcMatchesVectorsComputedByZlib() {
        // Expected values from Python's zlib.crc32, independent of this code.
        #expect(DualSenseCRC.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(DualSenseCRC.crc32(seed: 0xA1, ArraySlice((0..<74).map { UInt8($0) })) == 0xE8E5_C431)
        #expect(DualSenseCRC.crc32(seed: 0xA3, ArraySlice([0x09] + [UInt8](repeating: 0, count: 15))) == 0xD321_5DF5)
    }

    @Test func bluetoothReportCarriesEveryField() {
        var encoder = DualSenseInputReport(bus: .bluetooth)
        let state = GamepadState(
            leftStick: .init(x: -1, y: 1), rightStick: .init(x: 0.5, y: 0), leftTrigger: 1, rightTrigger: 0.5,
            buttons: [.cross, .triangle, .l1, .r3, .ps, .touchpad], dpad: [.up, .right],
            motion: motion(90, -45, 12.5, at: 10))
        let r = encoder.encode(state)
        #expect(r.count == 78)
        #expect(r[0] == 0x31)
        #expect(Array(r[2...7]) == [0, 255, 191, 128, 255, 128])
        #expect(r[8] == 0)                                  // sequence
        #expect(r[9] == 0x01 | 0x20 | 0x80)                 // hat up-right, cross, triangle
        #expect(r[10] == 0x01 | 0x80)                       // L1, R3
        #expect(r[11] == 0x03)                              // PS, touchpad click
        #expect(le16(r, 17) == 1800)                        // gyro x: 90 °/s × 20
        #expect(le16(r, 19) == -900)
        #expect(le16(r, 21) == 250)
        #expect(le16(r, 23) == 5000)                        // accel x: 0.5 g × 10000
        #expect(le16(r, 25) == -10000)
        #expect(le16(r, 27) == 2500)
        #expect(le32(r, 29) == DualSenseSensorClock.startTicks)   // the first report's timestamp
        #expect(r[34] & 0x80 != 0 && r[38] & 0x80 != 0)     // no touch
        #expect(DualSenseCRC.isSigned(r, seed: DualSenseCRC.inputSeed))
        let second = encoder.encode(state)
        #expect(second[8] == 1)
    }

    /// The per-sample path reuses one buffer: the same bytes as a fresh report, whatever the
    /// buffer held before (a busy state, then the rest state), on both buses.
    @Test func aReusedBufferGivesTheSameReportAsAFreshOne() {
        for bus in [DualSenseBus.bluetooth, .usb] {
            var fresh = DualSenseInputReport(bus: bus), reused = DualSenseInputReport(bus: bus)
            let busy = GamepadState(leftStick: .init(x: 1, y: -1), leftTrigger: 1, buttons: [.cross, .ps], dpad: [.down],
                                    motion: motion(500, -500, 500, at: 1))
            var buffer = [UInt8](repeating: 0xEE, count: 3)   // the wrong size: made anew once
            for state in [busy, busy.rest(at: Instant(nanoseconds: 2_000_000_000)), busy] {
                reused.encode(state, into: &buffer)
                #expect(buffer == fresh.encode(state))
            }
        }
        var pad = DualSensePad(identity: "reuse")
        var report: [UInt8] = []
        #expect(!pad.input(GamepadState(motion: .still(at: .zero)), into: &report) && report.isEmpty, "nothing before the kernel's START")
        _ = pad.handle(.start)
        #expect(pad.input(GamepadState(motion: .still(at: .zero)), into: &report) && report.count == 78 && pad.counters.reportsSent == 1)
    }

    /// Two fingers on the touchpad (hid-playstation's `dualsense_touch_point`: contact byte
    /// with the id, bit 7 set when up; x and y 12 bits each over 1920 × 1080), the edges, and
    /// values from outside the pad (clamped) or not numbers (0).
    @Test func touchesAreTheDriversTouchPoints() {
        var encoder = DualSenseInputReport(bus: .bluetooth)
        var state = GamepadState(motion: motion(0, 0, 0, at: 1))
        state.touch = TouchState(first: .init(id: 5, x: 0.5, y: 0.25), second: .init(id: 0x86, x: 1, y: 1))
        var r = encoder.encode(state)
        func point(_ at: Int) -> (contact: UInt8, x: Int, y: Int) {
            (r[at], Int(r[at + 1]) | Int(r[at + 2] & 0x0F) << 8, Int(r[at + 2] >> 4) | Int(r[at + 3]) << 4)
        }
        #expect(point(34) == (5, 960, 270))              // 0.5 × 1919 rounds to 960, 0.25 × 1079 to 270
        #expect(point(38) == (0x06, 1919, 1079))         // the id's bit 7 is the driver's "up" flag: dropped
        #expect(DualSenseCRC.isSigned(r, seed: DualSenseCRC.inputSeed))
        state.touch = TouchState(first: .init(id: 1, x: -3, y: .nan))
        r = encoder.encode(state)
        #expect(point(34) == (1, 0, 0) && r[38] == 0x80)
        #expect(encoder.encode(state.rest(at: Instant(nanoseconds: 2_000_000_000)))[34] == 0x80, "rest: no finger")
    }

    @Test func usbReportIsTheSameFieldsOneByteEarlierWithoutCRC() {
        var encoder = DualSenseInputReport(bus: .usb)
        let r = encoder.encode(GamepadState(rightTrigger: 1, buttons: [.square, .options], dpad: [.left],
                                            motion: motion(-1, 2, 3, at: 0)))
        #expect(r.count == 64)
        #expect(r[0] == 0x01)
        #expect(Array(r[1...6]) == [128, 128, 128, 128, 0, 255])
        #expect(r[8] == 6 | 0x10)
        #expect(r[9] == 0x20)
        #expect(le16(r, 16) == -20 && le16(r, 18) == 40 && le16(r, 20) == 60)
        #expect(Array(r[60...63]) == [0, 0, 0, 0])
    }

    @Test func valuesOutOfRangeAreClamped() {
        #expect(DualSenseInputReport.axis(7) == 255)
        #expect(DualSenseInputReport.axis(-.infinity) == 128)
        #expect(DualSenseInputReport.trigger(-1) == 0)
        #expect(DualSenseInputReport.sensor(5000, DualSenseUnits.gyroPerDegreePerSecond) == 32767)
        #expect(DualSenseInputReport.sensor(.nan, DualSenseUnits.accelPerG) == 0)
    }

    @Test func hatCoversEveryDirection() {
        let cases: [(GamepadDPad, UInt8)] = [
            ([.up], 0), ([.up, .right], 1), ([.right], 2), ([.down, .right], 3), ([.down], 4),
            ([.down, .left], 5), ([.left], 6), ([.up, .left], 7), ([], 8), ([.up, .down], 8),
        ]
        for (dpad, hat) in cases { #expect(dpad.hat == hat) }
    }

    @Test func timestampAlwaysAdvances() {
        var clock = DualSenseSensorClock()
        let times: [Int64] = [0, 4_000_000, 4_000_000, 3_000_000, 8_000_000, 8_000_100]
        var previous: UInt32?
        var seen: [UInt32] = []
        for ns in times {
            let t = clock.ticks(at: Instant(nanoseconds: 1_000_000_000 + ns))
            if let previous { #expect(t >= previous + 3) }
            previous = t
            seen.append(t)
        }
        let start = DualSenseSensorClock.startTicks
        #expect(seen[0] == start)
        #expect(seen[1] == start + 12_000)          // 4 ms in thirds of a µs
        #expect(seen[2] == start + 12_003)          // the same sample time: one µs on
        #expect(seen[3] == start + 12_006)          // an older sample time: one µs on
        #expect(seen[4] == start + 24_006)          // 4 ms after the newest time before it
    }

    /// SDL (Bluetooth) sends a game's lightbar colour only once the pad's sensor timestamp has
    /// reached 10,200,000 (its "connection LED animation complete"); a real pad is past it when
    /// a game opens it, and so is the virtual one from its first report.
    @Test func firstTimestampIsPastSDLsLightbarWait() {
        var clock = DualSenseSensorClock()
        #expect(clock.ticks(at: Instant(nanoseconds: 0)) >= 10_200_000)
    }

    /// Times from outside (issue: a far-future timestamp trapped the host in this clock): a
    /// step is clamped to 1 µs … 1 s before it is scaled, whatever the two times were.
    @Test func timestampSurvivesAnyTime() {
        var clock = DualSenseSensorClock()
        let times: [Int64] = [0, 4_000_000_000_000_000, .max, .min, .max, 0, 1_000, .min]
        var seen: [UInt32] = []
        for ns in times { seen.append(clock.ticks(at: Instant(nanoseconds: ns))) }
        let start = DualSenseSensorClock.startTicks
        #expect(seen[0] == start)
        #expect(seen[1] == start + 3_000_000)       // a jump of 4e15 ns: one second on
        #expect(seen[2] == start + 6_000_000)       // to Int64.max: one second more
        #expect(seen[3] == start + 6_000_003)       // back to Int64.min: one µs
        #expect(seen[7] == start + 6_000_000 + 3 * 5)
    }

    @Test func descriptorDeclaresEveryReportWithItsSize() {
        for bus in DualSenseBus.allCases {
            let sizes = DescriptorReader.reportSizes(DualSenseDescriptor.bytes(for: bus))
            #expect(sizes[.feature(0x05)] == 41)
            #expect(sizes[.feature(0x09)] == 20)
            #expect(sizes[.feature(0x20)] == 64)
            if bus == .bluetooth {
                #expect(sizes[.input(0x31)] == 78)
                #expect(sizes[.output(0x31)] == 78)
                #expect(sizes[.input(0x01)] == 10)
            } else {
                #expect(sizes[.input(0x01)] == 64)
                #expect(sizes[.output(0x02)] == 63)
            }
        }
    }
}

/// A small HID descriptor reader for the test: bytes per report (id included), from
/// Report ID, Report Size, Report Count and the main items.
enum DescriptorReader {
    enum Key: Hashable { case input(UInt8), output(UInt8), feature(UInt8) }

    static func reportSizes(_ d: [UInt8]) -> [Key: Int] {
        var bits: [Key: Int] = [:]
        var id: UInt8 = 0, size = 0, count = 0, i = 0
        while i < d.count {
            let prefix = d[i], length = [0, 1, 2, 4][Int(prefix & 3)]
            var value = 0
            for k in 0..<length { value |= Int(d[i + 1 + k]) << (8 * k) }
            switch prefix & 0xFC {
            case 0x84: id = UInt8(value)
            case 0x74: size = value
            case 0x94: count = value
            case 0x80: bits[.input(id), default: 0] += size * count
            case 0x90: bits[.output(id), default: 0] += size * count
            case 0xB0: bits[.feature(id), default: 0] += size * count
            default: break
            }
            i += 1 + length
        }
        return bits.mapValues { $0 / 8 + 1 }
    }
}
