import Foundation
import RemotionProtocol
@testable import RemotionHostLogic

/// A synthetic IMU with known truth. The true orientation (body → world, world z up) is
/// integrated from an angular-velocity function with quaternion exponentials (midpoint
/// rule, `substeps` per sample); each sample reports
///
///     gyro  = true body rate at the sample time + bias + N(0, gyroNoise²) per axis
///     accel = (world up + linear(t)) in the body frame (proper acceleration, g) + N(0, accelNoise²)
///
/// (negated for the `.down` convention), stamped on a µs clock at `rate` Hz.
struct SyntheticIMU {
    /// Body angular velocity (rad/s) at time t given the true orientation.
    typealias Rate = @Sendable (_ t: Double, _ truth: Quaternion) -> Vec3

    var rate = 250.0
    var bias = Vec3.zero
    var gyroNoise = 0.0
    var accelNoise = 0.0
    /// The body's linear acceleration in the world frame, g (a shove of the hand).
    var linear: @Sendable (_ t: Double) -> Vec3 = { _ in .zero }
    var convention = RawMotionPipeline.AccelerometerConvention.up
    var substeps = 8
    var startMicros: UInt64 = 1_000_000
    private(set) var truth: Quaternion
    private(set) var time = 0.0
    private var rng: SplitMix64

    init(seed: UInt64, truth: Quaternion = .identity) {
        rng = SplitMix64(seed: seed)
        self.truth = truth
    }

    var timestampMicros: UInt64 { startMicros + UInt64((time * 1e6).rounded()) }

    /// Advances one sample period under `omega` and returns the sample the sensor reports.
    mutating func next(buttons: ButtonSet = .none, _ omega: Rate) -> MotionSample {
        let dt = 1 / rate
        let h = dt / Double(substeps)
        for i in 0..<substeps {
            let tm = time + (Double(i) + 0.5) * h
            truth = (truth * Self.exp(omega(tm, truth) * h)).normalized
        }
        time += dt
        let w = omega(time, truth)
        let gyro = w + bias + gaussianVector(gyroNoise)
        var accel = truth.inverseRotate(.unitZ + linear(time)) + gaussianVector(accelNoise)
        if convention == .down { accel = -accel }
        return MotionSample(timestampMicros: timestampMicros, gyro: gyro.vector3,
                            acceleration: accel.vector3, buttons: buttons)
    }

    /// `seconds` of samples under `omega`, each passed to `body` with the truth after it.
    mutating func run(seconds: Double, buttons: ButtonSet = .none, _ omega: Rate,
                      _ body: (MotionSample, Quaternion) -> Void) {
        let n = Int((seconds * rate).rounded())
        for _ in 0..<n {
            let s = next(buttons: buttons, omega)
            body(s, truth)
        }
    }

    static let still: Rate = { _, _ in .zero }

    /// A constant rotation about a world-fixed axis (rad/s, world frame).
    static func worldRate(_ w: Vec3) -> Rate { { _, q in q.inverseRotate(w) } }

    /// The quaternion of the rotation vector v (axis · angle).
    static func exp(_ v: Vec3) -> Quaternion {
        let angle = v.length
        guard angle > 0 else { return .identity }
        let s = Foundation.sin(angle / 2) / angle
        return Quaternion(w: Foundation.cos(angle / 2), x: v.x * s, y: v.y * s, z: v.z * s)
    }

    private mutating func gaussian() -> Double {
        let u1 = max(Double.leastNonzeroMagnitude, rng.nextUnit())
        let u2 = rng.nextUnit()
        return (-2 * Foundation.log(u1)).squareRoot() * Foundation.cos(2 * Double.pi * u2)
    }

    private mutating func gaussianVector(_ sigma: Double) -> Vec3 {
        guard sigma > 0 else { return .zero }
        return Vec3(gaussian() * sigma, gaussian() * sigma, gaussian() * sigma)
    }
}

/// CoreMotion's composition q = qz(yaw) ⊗ qx(pitch) ⊗ qy(roll), angles in degrees.
func orientation(rollDeg: Double = 0, pitchDeg: Double = 0, yawDeg: Double = 0) -> Quaternion {
    let r = rollDeg * .pi / 180, p = pitchDeg * .pi / 180, y = yawDeg * .pi / 180
    let qz = Quaternion(w: cos(y / 2), x: 0, y: 0, z: sin(y / 2))
    let qx = Quaternion(w: cos(p / 2), x: sin(p / 2), y: 0, z: 0)
    let qy = Quaternion(w: cos(r / 2), x: 0, y: sin(r / 2), z: 0)
    return qz * qx * qy
}

func degrees(_ r: Double) -> Double { r * 180 / .pi }
func radians(_ d: Double) -> Double { d * .pi / 180 }
func degreesVector(_ v: Vec3) -> Vec3 { Vec3(degrees(v.x), degrees(v.y), degrees(v.z)) }
func radiansVector(_ v: Vec3) -> Vec3 { Vec3(radians(v.x), radians(v.y), radians(v.z)) }

/// A 30 s-style mix of rotations on all three body axes (rad/s), peaking near 200 °/s.
let mixedRotation: SyntheticIMU.Rate = { t, _ in
    func s(_ f: Double, _ phase: Double) -> Double { sin(2 * .pi * f * t + phase) }
    return Vec3(1.5 * s(0.37, 0) + 0.75 * s(1.7, 1),
                1.25 * s(0.23, 2) + 0.6 * s(1.1, 0),
                1.8 * s(0.31, 0.5) + 0.9 * s(2.3, 3))
}
