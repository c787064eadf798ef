import RealModule
import RemotionProtocol

/// A rotation quaternion q = w + xi + yj + zk (Hamilton convention, unit length when
/// it is a rotation). In this module an orientation quaternion rotates the device
/// (body) frame into the world frame: v_world = q ⊗ (0, v_body) ⊗ q*. The world frame
/// is CoreMotion's `xArbitraryZVertical`: z up, x/y horizontal with an arbitrary
/// heading; the identity is the device lying flat, screen up.
package struct Quaternion: Hashable, Sendable, CustomStringConvertible {
    package var w: Double
    package var x: Double
    package var y: Double
    package var z: Double

    package init(w: Double, x: Double, y: Double, z: Double) {
        self.w = w; self.x = x; self.y = y; self.z = z
    }

    package static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    package var vector: Vec3 { Vec3(x, y, z) }
    package var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }
    package var norm: Double { (w * w + x * x + y * y + z * z).squareRoot() }
    package var isFinite: Bool { w.isFinite && x.isFinite && y.isFinite && z.isFinite }

    /// Unit length; the identity if the quaternion is zero or not finite.
    package var normalized: Quaternion {
        let n = norm
        guard n > 0, n.isFinite else { return .identity }
        return Quaternion(w: w / n, x: x / n, y: y / n, z: z / n)
    }

    package static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
                   x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                   y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                   z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }
    package static func + (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(w: a.w + b.w, x: a.x + b.x, y: a.y + b.y, z: a.z + b.z)
    }
    package static func * (a: Quaternion, k: Double) -> Quaternion {
        Quaternion(w: a.w * k, x: a.x * k, y: a.y * k, z: a.z * k)
    }

    /// q ⊗ (0, v) ⊗ q*: a body-frame vector expressed in the world frame (q unit).
    package func rotate(_ v: Vec3) -> Vec3 {
        let u = vector
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// q* ⊗ (0, v) ⊗ q: a world-frame vector expressed in the body frame (q unit).
    package func inverseRotate(_ v: Vec3) -> Vec3 { conjugate.rotate(v) }

    /// The world's up axis (0, 0, 1) in the body frame: the third row of the rotation
    /// matrix, (2(xz − wy), 2(yz + wx), 1 − 2(x² + y²)). A resting accelerometer that
    /// reports proper acceleration reads this (in g).
    package var up: Vec3 {
        Vec3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))
    }

    /// The rotation angle of this (unit) quaternion, radians in [0, π].
    package var angle: Double { 2 * Double.atan2(y: vector.length, x: Swift.abs(w)) }

    /// CoreMotion's Euler angles. CoreMotion composes R = Rz(yaw)·Rx(pitch)·Ry(roll)
    /// (Z-X′-Y″), so from the rotation matrix R(q):
    ///
    ///     pitch = asin(R₂₁)           = asin(2(wx + yz))            [−π/2, π/2]
    ///     roll  = atan2(−R₂₀, R₂₂)    = atan2(2(wy − xz), 1 − 2(x² + y²))
    ///     yaw   = atan2(−R₀₁, R₁₁)    = atan2(2(wz − xy), 1 − 2(x² + z²))
    ///
    /// Yaw grows turning left (counter-clockwise seen from above), pitch grows when the
    /// top tilts up, as docs/MOTION.md describes.
    package var attitude: Attitude {
        Attitude(roll: Double.atan2(y: 2 * (w * y - x * z), x: 1 - 2 * (x * x + y * y)),
                 pitch: Double.asin(Swift.min(Swift.max(2 * (w * x + y * z), -1), 1)),
                 yaw: Double.atan2(y: 2 * (w * z - x * y), x: 1 - 2 * (x * x + z * z)))
    }

    /// The orientation of a CoreMotion attitude: q = qz(yaw) ⊗ qx(pitch) ⊗ qy(roll), the
    /// inverse of `attitude` (used to read gravity off a controller's own attitude).
    package init(attitude a: Attitude) {
        let qz = Quaternion(w: Double.cos(a.yaw / 2), x: 0, y: 0, z: Double.sin(a.yaw / 2))
        let qx = Quaternion(w: Double.cos(a.pitch / 2), x: Double.sin(a.pitch / 2), y: 0, z: 0)
        let qy = Quaternion(w: Double.cos(a.roll / 2), x: 0, y: Double.sin(a.roll / 2), z: 0)
        self = qz * qx * qy
    }

    /// The shortest-arc rotation taking the unit vector `from` onto the unit vector `to`:
    /// q = normalize(1 + from·to, from × to). Antiparallel vectors turn π about any axis
    /// perpendicular to `from`.
    package init(from: Vec3, to: Vec3) {
        let d = from.dot(to)
        if d < -0.999_999_999 {
            let axis = (Swift.abs(from.x) < 0.9 ? Vec3.unitX : Vec3.unitY).cross(from).normalized ?? .unitZ
            self = Quaternion(w: 0, x: axis.x, y: axis.y, z: axis.z)
            return
        }
        let c = from.cross(to)
        self = Quaternion(w: 1 + d, x: c.x, y: c.y, z: c.z).normalized
    }

    /// The orientation with no heading whose body-frame up axis is `up` (unit): the
    /// shortest arc that takes `up` onto the world z axis. Used to start the filter
    /// level with the first accelerometer reading.
    package init(levelling up: Vec3) {
        self.init(from: up, to: .unitZ)
    }

    package var description: String { "(\(w); \(x), \(y), \(z))" }
}
