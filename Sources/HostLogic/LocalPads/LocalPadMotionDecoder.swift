import RemotionProtocol

/// Why a pad's motion node cannot be read as it is, in one line with what it lacks.
package struct LocalPadError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// What a node sent that Remotion could not use, counted by kind (never a crash).
package struct LocalPadCounters: Sendable, Equatable {
    /// SYN_DROPPED: the kernel's buffer overflowed; the frame is discarded and the state reread.
    package var droppedByKernel = 0
    /// SYN_DROPPED on the gamepad node: its state is reread, and a press and release both
    /// inside the lost events are gone (the kernel's loss; counted so that it shows).
    package var buttonsDroppedByKernel = 0
    /// MSC_TIMESTAMP went backwards (not a wraparound): the sample restarts the timeline with a gap.
    package var timestampBackwards = 0
    /// The same MSC_TIMESTAMP twice: no time passed, the frame is not a sample.
    package var timestampRepeated = 0
    /// A frame without MSC_TIMESTAMP: its time is the kernel's event time.
    package var noTimestamp = 0
    /// An axis value outside the range EVIOCGABS gave: clamped.
    package var outOfRange = 0
    /// A read that was not a whole number of input events (evdev never does this).
    package var partialReads = 0
    /// A game's light this user may not write to the pad's LEDs (EACCES/EPERM: `LocalPadLight`).
    package var lightDenied = 0
    /// The furthest the reader fell behind the pad: from the oldest event of a read to the
    /// read, µs (both CLOCK_MONOTONIC). Not a drop; the pad's end line says it when it is
    /// long enough to have lost frames (`LocalPadCounters.lagWorthSaying`).
    package var longestReadLagMicros: Int64 = 0
    /// A kernel buffer holds about 60 frames, so a reader this far behind may have lost some.
    package static let lagWorthSayingMicros: Int64 = 100_000

    package init() {}

    /// Non-zero counts by reason, for the status's drops and the stop line.
    package var counts: [LocalPadDrop: Int] {
        let all: [LocalPadDrop: Int] = [.droppedByKernel: droppedByKernel, .buttonsDroppedByKernel: buttonsDroppedByKernel,
                                        .timestampBackwards: timestampBackwards,
                                        .timestampRepeated: timestampRepeated, .noTimestamp: noTimestamp,
                                        .outOfRange: outOfRange, .partialRead: partialReads, .lightDenied: lightDenied]
        return all.filter { $0.value > 0 }
    }
}

/// Why a local pad's input was dropped or could not be used (`LocalPadCounters`), and the
/// host falling behind a pad; the words are the status's and the stop line's.
package enum LocalPadDrop: String, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case droppedByKernel = "dropped-by-kernel"
    case buttonsDroppedByKernel = "buttons-dropped-by-kernel"
    case timestampBackwards = "timestamp-backwards"
    case timestampRepeated = "timestamp-repeated"
    case noTimestamp = "no-timestamp"
    case outOfRange = "out-of-range"
    case partialRead = "partial-read"
    case lightDenied = "light-denied"
    /// The host's loop fell behind a pad by more button edges than its inbox holds: the oldest dropped.
    case hostBehind = "host-behind"

    package var description: String { rawValue }
}

/// A "Motion Sensors" evdev node's events as Remotion's motion: sans-IO. Keeps each axis's
/// last value (evdev sends only what changed), converts with the resolution EVIOCGABS gave
/// at open and the driver's frame (`LocalPadDriver`), and times each frame by MSC_TIMESTAMP:
/// the u32 µs counter's difference modulo 2³² (so its wraparound, every ~71.6 min, is one
/// ordinary step), accumulated into a 64-bit timeline that never goes back.
package struct LocalPadMotionDecoder: Sendable {
    /// A timestamp that went back starts again this far ahead: the mapper sees a gap
    /// (over its 0.5 s resync) and restarts instead of integrating a bogus step.
    package static let restartGapMicros: UInt64 = 1_000_000

    package let driver: LocalPadDriver
    private let info: [EvdevAbsInfo]          // X, Y, Z, RX, RY, RZ
    private var values: [Int32]
    private var pendingTimestamp: UInt32?
    private var lastTimestamp: UInt32?
    private var lastEventTime: Int64?
    private var timeline: UInt64?
    private var reportStart: Int64 = 0          // timesReportsByKernel: the event time of the report's first sample
    private var reportSpread: UInt64 = 0        // … and how far its later samples moved the timeline
    private var ahead: Int64 = 0                // … and how far the timeline ran past the kernel's clock (≤ maxAhead)
    private var discarding = false
    private var changed = false
    package private(set) var counters = LocalPadCounters()
    package private(set) var frames = 0

    /// `axes`: EVIOCGABS of ABS_X…ABS_RZ. Every axis needs a resolution: Remotion never
    /// assumes one driver's units.
    package init(driver: LocalPadDriver, axes: [UInt16: EvdevAbsInfo]) throws(LocalPadError) {
        var info: [EvdevAbsInfo] = []
        for code in EvdevCode.motionAxes {
            guard let a = axes[code] else { throw LocalPadError("has no \(Self.axisName(code)) axis") }
            guard a.resolution > 0 else {
                throw LocalPadError("reports no resolution for \(Self.axisName(code)) (EVIOCGABS), so its units are unknown")
            }
            info.append(a)
        }
        self.driver = driver
        self.info = info
        values = info.map(\.value)
    }

    package static func axisName(_ code: UInt16) -> String {
        ["ABS_X", "ABS_Y", "ABS_Z", "ABS_RX", "ABS_RY", "ABS_RZ"][Int(min(code, 5))]
    }

    /// Feeds events; returns one sample per complete frame (SYN_REPORT), its buttons and
    /// analog state left empty for the caller.
    package mutating func feed(_ events: [EvdevInputEvent]) -> [MotionSample] {
        var out: [MotionSample] = []
        for e in events {
            switch (e.type, e.code) {
            case (EvdevCode.synType, EvdevCode.synDropped):
                counters.droppedByKernel += 1
                discarding = true
                pendingTimestamp = nil
            case (EvdevCode.synType, EvdevCode.synReport):
                if discarding {
                    discarding = false
                    continue
                }
                if let s = frame(eventTime: e.timeMicros) { out.append(s) }
            case _ where discarding:
                continue
            case (EvdevCode.mscType, EvdevCode.mscTimestamp):
                pendingTimestamp = UInt32(bitPattern: e.value)
            case (EvdevCode.absType, let code) where code <= EvdevCode.absRZ:
                let a = info[Int(code)]
                let v = min(max(e.value, a.minimum), a.maximum)
                if v != e.value { counters.outOfRange += 1 }
                values[Int(code)] = v
                changed = true
            default:
                continue
            }
        }
        return out
    }

    /// After SYN_DROPPED the adapter rereads every axis (EVIOCGABS) and hands the values here.
    package mutating func resync(values fresh: [UInt16: Int32]) {
        for (code, v) in fresh where code <= EvdevCode.absRZ { values[Int(code)] = v }
    }

    /// Samples of one report reach evdev together (µs apart); a report's first sample comes
    /// a report interval (8–15 ms) after the last one.
    package static let sameReportMicros: Int64 = 2_000

    private mutating func frame(eventTime: Int64) -> MotionSample? {
        defer { pendingTimestamp = nil; changed = false; lastEventTime = eventTime }
        if driver.timesReportsByKernel, let raw = pendingTimestamp, let last = lastTimestamp, let lastTime = lastEventTime {
            return kernelTimedFrame(eventTime: eventTime, step: raw &- last, sinceLast: eventTime &- lastTime, raw: raw)
        }
        let step: UInt64
        if let raw = pendingTimestamp {
            defer { lastTimestamp = raw }
            if let last = lastTimestamp {
                let d = raw &- last
                if d == 0 { counters.timestampRepeated += 1; return nil }
                if Int32(bitPattern: d) < 0 { counters.timestampBackwards += 1; step = Self.restartGapMicros } else { step = UInt64(d) }
            } else {
                step = 0
            }
        } else {
            counters.noTimestamp += 1
            guard let last = lastEventTime else { return start(eventTime) }
            let d = eventTime - last
            if d <= 0 { counters.timestampRepeated += 1; return nil }
            step = UInt64(d)
        }
        guard let t = timeline else { return start(eventTime) }
        timeline = t &+ step
        return sample()
    }

    /// How far a burst may have run the timeline past the kernel's clock and still be paid
    /// back; past it the rest is forgiven (a driver whose step outruns its reports for good).
    private static let maxAheadMicros: Int64 = 100_000

    /// A frame of a driver whose MSC_TIMESTAMP is made up (`timesReportsByKernel`): a report's
    /// first sample is where the kernel's clock says, the report's later samples follow it by
    /// the driver's step (`driverStep`, µs). Over any run of reports the timeline advances by
    /// the kernel's time between their first samples, whatever the driver's average. Reports
    /// that reach the kernel in a burst (a pad, or a starved emulator, writing late) look like
    /// one long report and step the timeline past the kernel's clock; the next reports' first
    /// samples wait (1 µs steps) until it has caught up.
    private mutating func kernelTimedFrame(eventTime: Int64, step driverStep: UInt32, sinceLast: Int64,
                                           raw: UInt32) -> MotionSample? {
        defer { lastTimestamp = raw }
        guard let t = timeline else { return start(eventTime) }
        let step: UInt64
        if sinceLast < Self.sameReportMicros {
            guard Int32(bitPattern: driverStep) > 0 else { counters.timestampRepeated += 1; return nil }
            step = UInt64(driverStep)
            reportSpread &+= step
        } else {
            // Wrapping and clamped: the times are a device's to make, and nothing on them may trap.
            let due = eventTime &- reportStart &- Int64(clamping: reportSpread) &- ahead
            step = UInt64(max(1, due))
            ahead = due < 1 ? min(1 &- due, Self.maxAheadMicros) : 0
            reportStart = eventTime
            reportSpread = 0
        }
        timeline = t &+ step
        return sample()
    }

    /// The first frame: the timeline starts at the kernel's time of the event.
    private mutating func start(_ eventTime: Int64) -> MotionSample? {
        timeline = UInt64(max(0, eventTime))
        reportStart = eventTime
        reportSpread = 0
        ahead = 0
        return sample()
    }

    private mutating func sample() -> MotionSample {
        frames += 1
        func scaled(_ i: Int) -> Float { Float(Double(values[i]) / Double(info[i].resolution)) }
        let degrees = driver.remotion((scaled(3), scaled(4), scaled(5)))
        let k = Float.pi / 180
        return MotionSample(timestampMicros: timeline ?? 0,
                            gyro: Vector3(x: degrees.x * k, y: degrees.y * k, z: degrees.z * k),
                            acceleration: driver.remotion((scaled(0), scaled(1), scaled(2))))
    }

    /// Counts a read that was not whole events (the adapter's `read` saw it).
    package mutating func countPartialRead() { counters.partialReads += 1 }

    /// A read `micros` after its oldest event was queued (a reader never goes back in time:
    /// a negative or absurd figure from a clock the kernel did not set is ignored).
    package mutating func noteReadLag(_ micros: Int64) {
        guard micros > 0, micros < 3_600_000_000 else { return }
        counters.longestReadLagMicros = max(counters.longestReadLagMicros, micros)
    }
}
