import RemotionProtocol

/// Gyro bias ("calibration offset") estimation, after GamepadMotionHelpers
/// (J. Smart): manual calibration, plus optional automatic calibration whenever the
/// controller is still ("stillness" mode). Pure: feed it every raw sample and the
/// time since the previous one (from the samples' own timestamps).
///
/// Stillness mode. `StillnessWindow` holds the samples since the controller last
/// moved. Once a window has been still for `minStillTime`, its settled gyro mean m
/// (the average of the raw gyro while still, T seconds of it) is blended with what
/// earlier still periods established (bias b₀ worth w₀ seconds):
///
///     bias       = (w₀·b₀ + T·m) / (w₀ + T)
///     confidence = min(1, (w₀ + T) / confidenceTime)
///
/// When the window ends (the controller moves), b₀ ← bias and w₀ ← min(w₀ + T,
/// memoryTime): earlier periods never outweigh `memoryTime` seconds, so the estimate
/// follows a bias that drifts with temperature. A window whose mean exceeds `maxBias`
/// is a steady rotation, not bias, and is ignored.
///
/// Agreement. Once a bias is established, a new still window only calibrates at once if
/// its mean agrees with b₀ (per axis within biasTolerance + 4σ/√n, σ the window's noise);
/// a disagreeing window (a slow steady turn that began as the window began, or a bias
/// that really moved) must last `jumpTime` first — GMH likewise "recalibrates less
/// easily once confident". `isStill` additionally needs the window's mean to agree with
/// the bias in use, so a steady slow turn is never reported as rest. A steady turn about
/// gravity held from the very start of a still period, before any bias is known, is
/// indistinguishable from bias (nothing but the user can tell): hence manual calibration
/// and the `manual` mode.
///
/// Manual mode (GMH `StartContinuousCalibration`, JoyShockMapper's RESTART_GYRO_CALIBRATION):
/// `beginManual(durationSeconds:)` averages every sample for that long (automatic
/// calibration pauses), then sets the bias with confidence 1 and weight `memoryTime`.
///
/// Memory (docs/MOTION.md, "Calibration memory"): `restore` puts back a saved calibration
/// (`calibration`) as b₀ with its weight, which continuous calibration goes on refining.
///
/// Not implemented: GMH's "SensorFusion" calibration mode (correcting bias from the
/// rotation the accelerometer implies while moving); its author reports it as
/// "consistently not-quite-right". The same observation vetoes stillness here (the
/// window's tilt-drift test).
package struct GyroCalibrator: Sendable, Equatable {
    /// `calibration.mode`.
    package enum Mode: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        /// Calibrate whenever the controller is still (GMH "Stillness"), and on request.
        case continuous
        /// Only on request (GMH's default, JoyShockMapper's without AUTO_CALIBRATE_GYRO).
        case manual
        /// No bias is ever subtracted (a controller that calibrates its own gyro); requests
        /// are ignored. Stillness is still detected for the rest gate.
        case off
    }

    package struct Settings: Sendable, Equatable, Hashable, Codable {
        package var mode: Mode = .continuous
        package var window = StillnessWindow.Limits()
        /// Seconds a window must be still before it changes the bias.
        package var minStillTime = 1.0
        /// Seconds of still data for confidence 1.
        package var confidenceTime = 3.0
        /// The most weight (seconds) earlier still periods keep against a new one.
        package var memoryTime = 20.0
        /// A still window whose mean exceeds this (rad/s, any axis) is not bias.
        package var maxBias = MotionMath.radians(10)
        /// How far (rad/s, per axis, plus 4 standard errors of the window's mean) a still
        /// window's mean may sit from the bias and still agree with it.
        package var biasTolerance = MotionMath.radians(0.05)
        /// A still window that disagrees with an established bias only calibrates after
        /// this many seconds (a steady slow turn is not held that long; a bias that
        /// really moved, e.g. with temperature, is still followed).
        package var jumpTime = 5.0
        package init() {}
    }

    package var settings: Settings {
        didSet {
            window.limits = settings.window
            if settings.mode == .off, oldValue.mode != .off { reset() }
        }
    }
    /// The bias (rad/s, device axes) subtracted from raw gyro.
    package private(set) var bias = Vec3.zero
    /// 0 … 1; 1 after a manual calibration or `confidenceTime` seconds of stillness.
    package private(set) var confidence = 0.0
    /// Whether the controller has been still for at least `minStillTime` and the
    /// window's mean agrees with the bias in use, i.e. the calibrated rate is zero within
    /// the noise (detected in every mode, also `manual` and `off`; GMH's
    /// `GetAutoCalibrationIsSteady`). The pipeline's rest gate uses it.
    package private(set) var isStill = false
    /// While `isStill`: the still period's mean acceleration (gravity, averaged).
    package var stillAcceleration: Vec3? { isStill ? window.meanAcceleration : nil }
    /// Counts every change of the bias from data or memory: a sample of a still window that
    /// calibrates, a manual calibration's end, `restore` (wrapping; compared, never ordered).
    package private(set) var revision = 0
    /// The residual drift at rest (rad/s, device axes): the settled raw gyro mean of the
    /// newest still period that lasted `minStillTime` (the current one while it lasts) minus
    /// the bias in use at its latest sample — what the calibrated gyro still reads at rest.
    /// nil before any such period, and after a reset, a restore or a manual calibration,
    /// until the next one. A window whose mean exceeds `maxBias` (a steady turn) is not rest.
    package private(set) var restResidual: Vec3?
    /// Whether the current still window is feeding the bias (stillness mode).
    private var windowCalibrates = false
    private var committedBias = Vec3.zero
    private var committedWeight = 0.0
    private var window: StillnessWindow
    private var manual: ManualCollection?
    /// How the last manual calibration ended (nil while one runs, or before any).
    private var manualEnded: ManualCalibration?

    private struct ManualCollection: Sendable, Equatable {
        var duration: Double
        var elapsed = 0.0
        var mean = RunningStats()
    }

    package init(settings: Settings = Settings()) {
        self.settings = settings
        window = StillnessWindow(limits: settings.window)
    }

    /// The bias in °/s, for display.
    package var biasDegreesPerSecond: Vec3 { bias.map(MotionMath.degrees) }

    /// Raw gyro minus the bias.
    package func calibrated(_ gyro: Vec3) -> Vec3 { gyro - bias }

    /// A manual calibration as the person holding the controller sees it: running (its
    /// fraction), then done or failed because the controller moved; nil before any (or after
    /// `cancelManual`, `reset`, or a change to mode `off`).
    package var manualCalibration: ManualCalibration? {
        if let m = manual { return .running(progress: Swift.min(m.elapsed / Swift.max(m.duration, 1e-9), 1)) }
        return manualEnded
    }

    package var state: CalibrationState {
        if settings.mode == .off { return .off }
        if let m = manual { return .calibrating(progress: Swift.min(m.elapsed / Swift.max(m.duration, 1e-9), 1)) }
        if committedWeight > 0 || windowCalibrates { return .calibrated(confidence: confidence) }
        if settings.mode == .continuous, window.duration >= settings.window.settleTime {
            return .calibrating(progress: Swift.min(window.duration / settings.minStillTime, 1))
        }
        return .uncalibrated
    }

    /// Starts a manual calibration over the next `durationSeconds` of samples; false (and
    /// nothing happens) when the mode is `off`.
    @discardableResult
    package mutating func beginManual(durationSeconds: Double) -> Bool {
        guard settings.mode != .off else { return false }
        commitWindow()
        manual = ManualCollection(duration: Swift.max(durationSeconds, 0))
        manualEnded = nil
        isStill = false
        return true
    }

    /// Abandons a manual calibration in progress; the previous bias stays.
    package mutating func cancelManual() { manual = nil; manualEnded = nil }

    /// Forgets the bias and everything learned.
    package mutating func reset() {
        bias = .zero; confidence = 0; isStill = false; windowCalibrates = false
        committedBias = .zero; committedWeight = 0
        window.reset(); manual = nil; manualEnded = nil; restResidual = nil
        revision &+= 1
    }

    /// Sets a known bias (a saved calibration), rad/s, as if earlier still periods had
    /// established it: it becomes b₀ worth `weight` seconds (w₀; default `confidence ×
    /// confidenceTime`, at most `memoryTime`), so later still periods refine it by the
    /// usual blend instead of replacing it. Ignored in mode `off`, and for a non-finite value.
    package mutating func restore(bias: Vec3, confidence: Double, weight: Double? = nil) {
        guard settings.mode != .off, bias.isFinite, confidence.isFinite else { return }
        window.reset()
        self.bias = bias
        committedBias = bias
        self.confidence = Swift.min(Swift.max(confidence, 0), 1)
        let w = weight.flatMap { $0.isFinite ? $0 : nil } ?? self.confidence * settings.confidenceTime
        committedWeight = Swift.min(Swift.max(w, 0), settings.memoryTime)
        isStill = false; windowCalibrates = false; restResidual = nil
        revision &+= 1
    }

    /// What a saved calibration keeps: the bias in use, its confidence and the seconds of
    /// still data it stands for (w₀, including a still window that is calibrating now);
    /// nil in mode `off` and before any bias was established.
    package var calibration: GyroCalibration? {
        guard settings.mode != .off, committedWeight > 0 || windowCalibrates else { return nil }
        let weight = committedWeight + (windowCalibrates ? window.settledDuration : 0)
        return GyroCalibration(bias: bias, confidence: confidence, weight: Swift.min(weight, settings.memoryTime))
    }

    /// Feeds one raw sample: gyro in rad/s, acceleration in g (either sign convention),
    /// `dt` seconds since the previous sample (0 for the first).
    package mutating func update(gyro: Vec3, acceleration: Vec3?, dt: Double) {
        guard gyro.isFinite else { return }
        let accel = acceleration.flatMap { $0.isFinite ? $0 : nil }
        let dt = dt.isFinite ? Swift.max(dt, 0) : 0

        if var m = manual {
            // Held still, every sample is the bias plus noise; one more than `maxBias` away from
            // the mean so far (or a mean over it) is a hand that moved: the old bias stays.
            if m.mean.count > 0, (gyro - m.mean.mean).maxMagnitude > settings.maxBias {
                manual = nil
                manualEnded = .moved
                return
            }
            m.mean.add(gyro)
            m.elapsed += dt
            manual = m
            if m.elapsed >= m.duration {
                manual = nil
                guard m.mean.mean.maxMagnitude <= settings.maxBias else { manualEnded = .moved; return }
                manualEnded = .done
                bias = m.mean.mean
                committedBias = bias
                committedWeight = settings.memoryTime
                confidence = 1
                restResidual = nil
                revision &+= 1
            }
            return
        }
        if window.isMoving(gyro: gyro, accel: accel, dt: dt) {
            commitWindow()
        }
        window.add(gyro: gyro, accel: accel, dt: dt)

        let t = window.settledDuration
        let m = window.settled.mean
        guard window.duration >= settings.minStillTime, t > 0, m.maxMagnitude <= settings.maxBias else {
            isStill = false
            return
        }
        let standardError = 4 / Double(window.settled.count).squareRoot()
        let tolerance = window.noise.map { settings.biasTolerance + standardError * $0 }
        func agrees(_ b: Vec3) -> Bool {
            abs(m.x - b.x) <= tolerance.x && abs(m.y - b.y) <= tolerance.y && abs(m.z - b.z) <= tolerance.z
        }
        if settings.mode == .continuous,
           committedWeight == 0 || agrees(committedBias) || window.duration >= settings.jumpTime {
            windowCalibrates = true
            let w = committedWeight + t
            bias = (committedBias * committedWeight + m * t) / w
            confidence = Swift.max(confidence, Swift.min(1, w / settings.confidenceTime))
            revision &+= 1
        }
        restResidual = m - bias
        isStill = agrees(bias)
    }

    /// Ends the current window, keeping what it taught.
    private mutating func commitWindow() {
        if windowCalibrates {
            committedWeight = Swift.min(committedWeight + window.settledDuration, settings.memoryTime)
            committedBias = bias
        }
        isStill = false
        windowCalibrates = false
        window.reset()
    }
}

/// A manual calibration as the person holding the controller sees it (`GyroCalibrator.manualCalibration`).
package enum ManualCalibration: Sendable, Equatable, Hashable {
    /// Hold still: `progress` 0 … 1 of `calibration.duration`.
    case running(progress: Double)
    /// The bias is set (confidence 1).
    case done
    /// The controller moved (a sample more than `maxBias` from the mean, or a mean over it):
    /// nothing was learned, the previous bias stays.
    case moved
}

/// Where a controller's gyro calibration stands.
package enum CalibrationState: Sendable, Equatable, Hashable {
    /// `calibration.mode = off`: raw gyro is used as it comes.
    case off
    /// No bias known yet: gyro output includes the sensor's bias (drift).
    case uncalibrated
    /// Collecting: a manual calibration in progress, or the first still period
    /// filling up (`progress` 0 … 1).
    case calibrating(progress: Double)
    /// A bias is applied; `confidence` 0 … 1 rises with time spent still.
    case calibrated(confidence: Double)

    /// Whether the gyro reaching the fusion is free of its bias: a bias is applied, or the
    /// controller removes its own (`off`).
    package var biasKnown: Bool {
        switch self {
        case .off, .calibrated: true
        case .uncalibrated, .calibrating: false
        }
    }
}
