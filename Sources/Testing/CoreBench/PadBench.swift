#if canImport(Glibc)
import Glibc
import RemotionHostLogic
import RemotionProtocol

/// The virtual pad's cost per controller sample, in process: GamepadFeed
/// (frame, units, gyro as the right stick) then DualSensePad's Bluetooth input report
/// (78 bytes with its CRC-32), and the report written to /dev/null as a stand-in for
/// /dev/uhid (this machine's kernel has none; the write's syscall is what remains). Beside
/// the pointer path's `core plain` in the same run.
enum PadBench {
    static func measure(samples count: Int, rounds: Int) -> Double {
        let samples = (0..<count).map { i in
            MotionSample(timestampMicros: UInt64(i) * 4_000,
                         gyro: Vector3(x: 0.1, y: Float(i % 100) / 50 - 1, z: -0.2),
                         acceleration: Vector3(x: 0, y: 0, z: 1))
        }
        let sink = open("/dev/null", O_WRONLY)
        defer { close(sink) }
        var results: [Double] = []
        var bytes = 0
        for _ in 0..<rounds {
            var feed = GamepadFeed(gyroStick: GyroStick(), at: .zero)
            var pad = DualSensePad(identity: "bench")
            _ = pad.handle(.start)
            var report: [UInt8] = []   // reused, as UHIDDualSense reuses its buffers
            let t0 = nanos()
            for s in samples {
                guard pad.input(feed.motion(s), into: &report) else { continue }
                bytes += report.withUnsafeBytes { write(sink, $0.baseAddress, $0.count) }
            }
            results.append(Double(nanos() - t0) / Double(count))
        }
        let median = results.sorted()[rounds / 2]
        print("core pad: \(String(format: "%.0f", median)) ns per sample (feed, Bluetooth report with CRC, write to /dev/null), "
              + "\(bytes / max(1, count * rounds)) bytes per report (median of \(rounds) rounds)")
        return median
    }
}
#endif
