import RemotionProtocol

/// What a controller's own screen (the phone's page) is told about a manual gyro calibration
/// of that controller: "hold still" with its progress, then done, or why it failed or cannot
/// run (docs/WEB-CONTROLLER.md, "Calibrate").
package enum CalibrationReport: Sendable, Hashable {
    /// Hold still: `progress` 0 … 1 of `calibration.duration`.
    case running(progress: Double)
    /// The bias is set.
    case done
    /// The controller moved while it should have been still: nothing learned, the old bias stays.
    case moved
    /// No calibration: `calibration.mode = off`, or this controller sends no gyro rates (its
    /// own attitude only, or no motion yet).
    case unavailable(Unavailable)

    package enum Unavailable: String, Sendable, Hashable {
        case off
        case noGyro = "no-gyro"
    }
}

/// Decides, sample by sample, what a session's page hears about its manual calibration:
/// each calibration (started by the page, the dashboard or a calibrate button) is reported
/// from its first sample until it ends; progress only when its whole percent changed and at
/// most every `interval`; the end (done, moved, or cancelled because calibration was turned
/// off) at once, once. Pure: the calibrator's view and the time in.
package struct CalibrationReporter: Sendable, Equatable {
    /// Progress at most this often (5 a second).
    package static let interval = Duration.milliseconds(200)

    /// A calibration is being reported (its end not yet said).
    package private(set) var watching = false
    private var lastPercent = -1
    private var lastSent: Instant?

    package init() {}

    /// A calibration was just asked for and said to the page (`running(0)`) at `now`.
    package mutating func started(now: Instant) {
        watching = true
        lastPercent = 0
        lastSent = now
    }

    /// After a sample: what to tell the page about `calibration` (the calibrator's view), if anything.
    package mutating func observe(_ calibration: ManualCalibration?, now: Instant) -> CalibrationReport? {
        switch calibration {
        case .running(let progress):
            let percent = Int((Swift.min(Swift.max(progress, 0), 1) * 100).rounded(.down))
            if watching {
                guard percent != lastPercent, let last = lastSent, now - last >= Self.interval else { return nil }
            }
            watching = true
            lastPercent = percent
            lastSent = now
            return .running(progress: Double(percent) / 100)
        case .done, .moved, nil:
            guard watching else { return nil }
            watching = false
            lastPercent = -1
            switch calibration {
            case .done: return .done
            case .moved: return .moved
            default: return .unavailable(.off)     // cancelled: calibration was turned off
            }
        }
    }
}
