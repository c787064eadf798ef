import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// hid-nintendo's MSC_TIMESTAMP is made up from a whole-millisecond average of jiffies: in
/// the guest stage a Pro Controller sending every 15 ms was stamped 14 ms per report (three
/// samples 4666 µs apart), a clock 6.7% slow. The decoder times such a driver's reports by
/// the kernel's event time and spaces each report's samples by the driver's step
/// (`LocalPadDriver.timesReportsByKernel`, docs/LOCAL-PADS.md).
@Suite struct LocalPadKernelTimeTests {
    static let degree = Float.pi / 180

    func switchPro() throws -> LocalPadMotionDecoder {
        var axes: [UInt16: EvdevAbsInfo] = [:]
        for c in EvdevCode.motionAxes {
            axes[c] = EvdevAbsInfo(minimum: -32_767_000, maximum: 32_767_000, resolution: c <= EvdevCode.absZ ? 4096 : 14247)
        }
        return try LocalPadMotionDecoder(driver: .nintendo, axes: axes)
    }

    /// One sample as hid-nintendo sends it: ABS_RZ, MSC_TIMESTAMP, SYN_REPORT at `time` µs.
    func sample(_ stamp: UInt32, time: Int64, rz: Int32) -> [EvdevInputEvent] {
        [EvdevInputEvent(timeMicros: time, type: EvdevCode.absType, code: EvdevCode.absRZ, value: rz),
         EvdevInputEvent(timeMicros: time, type: EvdevCode.mscType, code: EvdevCode.mscTimestamp, value: Int32(bitPattern: stamp)),
         EvdevInputEvent(timeMicros: time, type: EvdevCode.synType, code: EvdevCode.synReport, value: 0)]
    }

    /// `count` reports every `interval` µs of kernel time, their three samples 30 µs apart
    /// and stamped `driverStep` µs apart, turning at `rz` (ABS units) from report `turnFrom`.
    func reports(_ count: Int, interval: Int64, driverStep: UInt32, rz: Int32, turnFrom: Int = 0,
                 into d: inout LocalPadMotionDecoder) -> [MotionSample] {
        var out: [MotionSample] = []
        var stamp: UInt32 = 0
        for r in 0..<count {
            for s in 0..<3 {
                out += d.feed(sample(stamp, time: 1_000_000 + Int64(r) * interval + Int64(s) * 30, rz: r >= turnFrom ? rz : 0))
                stamp &+= driverStep
            }
        }
        return out
    }

    @Test func aSwitchProsReportsTakeTheKernelsTimeNotTheDriversAverage() throws {
        var d = try switchPro()
        let s = reports(101, interval: 15_000, driverStep: 4666, rz: 0, into: &d)
        #expect(s.count == 303)
        // Report to report: the kernel's 15 ms; within a report: the driver's 4666 µs.
        let firsts = stride(from: 0, to: s.count, by: 3).map { s[$0].timestampMicros }
        #expect(firsts.last! - firsts.first! == 1_500_000)
        #expect(s[1].timestampMicros - s[0].timestampMicros == 4666)
        #expect(s[2].timestampMicros - s[1].timestampMicros == 4666)
        #expect(s[3].timestampMicros - s[2].timestampMicros == 15_000 - 2 * 4666)
        #expect(d.counters.counts.isEmpty)
    }

    @Test func aTurnIntegratesToTheKernelsTimeWhateverTheDriversAverage() throws {
        for driverStep: UInt32 in [4666, 5000, 5333] {          // averages of 14, 15 and 16 ms
            var d = try switchPro()
            // 20 still reports, then 100 turning right at 90 °/s (−Z): 1.5 s of kernel time.
            let s = reports(120, interval: 15_000, driverStep: driverStep, rz: -90 * 14247, turnFrom: 20, into: &d)
            var degrees: Double = 0
            for (a, b) in zip(s, s.dropFirst()) {
                degrees += Double((b.gyro?.z ?? 0) / Self.degree) * Double(b.timestampMicros - a.timestampMicros) / 1e6
            }
            #expect(abs(degrees + 135) < 0.01, "driver step \(driverStep): \(degrees)°, want −135°")
        }
    }

    @Test func theSameFramesOfTheSonyDriversKeepThePadsClock() throws {
        var axes: [UInt16: EvdevAbsInfo] = [:]
        for c in EvdevCode.motionAxes { axes[c] = EvdevAbsInfo(minimum: -1 << 22, maximum: 1 << 22, resolution: 1024) }
        var d = try LocalPadMotionDecoder(driver: .playstation, axes: axes)
        let s = reports(11, interval: 15_000, driverStep: 4666, rz: 0, into: &d)
        #expect(s.last!.timestampMicros - s.first!.timestampMicros == 32 * 4666)
    }

    @Test func aSpreadLongerThanTheReportNeverGoesBack() throws {
        var d = try switchPro()
        // Reports 8 ms apart stamped 5 ms per sample (a driver still at its 15 ms default on a
        // pad sending faster): each report's first sample waits 1 µs, time never goes back.
        let s = reports(10, interval: 8_000, driverStep: 5000, rz: 0, into: &d)
        #expect(s.count == 30)
        #expect(zip(s, s.dropFirst()).allSatisfy { $1.timestampMicros > $0.timestampMicros })
    }

    /// A starved writer (the guest stage's emulator beside two busy cores read a Switch Pro's
    /// turn 6.7% long) sends a report late, right before the next: within 2 ms, the two look
    /// like one report of six samples, and the driver's steps ran the timeline 10 ms past the
    /// kernel's clock each time. The next reports pay it back.
    @Test func reportsInABurstDoNotRunTheTimelineAhead() throws {
        var d = try switchPro()
        var out: [MotionSample] = []
        var stamp: UInt32 = 0
        var firsts: [Int64] = []
        for r in 0..<120 {
            // Every 5th report of the first 100 is 14 ms late: 1 ms before the next one.
            let at = 1_000_000 + Int64(r) * 15_000 + (r < 100 && r % 5 == 3 ? 14_000 : 0)
            firsts.append(at)
            for s in 0..<3 {
                out += d.feed(sample(stamp, time: at + Int64(s) * 30, rz: -90 * 14247))
                stamp &+= 5000
            }
        }
        #expect(out.count == 360)
        #expect(out[357].timestampMicros - out[0].timestampMicros == UInt64(firsts[119] - firsts[0]),
                "over the run the timeline advanced by the kernel's time")
        var degrees: Double = 0
        for (a, b) in zip(out, out.dropFirst()) {
            degrees += Double((b.gyro?.z ?? 0) / Self.degree) * Double(b.timestampMicros - a.timestampMicros) / 1e6
        }
        #expect(abs(degrees + 90 * Double(firsts[119] - firsts[0] + 10_000) / 1e6) < 0.01, "\(degrees)°")
        #expect(zip(out, out.dropFirst()).allSatisfy { $1.timestampMicros > $0.timestampMicros })
    }

    @Test func aRepeatedStampWithinAReportIsNoSample() throws {
        var d = try switchPro()
        _ = d.feed(sample(0, time: 1_000_000, rz: 0))
        let s = d.feed(sample(0, time: 1_000_030, rz: 0))
        #expect(s.isEmpty)
        #expect(d.counters.timestampRepeated == 1)
        #expect(d.feed(sample(5000, time: 1_000_060, rz: 0)).count == 1)
    }

    /// The times are the device's to make (a UHID device can be anyone's): event times at the
    /// ends of Int64 and stamps at the ends of UInt32 are data, nothing on them traps.
    @Test func extremeTimesAndStampsNeverTrap() throws {
        var d = try switchPro()
        let times: [Int64] = [0, .max, .min, .max - 1, 1, .min + 1, .max, .max, 0]
        let stamps: [UInt32] = [0, .max, 1, 0x8000_0000, .max, 0, 7, 7, .max]
        for (t, st) in zip(times, stamps) { _ = d.feed(sample(st, time: t, rz: 1000)) }
        // A stream faster than the driver's "same report" window, for long, keeps its steps summed.
        for i in 0..<10_000 { _ = d.feed(sample(UInt32(truncatingIfNeeded: i) &* 0x7FFF_FFFF, time: Int64(i) * 10, rz: 0)) }
        #expect(d.feed(sample(3, time: 1_000_000_000, rz: 0)).count <= 1)
    }
}
