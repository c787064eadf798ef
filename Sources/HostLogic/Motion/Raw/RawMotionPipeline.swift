import RemotionProtocol

/// One controller's gyro processing, JoyShockMapper-style (docs/MOTION.md, "Raw sensors"):
///
///     raw gyro ─▶ GyroCalibrator ─▶ gyro − bias ─┬─▶ SensorFusion (VQF-style) ─▶ attitude, gravity
///     raw accel ─────────────────────────────────┘                                    │
///     calibrated gyro + gravity ─▶ GyroSpace (local/player/world) ─▶ yaw, pitch rates ◀┘
///     buttons ─▶ GyroClutch ─▶ gyroEnabled
///
/// Pure and sans-IO: the only clock is the samples' `timestampMicros`. `dt` is the
/// difference of consecutive timestamps, clamped to `maxStep`; a first sample, a
/// repeated or backwards timestamp, or a gap over `resyncGap` gives dt = 0 (nothing is
/// integrated, nothing is timed).
///
/// What a sample carries decides the path. Gyro without attitude (raw sensors: DSU, a
/// browser's devicemotion): calibrated, fused into an attitude, gravity from the fusion.
/// Gyro with the controller's own attitude (CoreMotion, the CLI client): calibrated, the
/// attitude is the controller's and gravity is read off it (the calibrator takes that
/// gravity as its accelerometer when the sample has none). No gyro: passed through
/// (FPS mode then differentiates the attitude as before).
///
/// Rest gate (a Remotion addition, not in JoyShockMapper/GMH): while the calibrator
/// finds the controller still (`GyroCalibrator.isStill`: a full `minStillTime` with no
/// change beyond the sensor's own noise, and a mean that agrees with the bias), the
/// calibrated rate is taken as exactly zero for the mouse — the "zero angular rate
/// update" (ZARU) of inertial navigation — and the orientation is held (no gyro, no
/// accelerometer step). Without it, white gyro noise alone random-walks a resting
/// FPS pointer by a few pixels a minute (0.3 °/s rms at 250 Hz: ≈ 3 px/min with the
/// default settings), and per-sample accelerometer noise makes the fused attitude — an
/// absolute pointer — jitter (0.01 g: pitch sd ≈ 0.065°, ≈ 2.8 px in pointer mode).
/// Any motion the window notices (a change of ~5σ of the recent average, ≈ 0.2 °/s for
/// that sensor, within ~0.1 s; or 1° of tilt) reopens it.
package struct RawMotionPipeline: Sendable, Equatable {
    package static let maxStep = GyroMouseMapper.maxStep
    package static let resyncGap = GyroMouseMapper.resyncGap
    /// At rest the tilt is re-levelled to the still period's mean gravity once they differ
    /// by more than this (radians; 0.02° ≈ 1 px in pointer mode at 40° across 1920 px).
    package static let restLevelTolerance = MotionMath.radians(0.02)

    /// Which way a resting accelerometer reads +1 g (`sensors.accelerometer`). The
    /// protocol's `MotionSample.acceleration` is proper acceleration (`up`); a client
    /// that forwards Apple's raw reading unchanged needs `down`.
    package enum AccelerometerConvention: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        /// Proper acceleration: at rest +1 g along the axis pointing up (Android
        /// SensorManager, W3C `accelerationIncludingGravity` divided by g).
        case up
        /// The gravity vector: at rest −1 g along the axis pointing up (Apple
        /// `CMAccelerometerData`: lying flat screen-up it reads z = −1).
        case down
    }

    package struct Settings: Sendable, Equatable, Hashable {
        package var calibration = GyroCalibrator.Settings()
        package var fusion = SensorFusion.Settings()
        package var space: GyroSpace = .player
        package var accelerometer: AccelerometerConvention = .up
        package var clutch: GyroClutch.Mode = .always
        /// Zero the calibrated rate while the controller is still (see the type's doc).
        package var restGate = true
        package init() {}
    }

    package var settings: Settings {
        didSet {
            calibrator.settings = settings.calibration
            fusion.settings = settings.fusion
            clutch.mode = settings.clutch
        }
    }
    package private(set) var calibrator: GyroCalibrator
    package private(set) var fusion: SensorFusion
    package private(set) var clutch: GyroClutch
    /// Whether any sample so far had gyro rates (nothing to show before).
    package private(set) var hasGyro = false
    private var lastTimestamp: UInt64?
    private var lastAtRest = false
    private var lastFused = false
    private var heldAtRest = RestReplay()
    private var levelling = false

    package init(settings: Settings = Settings()) {
        self.settings = settings
        calibrator = GyroCalibrator(settings: settings.calibration)
        fusion = SensorFusion(settings: settings.fusion)
        clutch = GyroClutch(mode: settings.clutch)
    }

    package var calibrationState: CalibrationState { calibrator.state }

    /// What the status views show; nil until a sample with gyro rates arrived.
    package var status: GyroStatus? {
        guard hasGyro else { return nil }
        var status = GyroStatus(calibrator.state, biasDegreesPerSecond: calibrator.biasDegreesPerSecond,
                                still: lastAtRest, clutchEngaged: clutch.isEnabled, fused: lastFused)
        status.residualDriftDegreesPerMinute = calibrator.restResidual.map { MotionMath.degrees($0.length) * 60 }
        return status
    }

    /// Starts a manual calibration over the next `durationSeconds` of samples (hold the
    /// controller still, ideally on a table). False when `calibration.mode = off`.
    @discardableResult
    package mutating func beginManualCalibration(durationSeconds: Double) -> Bool {
        calibrator.beginManual(durationSeconds: durationSeconds)
    }

    /// Applies a saved calibration (rad/s; `GyroCalibrator.restore`): later still periods
    /// refine it, with `weight` seconds (default confidence × confidenceTime) behind it.
    package mutating func restoreCalibration(bias: Vec3, confidence: Double = 1, weight: Double? = nil) {
        calibrator.restore(bias: bias, confidence: confidence, weight: weight)
    }

    /// The calibration to remember (`GyroCalibrator.calibration`); nil when there is none.
    package var calibration: GyroCalibration? { calibrator.calibration }

    /// Forgets orientation, timing and the clutch state; keeps the calibration.
    package mutating func resetMotion() {
        fusion.reset()
        heldAtRest.clear()
        clutch.reset()
        lastTimestamp = nil
    }

    /// Processes one sample.
    package mutating func process(_ sample: MotionSample) -> RawMotionOutput {
        let enabled = clutch.update(buttons: sample.buttons)
        guard let rawGyro = sample.gyro, rawGyro.isFinite else {
            return RawMotionOutput(original: sample, gyroEnabled: enabled, calibration: calibrator.state)
        }
        hasGyro = true
        let dt = step(to: sample.timestampMicros)
        var accel = sample.acceleration.map(Vec3.init).flatMap { $0.isFinite ? $0 : nil }
        if settings.accelerometer == .down { accel = accel.map { -$0 } }
        let own = sample.attitude.flatMap { $0.isFinite ? Quaternion(attitude: $0) : nil }

        let raw = Vec3(rawGyro)
        calibrator.update(gyro: raw, acceleration: accel ?? own?.up, dt: dt)
        let atRest = settings.restGate && calibrator.isStill
        let calibrated = calibrator.calibrated(raw)
        let gyro = atRest ? .zero : calibrated
        let orientation: Quaternion
        if let own {
            orientation = own
        } else {
            if atRest && fusion.isInitialized {
                // No rotation. The tilt follows the still period's mean gravity (its noise
                // averaged away), with hysteresis so a resting pointer does not flicker.
                let mean = calibrator.stillAcceleration
                if let mean {
                    let error = fusion.up.angle(to: mean)
                    if error > Self.restLevelTolerance { levelling = true } else if error < Self.restLevelTolerance / 10 { levelling = false }
                }
                fusion.update(gyro: .zero, acceleration: levelling ? mean : nil, dt: dt, still: true)
                heldAtRest.hold(calibrated, dt: dt)
            } else {
                levelling = false
                for (g, d) in heldAtRest.entries { fusion.update(gyro: g, acceleration: nil, dt: d) }
                heldAtRest.clear()
                fusion.update(gyro: gyro, acceleration: accel, dt: dt, calibrated: calibrator.state.biasKnown)
            }
            orientation = fusion.orientation
        }
        lastAtRest = atRest
        lastFused = own == nil
        let gravity = -orientation.up
        let rates = settings.space.rates(gyro: gyro, gravity: gravity)
        return RawMotionOutput(original: sample, attitude: own == nil ? orientation.attitude : sample.attitude,
                               yawRate: rates.yaw, pitchRate: rates.pitch, gravity: gravity,
                               orientation: orientation, gyroEnabled: enabled, atRest: atRest,
                               calibration: calibrator.state)
    }

    private mutating func step(to now: UInt64) -> Double {
        defer { lastTimestamp = now }
        guard let t0 = lastTimestamp, now > t0 else { return 0 }
        let dt = Double(now - t0) / 1e6
        return dt > Self.resyncGap ? 0 : Swift.min(dt, Self.maxStep)
    }
}

/// The calibrated rates of the last `time` seconds the rest gate held. Motion that starts
/// slowly takes the stillness window up to ~0.1 s to notice; when the gate opens these
/// rates are integrated after all, so the fused attitude (pointer mode) does not lag by
/// the rotation made meanwhile. At rest they are noise (0.3 °/s rms at 250 Hz integrates
/// to < 0.01° over 0.25 s).
struct RestReplay: Sendable, Equatable {
    static let time = 0.25
    private(set) var entries: [(Vec3, Double)] = []
    private var total = 0.0

    mutating func hold(_ gyro: Vec3, dt: Double) {
        if entries.isEmpty { entries.reserveCapacity(64) }
        entries.append((gyro, dt))
        total += dt
        while entries.count > 1, total - entries[0].1 >= Self.time {
            total -= entries.removeFirst().1
        }
    }

    mutating func clear() {
        entries.removeAll(keepingCapacity: true)
        total = 0
    }

    static func == (a: RestReplay, b: RestReplay) -> Bool {
        a.total == b.total && a.entries.elementsEqual(b.entries) { $0.0 == $1.0 && $0.1 == $1.1 }
    }
}

/// What `RawMotionPipeline` makes of one sample.
package struct RawMotionOutput: Sendable, Equatable {
    /// The sample as received.
    package var original: MotionSample
    /// The attitude for pointer/seed modes: fused on the host for raw sensors, else the
    /// sample's own.
    package var attitude: Attitude?
    /// Gyro-space rates, rad/s: yaw + = turn left, pitch + = tilt up (0 without gyro).
    package var yawRate = 0.0
    package var pitchRate = 0.0
    /// Gravity in the device frame (unit, pointing down); nil without gyro.
    package var gravity: Vec3?
    package var orientation: Quaternion?
    /// The clutch: whether FPS (relative) output should move the pointer now.
    package var gyroEnabled: Bool
    /// The rest gate held the rates at zero for this sample.
    package var atRest: Bool
    package var calibration: CalibrationState
    /// Whether the pipeline processed this sample (it had gyro rates).
    package var isProcessed: Bool { orientation != nil }

    package init(original: MotionSample, attitude: Attitude? = nil, yawRate: Double = 0, pitchRate: Double = 0,
                 gravity: Vec3? = nil, orientation: Quaternion? = nil, gyroEnabled: Bool,
                 atRest: Bool = false, calibration: CalibrationState) {
        self.original = original
        self.attitude = orientation == nil ? original.attitude : attitude
        self.yawRate = yawRate; self.pitchRate = pitchRate
        self.gravity = gravity; self.orientation = orientation
        self.gyroEnabled = gyroEnabled; self.atRest = atRest; self.calibration = calibration
    }
}
