import RealModule
import RemotionProtocol

/// A double-precision three-vector for the raw-sensor math (calibration, fusion, gyro
/// spaces). Axes are the device frame of `MotionSample`: x = pitch axis (towards the
/// device's right edge), y = roll axis (towards its top), z = yaw axis (out of the screen).
/// `Vector3` (Float, no arithmetic) is the wire type; this is the working type: the
/// calibrator averages thousands of samples and the filter integrates small steps, which
/// want Double. (swift-numerics 1.1 has no vector or quaternion type.)
package struct Vec3: Hashable, Sendable, CustomStringConvertible {
    package var x: Double
    package var y: Double
    package var z: Double

    package init(_ x: Double, _ y: Double, _ z: Double) { self.x = x; self.y = y; self.z = z }
    package init(_ v: Vector3) { x = Double(v.x); y = Double(v.y); z = Double(v.z) }

    package static let zero = Vec3(0, 0, 0)
    package static let unitX = Vec3(1, 0, 0)
    package static let unitY = Vec3(0, 1, 0)
    package static let unitZ = Vec3(0, 0, 1)

    package var vector3: Vector3 { Vector3(x: Float(x), y: Float(y), z: Float(z)) }
    package var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
    package var lengthSquared: Double { x * x + y * y + z * z }
    package var length: Double { lengthSquared.squareRoot() }

    /// The unit vector in the same direction; `nil` for a zero or non-finite vector.
    package var normalized: Vec3? {
        let l = length
        guard l > 0, l.isFinite else { return nil }
        return self / l
    }

    package func dot(_ o: Vec3) -> Double { x * o.x + y * o.y + z * o.z }
    package func cross(_ o: Vec3) -> Vec3 {
        Vec3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x)
    }
    package func map(_ f: (Double) -> Double) -> Vec3 { Vec3(f(x), f(y), f(z)) }
    /// The largest absolute component.
    package var maxMagnitude: Double { Swift.max(abs(x), abs(y), abs(z)) }

    /// The angle between two non-zero vectors, radians in [0, π] (0 if either is zero).
    package func angle(to o: Vec3) -> Double {
        Double.atan2(y: cross(o).length, x: dot(o))
    }

    package static func + (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x + b.x, a.y + b.y, a.z + b.z) }
    package static func - (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x - b.x, a.y - b.y, a.z - b.z) }
    package static prefix func - (a: Vec3) -> Vec3 { Vec3(-a.x, -a.y, -a.z) }
    package static func * (a: Vec3, k: Double) -> Vec3 { Vec3(a.x * k, a.y * k, a.z * k) }
    package static func * (k: Double, a: Vec3) -> Vec3 { a * k }
    package static func / (a: Vec3, k: Double) -> Vec3 { Vec3(a.x / k, a.y / k, a.z / k) }
    package static func += (a: inout Vec3, b: Vec3) { a = a + b }
    package static func -= (a: inout Vec3, b: Vec3) { a = a - b }

    package var description: String { "(\(x), \(y), \(z))" }
}

/// Running mean and variance of vectors, per axis (Welford's online algorithm:
/// δ = v − mean; mean += δ/n; m2 += δ·(v − mean)).
package struct RunningStats: Hashable, Sendable {
    package private(set) var mean = Vec3.zero
    package private(set) var count = 0
    private var m2 = Vec3.zero

    package init() {}

    package mutating func add(_ v: Vec3) {
        count += 1
        let delta = v - mean
        mean += delta / Double(count)
        let after = v - mean
        m2 += Vec3(delta.x * after.x, delta.y * after.y, delta.z * after.z)
    }

    /// The sample variance per axis (0 with fewer than two samples).
    package var variance: Vec3 { count > 1 ? m2 / Double(count - 1) : .zero }
}
