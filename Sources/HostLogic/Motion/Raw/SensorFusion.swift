import RemotionProtocol

/// Orientation from calibrated gyro + accelerometer: Madgwick's IMU filter.
///
/// S. O. H. Madgwick, A. J. L. Harrison, R. Vaidyanathan, "Estimation of IMU and MARG
/// orientation using a gradient descent algorithm", IEEE ICORR 2011
/// (doi:10.1109/ICORR.2011.5975346); the longer report is Madgwick, "An efficient
/// orientation filter for inertial and inertial/magnetic sensor arrays", 2010.
///
/// q rotates body → world (world z up). With ω the calibrated gyro (rad/s, body frame),
/// â the normalised accelerometer reading (proper acceleration: at rest it points up),
/// and Δt the sample interval:
///
///     f(q)   = R(q)ᵀ·ẑ − â = ( 2(xz − wy) − âx,  2(yz + wx) − ây,  1 − 2(x² + y²) − âz )
///     J(q)   = ∂f/∂(w, x, y, z) = [ −2y   2z  −2w   2x ]
///                                  [  2x   2w   2z   2y ]
///                                  [  0   −4x  −4y   0  ]
///     ∇f     = Jᵀ f
///     q̇      = ½ q ⊗ (0, ω) − β · ∇f / |∇f|
///     q      ← normalise(q + q̇ Δt)
///
/// Implemented in predict–correct order (the same step, with ∇f evaluated after the
/// gyro term instead of before it):
///
///     q⁻     = normalise(q + ½ q ⊗ (0, ω) Δt)
///     q      ← normalise(q⁻ − β · ∇f(q⁻) / |∇f(q⁻)| · Δt)
///
/// β (rad/s) is the single gain: Madgwick suggests β = √(3/4)·ω̃ with ω̃ the gyro's
/// mean measurement error; the correction turns the estimate at most 2β rad/s towards
/// the accelerometer's tilt. Yaw about gravity is unobservable without a magnetometer,
/// so it drifts with the residual gyro bias (the calibrator keeps that small).
///
/// Deviations, on purpose: (1) predict–correct: the paper's update compares the
/// accelerometer sampled at t_k with the orientation of t_{k−1}; turning fast, the
/// body-frame gravity moves up to a few degrees per sample, so the normalised gradient
/// points along the motion and the filter is pulled by 2β the wrong way. Measured on the
/// 30 s test sequence at 60 Hz: tilt error RMS 1.39° → 0.48°, total 1.79° → 1.24°; at
/// 250 Hz the difference is small. (2) The first accelerometer reading sets the tilt
/// directly (no convergence transient; heading 0). (3) Readings whose magnitude is
/// further than `accelerationTolerance` from 1 g (the hand is accelerating, or a bad
/// sample) skip the correction — gyro integration alone carries the orientation then.
package struct SensorFusion: Sendable, Equatable {
    package struct Settings: Sendable, Equatable, Hashable, Codable {
        /// Madgwick's β, rad/s. 0.04 ≈ √(3/4)·2.6 °/s of gyro error.
        package var beta: Double = 0.04
        /// Accelerometer readings with | |a| − 1 g | above this are not used for tilt.
        package var accelerationTolerance: Double = 0.25
        package init() {}
    }

    package var settings: Settings
    /// Body → world; the identity until the first sample.
    package private(set) var orientation = Quaternion.identity
    package private(set) var isInitialized = false
    /// Whether the last update used the accelerometer correction.
    package private(set) var lastCorrected = false
    /// The previous sample's rate (the start of the interval the next step integrates).
    private var previousGyro: Vec3?

    package init(settings: Settings = Settings()) { self.settings = settings }

    /// The world's up axis in the body frame (unit).
    package var up: Vec3 { orientation.up }
    /// Gravity in the body frame, unit length, pointing down (GamepadMotionHelpers'
    /// `GetGravity` convention: (0, 0, −1) when the device lies flat, screen up).
    package var gravity: Vec3 { -orientation.up }
    /// Roll, pitch and yaw in CoreMotion's convention (see `Quaternion.attitude`).
    package var attitude: Attitude { orientation.attitude }

    package mutating func reset() {
        orientation = .identity
        isInitialized = false
        lastCorrected = false
        previousGyro = nil
    }

    /// Starts over from a known orientation (tests, or a host-side recentre).
    package mutating func reset(to q: Quaternion) {
        orientation = q.normalized
        isInitialized = true
        previousGyro = nil
    }

    /// One filter step. `gyro` is calibrated (rad/s), `acceleration` is proper
    /// acceleration in g (nil when the sample has none), `dt` seconds since the
    /// previous sample (0 on the first).
    package mutating func update(gyro: Vec3, acceleration: Vec3?, dt: Double) {
        lastCorrected = false
        let accel = acceleration.flatMap { a -> Vec3? in
            guard a.isFinite, Swift.abs(a.length - 1) <= settings.accelerationTolerance else { return nil }
            return a.normalized
        }
        if !isInitialized {
            isInitialized = true
            if let a = accel {
                orientation = Quaternion(levelling: a)
                lastCorrected = true
                return
            }
        }
        guard gyro.isFinite else { return }
        let previous = previousGyro
        previousGyro = gyro
        guard dt > 0, dt.isFinite else { return }

        // Predict with the gyro (the interval's mean rate, trapezoidal), then correct
        // against this sample's accelerometer.
        let w = previous.map { ($0 + gyro) * 0.5 } ?? gyro
        let q = orientation
        let predicted = (q + q * Quaternion(w: 0, x: w.x, y: w.y, z: w.z) * (0.5 * dt)).normalized
        guard let a = accel else {
            orientation = predicted
            return
        }
        let s = Self.gradient(predicted, accel: a)
        let n = (s.w * s.w + s.x * s.x + s.y * s.y + s.z * s.z).squareRoot()
        guard n > 0, n.isFinite else {
            orientation = predicted
            return
        }
        // A quaternion step of length m turns the estimate by about 2m: never turn further
        // than the tilt error the accelerometer shows (no chatter about the truth).
        let step = Swift.min(settings.beta * dt, predicted.up.angle(to: a) / 2)
        orientation = (predicted + s * (-step / n)).normalized
        lastCorrected = true
    }

    /// ∇f = Jᵀ f for the gravity objective (see the type's documentation).
    static func gradient(_ q: Quaternion, accel a: Vec3) -> Quaternion {
        let (w, x, y, z) = (q.w, q.x, q.y, q.z)
        let f1 = 2 * (x * z - w * y) - a.x
        let f2 = 2 * (y * z + w * x) - a.y
        let f3 = 1 - 2 * (x * x + y * y) - a.z
        return Quaternion(w: -2 * y * f1 + 2 * x * f2,
                          x: 2 * z * f1 + 2 * w * f2 - 4 * x * f3,
                          y: -2 * w * f1 + 2 * z * f2 - 4 * y * f3,
                          z: 2 * x * f1 + 2 * y * f2)
    }
}
