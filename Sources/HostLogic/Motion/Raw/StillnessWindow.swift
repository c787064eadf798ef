import RemotionProtocol

/// The samples since the controller was last seen moving, for `GyroCalibrator`
/// (GamepadMotionHelpers keeps the same kind of window, `SensorMinMaxWindow`: reset on
/// motion, its mean gyro becoming the bias once the window is old enough).
///
/// With per-axis mean m and variance σ² of the window's n gyro samples, an exponential
/// average r of the gyro over `recentTime` τ (α = dt/(τ + dt)), and the same for the
/// acceleration, a sample ends the window (it "moves") when:
///
///     any axis |gyro − m|  > gyroThreshold                          a turn or a tap
///     any axis |accel − mₐ| > accelThreshold                        a shake
///     any axis |r − m|     > shiftSigmas · √(σ²·α/(2−α) + σ²/n)     the rate changed: a slow
///                            (σ ≥ noiseFloor; once n ≥ minSamples)  start of aiming
///     angle(tiltReference, recent accel) > maxTiltDrift             a slow steady tilt
///
/// The third test compares the recent average with the window's mean in units of its own
/// noise (σ²·α/(2−α) is the variance of the average, σ²/n that of the mean), so it adapts
/// to the sensor: 0.3 °/s noise at 250 Hz notices a change of about 0.2 °/s within ~0.1 s.
/// The fourth catches what the others cannot: a slow *steady* rotation about a
/// horizontal axis, present from the window's start, looks exactly like bias to the gyro
/// but turns gravity in the body frame (GMH's sensor-fusion calibration uses the same
/// observation). `tiltReference` is the mean acceleration over the window's first
/// `tiltReferenceTime`; "recent" averages over that time. A steady turn about gravity
/// from the window's start stays invisible: no accelerometer can see it.
///
/// The bias mean (`settled`) only collects samples once the window is `settleTime` old,
/// so the tail of a motion that fades below the thresholds stays out of it.
package struct StillnessWindow: Sendable, Equatable {
    package struct Limits: Sendable, Equatable, Hashable, Codable {
        /// rad/s per axis (default 3 °/s).
        package var gyroThreshold = MotionMath.radians(3)
        /// g per axis.
        package var accelThreshold = 0.05
        /// Standard deviations of the recent-average shift that count as motion.
        package var shiftSigmas = 5.0
        /// Seconds of the recent gyro average.
        package var recentTime = 0.1
        /// The smallest gyro noise assumed, rad/s (quantised sensors can read constant).
        package var noiseFloor = MotionMath.radians(0.02)
        /// radians (default 1°).
        package var maxTiltDrift = MotionMath.radians(1)
        package var tiltReferenceTime = 0.2
        package var settleTime = 0.25
        package var minSamples = 10
        package init() {}
    }

    package var limits: Limits
    package private(set) var duration = 0.0
    private var gyro = RunningStats()
    private var accelMean = RunningStats()
    private var tiltReference = RunningStats()
    private var recentGyro = Vec3.zero
    private var recentAccel: Vec3?
    private var recentVarianceFactor = 0.0
    /// Gyro mean over the settled part of the window, and how long that part is.
    package private(set) var settled = RunningStats()
    package private(set) var settledDuration = 0.0

    package init(limits: Limits = Limits()) { self.limits = limits }

    package var count: Int { gyro.count }
    /// The mean acceleration over the window (nil without accelerometer samples): at rest,
    /// gravity with the sensor's noise averaged away.
    package var meanAcceleration: Vec3? { accelMean.count > 0 ? accelMean.mean : nil }
    /// The window's gyro noise (standard deviation per axis, rad/s), floored.
    package var noise: Vec3 { gyro.variance.map { Swift.max($0, limits.noiseFloor * limits.noiseFloor).squareRoot() } }

    package mutating func reset() { self = StillnessWindow(limits: limits) }

    /// Whether this sample (`dt` after the previous one) breaks the window's stillness.
    package func isMoving(gyro g: Vec3, accel: Vec3?, dt: Double) -> Bool {
        guard count > 0 else { return false }
        if (g - gyro.mean).maxMagnitude > limits.gyroThreshold { return true }
        if count >= limits.minSamples {
            let alpha = dt / (limits.recentTime + dt)
            let shift = recentGyro + (g - recentGyro) * alpha - gyro.mean
            let factor = (1 - alpha) * (1 - alpha) * recentVarianceFactor + alpha * alpha + 1 / Double(count)
            let k2 = limits.shiftSigmas * limits.shiftSigmas * factor
            let v = gyro.variance, floor2 = limits.noiseFloor * limits.noiseFloor
            if shift.x * shift.x > k2 * Swift.max(v.x, floor2) || shift.y * shift.y > k2 * Swift.max(v.y, floor2)
                || shift.z * shift.z > k2 * Swift.max(v.z, floor2) {
                return true
            }
        }
        guard let a = accel, accelMean.count > 0 else { return false }
        if (a - accelMean.mean).maxMagnitude > limits.accelThreshold { return true }
        if duration >= limits.tiltReferenceTime, tiltReference.count > 0, let r = recentAccel,
           tiltReference.mean.angle(to: r) > limits.maxTiltDrift {
            return true
        }
        return false
    }

    /// Adds a sample that did not move. `dt` is the time since the previous sample.
    package mutating func add(gyro g: Vec3, accel: Vec3?, dt: Double) {
        let first = count == 0
        if !first { duration += dt }
        gyro.add(g)
        if first {
            recentGyro = g
        } else {
            let alpha = dt / (limits.recentTime + dt)
            recentGyro += (g - recentGyro) * alpha
            // Variance factor of the exponential average: f ← (1−α)²·f + α², → α/(2−α).
            recentVarianceFactor = (1 - alpha) * (1 - alpha) * recentVarianceFactor + alpha * alpha
        }
        if first { recentVarianceFactor = 1 }
        if let a = accel {
            accelMean.add(a)
            if duration < limits.tiltReferenceTime { tiltReference.add(a) }
            if let r = recentAccel {
                let alpha = dt / (limits.tiltReferenceTime + dt)
                recentAccel = r + (a - r) * alpha
            } else {
                recentAccel = a
            }
        }
        if duration >= limits.settleTime {
            if settled.count > 0 { settledDuration += dt }
            settled.add(g)
        }
    }
}
