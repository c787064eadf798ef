import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Each driver's Motion Sensors node as Remotion's motion, with exact numbers from the
/// kernel drivers' documented resolutions (docs/LOCAL-PADS.md).
@Suite struct LocalPadMotionTests {
    static let degree = Float.pi / 180

    func axes(accel: Int32, gyro: Int32, range: Int32 = 1 << 22) -> [UInt16: EvdevAbsInfo] {
        var out: [UInt16: EvdevAbsInfo] = [:]
        for c in EvdevCode.motionAxes {
            out[c] = EvdevAbsInfo(minimum: -range, maximum: range, resolution: c <= EvdevCode.absZ ? accel : gyro)
        }
        return out
    }

    func frame(_ ts: UInt32?, _ values: [UInt16: Int32], time: Int64 = 0) -> [EvdevInputEvent] {
        var e = values.sorted { $0.key < $1.key }.map { EvdevInputEvent(timeMicros: time, type: EvdevCode.absType, code: $0.key, value: $0.value) }
        if let ts { e.append(EvdevInputEvent(timeMicros: time, type: EvdevCode.mscType, code: EvdevCode.mscTimestamp, value: Int32(bitPattern: ts))) }
        e.append(EvdevInputEvent(timeMicros: time, type: EvdevCode.synType, code: EvdevCode.synReport, value: 0))
        return e
    }

    func close(_ a: Vector3?, _ b: Vector3, _ tolerance: Float = 1e-5) -> Bool {
        guard let a else { return false }
        return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance && abs(a.z - b.z) <= tolerance
    }

    /// hid-playstation: 1024 per °/s, 8192 per g; a flat pad reads +1 g on ABS_Y.
    @Test func dualSenseFlatAndTurning() throws {
        var d = try LocalPadMotionDecoder(driver: .playstation, axes: axes(accel: 8192, gyro: 1024))
        let s = d.feed(frame(1000, [EvdevCode.absY: 8192, EvdevCode.absRX: 30 * 1024, EvdevCode.absRY: -90 * 1024,
                                    EvdevCode.absRZ: 45 * 1024]))
        #expect(s.count == 1)
        #expect(close(s.first?.acceleration, Vector3(x: 0, y: 0, z: 1)))        // flat: 1 g up
        // pitch 30 stays pitch; the pad's yaw (ABS_RY, −90: turning right) is Remotion's z;
        // its roll axis points at the player, so Remotion's y (forward) is −RZ.
        #expect(close(s.first?.gyro, Vector3(x: 30 * Self.degree, y: -45 * Self.degree, z: -90 * Self.degree)))
    }

    /// hid-nintendo: 14247 per °/s (×1000 scaled), 4096 per g; X toward the triggers, Y left, Z up.
    @Test func switchProFlatAndTurning() throws {
        var d = try LocalPadMotionDecoder(driver: .nintendo, axes: axes(accel: 4096, gyro: 14247, range: 32_767_000))
        let s = d.feed(frame(15_000, [EvdevCode.absZ: 4096, EvdevCode.absRZ: 90 * 14247, EvdevCode.absRX: 10 * 14247]))
        #expect(close(s.first?.acceleration, Vector3(x: 0, y: 0, z: 1)))
        // Turning left about Z (up) is Remotion's +z; rolling about X (forward) is Remotion's y.
        #expect(close(s.first?.gyro, Vector3(x: 0, y: 10 * Self.degree, z: 90 * Self.degree)))
        // Tilted onto its left side: gravity's reaction along +Y (left) is Remotion's −x.
        let t = d.feed(frame(20_000, [EvdevCode.absZ: 0, EvdevCode.absY: 4096, EvdevCode.absRZ: 0, EvdevCode.absRX: 0]))
        #expect(close(t.first?.acceleration, Vector3(x: -1, y: 0, z: 0)))
    }

    /// hid-steam (Deck): 16 per °/s, 16384 per g, hid-playstation's frame.
    @Test func steamDeckUsesTheDualSenseFrame() throws {
        var d = try LocalPadMotionDecoder(driver: .steam, axes: axes(accel: 16384, gyro: 16, range: 32768))
        let s = d.feed(frame(4000, [EvdevCode.absY: 16384, EvdevCode.absRY: 16 * 20]))
        #expect(close(s.first?.acceleration, Vector3(x: 0, y: 0, z: 1)))
        #expect(close(s.first?.gyro, Vector3(x: 0, y: 0, z: 20 * Self.degree)))
    }

    @Test func unitsComeFromTheResolutionNeverAssumed() throws {
        var a = axes(accel: 8192, gyro: 1024)
        a[EvdevCode.absRY]?.resolution = 0
        #expect(throws: LocalPadError.self) { try LocalPadMotionDecoder(driver: .playstation, axes: a) }
        a[EvdevCode.absRY] = nil
        #expect(throws: LocalPadError.self) { try LocalPadMotionDecoder(driver: .playstation, axes: a) }
        // A driver with twice the resolution reads half the rate for the same value.
        var d = try LocalPadMotionDecoder(driver: .playstation, axes: axes(accel: 8192, gyro: 2048))
        #expect(close(d.feed(frame(1, [EvdevCode.absRY: 2048])).first?.gyro, Vector3(x: 0, y: 0, z: Self.degree)))
    }

    @Test func timestampStepsWrapAroundAt32Bits() throws {
        var d = try LocalPadMotionDecoder(driver: .playstation, axes: axes(accel: 8192, gyro: 1024))
        let a = d.feed(frame(0xFFFF_FF00, [:], time: 5_000_000))
        let b = d.feed(frame(0x0000_0100, [:], time: 5_000_600))
        #expect(a.first?.timestampMicros == 5_000_000)                       // starts at the kernel's time
        #expect(b.first?.timestampMicros == 5_000_000 + 0x200)               // 512 µs across the wrap
        #expect(d.counters == LocalPadCounters())
    }

    @Test func timestampGoingBackIsCountedAndRestartsWithAGap() throws {
        var d = try LocalPadMotionDecoder(driver: .playstation, axes: axes(accel: 8192, gyro: 1024))
        _ = d.feed(frame(10_000, [:], time: 1_000))
        let back = d.feed(frame(9_000, [:]))
        let next = d.feed(frame(13_000, [:]))
        #expect(back.first?.timestampMicros == 1_000 + LocalPadMotionDecoder.restartGapMicros)
        #expect(next.first?.timestampMicros == 1_000 + LocalPadMotionDecoder.restartGapMicros + 4_000)
        #expect(d.counters.timestampBackwards == 1)
        // The same timestamp twice: no time passed, no sample.
        #expect(d.feed(frame(13_000, [EvdevCode.absRY: 5])).isEmpty)
        #expect(d.counters.timestampRepeated == 1)
    }

    @Test func droppedFramesAreDiscardedAndOutOfRangeClamped() throws {
        var d = try LocalPadMotionDecoder(driver: .playstation, axes: axes(accel: 8192, gyro: 1024, range: 100_000))
        _ = d.feed(frame(1_000, [:]))
        var garbage = [EvdevInputEvent(type: EvdevCode.absType, code: EvdevCode.absRY, value: 777),
                       EvdevInputEvent(type: EvdevCode.synType, code: EvdevCode.synDropped, value: 0)]
        garbage += frame(2_000, [EvdevCode.absRY: 555])       // discarded up to its SYN_REPORT
        #expect(d.feed(garbage).isEmpty)
        #expect(d.counters.droppedByKernel == 1)
        d.resync(values: [EvdevCode.absRY: 1024])
        let s = d.feed(frame(3_000, [EvdevCode.absRX: 5_000_000]))
        #expect(d.counters.outOfRange == 1)
        #expect(close(s.first?.gyro, Vector3(x: Float(100_000) / 1024 * Self.degree, y: 0, z: Self.degree), 1e-4))
        #expect(d.counters.counts == [.droppedByKernel: 1, .outOfRange: 1])
    }

    /// The guest saw this under load: the reader came back to a full buffer (SYN_DROPPED,
    /// then 63 frames of a steady turn: MSC_TIMESTAMP and SYN_REPORT only, the turn's one
    /// ABS change among the dropped). Those frames are read against the node's reread
    /// state, not the values from before the drop.
    @Test func framesQueuedBehindADropReadTheRereadState() throws {
        var pad = try LocalPad(driver: .playstation, motionAxes: axes(accel: 8192, gyro: 1024))
        _ = pad.motionEvents(frame(1_000, [:]))
        var queued = [EvdevInputEvent(type: EvdevCode.absType, code: EvdevCode.absRY, value: 0),
                      EvdevInputEvent(type: EvdevCode.synType, code: EvdevCode.synDropped, value: 0)]
        queued += frame(2_000, [EvdevCode.absRY: 7])            // partial: discarded
        queued += frame(3_000, [:]) + frame(4_000, [:])
        var asked = 0
        let events = pad.motionEvents(queued) {
            asked += 1
            return [EvdevCode.absY: 8192, EvdevCode.absRY: -90 * 1024]
        }
        #expect(asked == 1)
        let samples = events.compactMap { if case .sample(let s) = $0 { s } else { nil } }
        #expect(samples.count == 2)
        for s in samples {
            #expect(close(s.gyro, Vector3(x: 0, y: 0, z: -90 * Self.degree)))
            #expect(close(s.acceleration, Vector3(x: 0, y: 0, z: 1)))
        }
        #expect(pad.counters.droppedByKernel == 1)
        // No drop: the state is not asked.
        _ = pad.motionEvents(frame(5_000, [:])) { asked += 1; return [:] }
        #expect(asked == 1)
    }

    @Test func framesWithoutTimestampUseTheEventTime() throws {
        var d = try LocalPadMotionDecoder(driver: .playstation, axes: axes(accel: 8192, gyro: 1024))
        let a = d.feed(frame(nil, [:], time: 100))
        let b = d.feed(frame(nil, [:], time: 4_100))
        #expect(a.first?.timestampMicros == 100)
        #expect(b.first?.timestampMicros == 4_100)
        #expect(d.counters.noTimestamp == 2)
    }

    @Test func rawBytesDecodeAsInputEvents() {
        var bytes: [UInt8] = []
        for v: UInt64 in [2, 500] { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        bytes += [0x04, 0x00, 0x05, 0x00]; withUnsafeBytes(of: Int32(-7).littleEndian) { bytes += $0 }
        let events = EvdevInputEvent.decode(bytes + [1, 2, 3])   // a trailing partial event is ignored
        #expect(events == [EvdevInputEvent(timeMicros: 2_000_500, type: EvdevCode.mscType, code: EvdevCode.mscTimestamp, value: -7)])
        var abs: [UInt8] = []
        for v: Int32 in [3, -100, 100, 16, 0, 1024] { withUnsafeBytes(of: v.littleEndian) { abs += $0 } }
        #expect(EvdevAbsInfo(bytes: abs) == EvdevAbsInfo(value: 3, minimum: -100, maximum: 100, fuzz: 16, resolution: 1024))
        #expect(EvdevAbsInfo(bytes: Array(abs.prefix(20))) == nil)
    }
}
