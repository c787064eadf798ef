import RemotionProtocol

/// Orientation from calibrated gyro + accelerometer: the gyro's strapdown integration,
/// with its tilt corrected towards gravity as a slow low-pass of the accelerometer seen in
/// an inertial frame — the tilt half of VQF (D. Laidig, T. Seel, "VQF: Highly accurate
/// IMU orientation estimation with bias estimation and magnetic disturbance rejection",
/// Information Fusion 91, 2023, doi:10.1016/j.inffus.2022.10.014), without its bias
/// estimation (the `GyroCalibrator` does that) and magnetometer.
///
/// q rotates body → world (world z up). Two parts, q = c ⊗ g:
///
///     g      ← g ⊗ exp(½ ω̄ Δt)                 strapdown: the gyro alone (ω̄ the interval's mean rate)
///     a_g    = g · â · g⁻¹                      this reading in g's world (â in g: proper acceleration)
///     ā      = LP(a_g)                          two first-order low-passes in series, τ each
///     v      = normalise(c · ā · c⁻¹)
///     c      ← rot(v → ẑ) ⊗ c                   the smallest rotation that makes ā vertical
///
/// Why an inertial frame: a hand's linear acceleration averages to nothing over seconds
/// (the hand stays where it is), so in a frame that does not turn with the controller its
/// low-pass is gravity; the body-frame reading instead swings with every turn. Why not
/// Madgwick's gradient step (the filter before this one): its correction has a fixed rate
/// β whatever the error, so the hand's acceleration (≈ 0.03 g, ±1.7° of apparent tilt)
/// random-walks the estimate; on the bench's hand-held traces (scripts/bench-fusion.sh)
/// its tilt RMS was 0.45° at 250 Hz against this filter's figure in docs/BENCHMARKS.md.
///
/// Rejection (x-io Fusion's acceleration rejection, after Madgwick): a reading further than
/// `rejectionAngle` from the estimated tilt, or further than `accelerationTolerance` from
/// 1 g, is a shove, not gravity: the low-pass keeps its value instead. After
/// `recoveryTime` of nothing but rejections the readings are used again, with the short
/// `restTime`, until they agree within half the angle (the estimate may be what is wrong). A caller that knows the body is still (the
/// calibrator's rest) says so: its mean reading is gravity and levels the tilt with the
/// shorter `restTime`. The first reading sets the tilt directly (heading 0). Yaw about
/// gravity is unobservable without a magnetometer and drifts with the residual gyro bias.
package struct SensorFusion: Sendable, Equatable {
    package struct Settings: Sendable, Equatable, Hashable, Codable {
        /// Seconds: each of the two low-passes' time constant while the body moves.
        package var tiltTime: Double = 2
        /// Seconds: the same while the gyro's bias is not known yet: the strapdown then
        /// drifts with the whole bias, and the tilt lags it by about bias × 2τ.
        package var uncalibratedTiltTime: Double = 0.4
        /// Seconds: the same while the caller says the body is still.
        package var restTime: Double = 0.15
        /// Accelerometer readings with | |a| − 1 g | above this are not used for tilt.
        package var accelerationTolerance: Double = 0.25
        /// Degrees. A reading whose tilt disagrees with the estimate by more than this is
        /// the hand accelerating (a shove, a swing's end). 0 turns the rejection off.
        package var rejectionAngle: Double = 10
        /// Seconds. After this long with every reading rejected they are trusted again
        /// until they agree.
        package var recoveryTime: Double = 1
        package init() {}

        /// The names `MotionBench fuse` takes (name=value), for comparing parameters.
        package static let tunable = ["tau", "raw_tau", "rest_tau", "tolerance", "rejection", "recovery"]

        /// Sets the named field; false for an unknown name.
        package mutating func set(_ name: String, to value: Double) -> Bool {
            switch name {
            case "tau": tiltTime = value
            case "raw_tau": uncalibratedTiltTime = value
            case "rest_tau": restTime = value
            case "tolerance": accelerationTolerance = value
            case "rejection": rejectionAngle = value
            case "recovery": recoveryTime = value
            default: return false
            }
            return true
        }
    }

    package var settings: Settings
    /// Body → world; the identity until the first sample.
    package private(set) var orientation = Quaternion.identity
    package private(set) var isInitialized = false
    /// Whether the last update used its accelerometer reading.
    package private(set) var lastCorrected = false
    /// Whether the last update rejected its accelerometer reading as linear acceleration.
    package private(set) var lastRejected = false
    /// The gyro's own integration (g) and the tilt correction (c): orientation = c ⊗ g.
    private var strapdown = Quaternion.identity
    private var correction = Quaternion.identity
    /// The two low-passes' states, in the strapdown's world; nil until the first reading.
    private var firstPass: Vec3?
    private var secondPass: Vec3?
    /// The previous sample's rate (the start of the interval the next step integrates).
    private var previousGyro: Vec3?
    /// Seconds every reading has been rejected for, and whether that led to recovery.
    private var rejectedFor = 0.0
    private var recovering = false

    package init(settings: Settings = Settings()) { self.settings = settings }

    /// The world's up axis in the body frame (unit).
    package var up: Vec3 { orientation.up }
    /// Gravity in the body frame, unit length, pointing down (GamepadMotionHelpers'
    /// `GetGravity` convention: (0, 0, −1) when the device lies flat, screen up).
    package var gravity: Vec3 { -orientation.up }
    /// Roll, pitch and yaw in CoreMotion's convention (see `Quaternion.attitude`).
    package var attitude: Attitude { orientation.attitude }

    package mutating func reset() {
        self = SensorFusion(settings: settings)
    }

    /// Starts over from a known orientation (tests, or a host-side recentre).
    package mutating func reset(to q: Quaternion) {
        self = SensorFusion(settings: settings)
        strapdown = q.normalized
        orientation = strapdown
        isInitialized = true
        // The low-pass starts at this orientation's gravity: the given tilt is trusted.
        firstPass = .unitZ
        secondPass = .unitZ
    }

    /// One filter step. `gyro` is calibrated (rad/s), `acceleration` is proper
    /// acceleration in g (nil when the sample has none), `dt` seconds since the
    /// previous sample (0 on the first). `still`: the caller knows the body is at rest,
    /// so the reading is gravity and never rejected. `calibrated`: the gyro's bias is
    /// known (or the controller removes its own), so the slower low-pass may be used.
    package mutating func update(gyro: Vec3, acceleration: Vec3?, dt: Double, still: Bool = false,
                                 calibrated: Bool = true) {
        lastCorrected = false
        lastRejected = false
        let accel = acceleration.flatMap { a -> Vec3? in
            guard a.isFinite, Swift.abs(a.length - 1) <= settings.accelerationTolerance else { return nil }
            return a.normalized
        }
        if !isInitialized {
            isInitialized = true
            if let a = accel {
                correction = Quaternion(levelling: a)
                orientation = correction
                firstPass = a
                secondPass = a
                lastCorrected = true
                return
            }
        }
        guard gyro.isFinite else { return }
        let previous = previousGyro
        previousGyro = gyro
        guard dt > 0, dt.isFinite else { return }

        let w = previous.map { ($0 + gyro) * 0.5 } ?? gyro
        strapdown = (strapdown * Self.rotation(w * dt)).normalized
        orientation = (correction * strapdown).normalized
        guard let a = accel else { return }
        if !still, rejects(error: orientation.up.angle(to: a), dt: dt) {
            lastRejected = true
            return
        }
        let inertial = strapdown.rotate(a)
        let tau = still || recovering ? settings.restTime : calibrated ? settings.tiltTime : settings.uncalibratedTiltTime
        let k = tau > 0 ? 1 - Double.exp(-dt / tau) : 1
        let first = firstPass.map { $0 + (inertial - $0) * k } ?? inertial
        let second = secondPass.map { $0 + (first - $0) * k } ?? first
        firstPass = first
        secondPass = second
        if let v = correction.rotate(second).normalized {
            correction = (Quaternion(from: v, to: .unitZ) * correction).normalized
            orientation = (correction * strapdown).normalized
        }
        lastCorrected = true
    }

    /// Acceleration rejection: see the type's documentation. Recovering, the readings level
    /// the tilt with the short `restTime` until they agree within half the angle.
    private mutating func rejects(error: Double, dt: Double) -> Bool {
        let limit = settings.rejectionAngle * .pi / 180
        if recovering, error < limit / 2 { recovering = false }
        guard limit > 0, error > limit else {
            rejectedFor = 0
            return false
        }
        if recovering { return false }
        rejectedFor += dt
        if rejectedFor >= settings.recoveryTime {
            recovering = true
            return false
        }
        return true
    }

    /// exp(½ r): the rotation by the rotation vector r (radians).
    static func rotation(_ r: Vec3) -> Quaternion {
        let angle = r.length
        guard angle > 0 else { return .identity }
        let s = Double.sin(angle / 2) / angle
        return Quaternion(w: Double.cos(angle / 2), x: r.x * s, y: r.y * s, z: r.z * s)
    }
}
