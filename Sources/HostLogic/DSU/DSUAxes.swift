import RemotionProtocol
import RealModule

/// How DSU's accelerometer and gyroscope fields map to Remotion's `MotionSample`.
///
/// **Remotion** (CoreMotion device frame, `MotionSample`): hold the phone flat, screen
/// up, top pointing away from you. x points right, y forward (to the top edge), z up
/// (out of the screen). Gyro in rad/s, right-handed about those axes: `x` pitch (top
/// tilts up > 0), `y` roll (right edge goes down > 0), `z` yaw (turns left,
/// counter-clockwise seen from above, > 0). Acceleration in g as Remotion's protocol
/// carries it (docs/PROTOCOL.md, docs/MOTION.md "sensors.accelerometer"): the specific
/// force, as Android, W3C `accelerationIncludingGravity` and the web controller report it:
/// lying still and flat it reads (0, 0, +1).
///
/// **DSU** (DualShock 4 held flat in front of you, as Dolphin and yuzu read it): the
/// accelerometer's x points right, y up, z toward you; lying still and flat it reads
/// (0, −1, 0) g (Dolphin's "Accel Up" input is −y). The gyro fields, in °/s, are named
/// after the motion, not after right-handed axes: pitch > 0 when the far end tilts up
/// (Dolphin "Pitch Up"), yaw > 0 when it turns right (Dolphin "Yaw Right"; yuzu uses
/// −yaw as its z), roll > 0 when the right side goes down (Dolphin "Roll Right").
///
/// So, with Remotion's (x, y, z) and DSU's fields:
///
///     gyro  (rad/s)  x = pitch·π/180     y = roll·π/180      z = −yaw·π/180
///     accel (g)      x = −accel.x        y = accel.z         z = −accel.y
///
/// and back: pitch = deg(x), yaw = −deg(z), roll = deg(y); accel.x = −x,
/// accel.y = −z, accel.z = y. (DSU's reading points along gravity, Remotion's against
/// it: the accelerometer mapping is the frame change with the sign flipped.) Signs differ between DSU implementations (DS4Windows
/// negates the DS4's raw z; phone apps disagree with each other): this is the
/// convention of the two most used clients (Dolphin, yuzu/Citra), under which a phone
/// app that works in them also works here.
package enum DSUAxes {
    package static let degreesPerRadian = 180 / Double.pi

    /// DSU gyro (°/s) → Remotion gyro (rad/s).
    package static func remotionGyro(_ g: DSUGyro) -> Vector3 {
        let k = Float(1 / degreesPerRadian)
        return Vector3(x: g.pitch * k, y: g.roll * k, z: -g.yaw * k)
    }

    /// Remotion gyro (rad/s) → DSU gyro (°/s).
    package static func dsuGyro(_ v: Vector3) -> DSUGyro {
        let k = Float(degreesPerRadian)
        return DSUGyro(pitch: v.x * k, yaw: -v.z * k, roll: v.y * k)
    }

    /// DSU accelerometer (g) → Remotion acceleration (g).
    package static func remotionAccel(_ a: DSUAccel) -> Vector3 { Vector3(x: -a.x, y: a.z, z: -a.y) }

    /// Remotion acceleration (g) → DSU accelerometer (g).
    package static func dsuAccel(_ v: Vector3) -> DSUAccel { DSUAccel(x: -v.x, y: -v.z, z: v.y) }

    /// Remotion's sticks and triggers into a pad-data packet (the inverse of
    /// `remotionAnalog`): each stick axis 128 ± 127, y positive up; triggers 0…255 — and a
    /// trigger's analog byte is at least its analog value (a pressed L2/R2 button is 255).
    package static func apply(_ a: AnalogState, to p: inout DSUPadData) {
        func byte(_ v: Float) -> UInt8 { UInt8(128 + Int((max(-1, min(1, v.isFinite ? v : 0)) * 127).rounded())) }
        func trigger(_ v: Float) -> UInt8 { UInt8((max(0, min(1, v.isFinite ? v : 0)) * 255).rounded()) }
        p.leftStickX = byte(a.leftX); p.leftStickY = byte(-a.leftY)
        p.rightStickX = byte(a.rightX); p.rightStickY = byte(-a.rightY)
        p.analog.l2 = max(p.analog.l2, trigger(a.leftTrigger))
        p.analog.r2 = max(p.analog.r2, trigger(a.rightTrigger))
    }

    /// A pad's sticks (bytes 40–43: 128 neutral, y positive up) and analog triggers
    /// (L2, R2: 0…255) as Remotion's analog state (−1…1 with y down, triggers 0…1).
    package static func remotionAnalog(_ p: DSUPadData) -> AnalogState {
        func axis(_ b: UInt8) -> Float { max(-1, min(1, (Float(b) - 128) / 127)) }
        return AnalogState(leftX: axis(p.leftStickX), leftY: -axis(p.leftStickY), rightX: axis(p.rightStickX),
                           rightY: -axis(p.rightStickY), leftTrigger: Float(p.analog.l2) / 255,
                           rightTrigger: Float(p.analog.r2) / 255)
    }

    /// The DS4's touchpad in the units DSU servers send (cemuhook's protocol: the pad's own
    /// pixels, 1920 × 942): coordinates past it are clamped to the edge.
    package static let touchWidth: Float = 1920, touchHeight: Float = 942

    /// A pad's two touches (bytes 56–67) as Remotion's: 0…1 of the pad, inactive ones absent.
    package static func remotionTouch(_ p: DSUPadData) -> TouchState {
        func finger(_ t: DSUTouch) -> TouchState.Finger? {
            guard t.isActive else { return nil }
            return .init(id: t.id, x: min(1, Float(t.x) / (touchWidth - 1)), y: min(1, Float(t.y) / (touchHeight - 1)))
        }
        return TouchState(first: finger(p.touch1), second: finger(p.touch2))
    }

    /// Remotion's touches into a pad-data packet (the inverse of `remotionTouch`): each finger
    /// active with its id, 0…1 of the pad as the DS4's pixels (a value from outside that is
    /// not finite reads as the pad's corner, one past it as its edge); no finger, inactive.
    package static func apply(_ t: TouchState, to p: inout DSUPadData) {
        func pixel(_ v: Float, _ size: Float) -> UInt16 { UInt16((max(0, min(1, v.isFinite ? v : 0)) * (size - 1)).rounded()) }
        func touch(_ f: TouchState.Finger?) -> DSUTouch {
            guard let f else { return .none }
            return DSUTouch(isActive: true, id: f.id, x: pixel(f.x, touchWidth), y: pixel(f.y, touchHeight))
        }
        p.touch1 = touch(t.first)
        p.touch2 = touch(t.second)
    }

    /// What an accelerometer lying still and flat reads, in Remotion's frame.
    package static let flatGravity = Vector3(x: 0, y: 0, z: 1)

    /// The accelerometer reading (g, Remotion frame) of a device at rest with this
    /// attitude: the specific force (0, 0, +1) of the reference frame, seen from the device.
    /// CoreMotion's Euler angles compose as R = Rz(yaw)·Rx(pitch)·Ry(roll), so the
    /// device sees Rᵀ·(0, 0, 1) = (−sin roll·cos pitch, sin pitch, cos roll·cos pitch).
    /// Yaw does not matter.
    package static func gravity(for attitude: Attitude) -> Vector3 {
        let (sr, cr) = (Double.sin(attitude.roll), Double.cos(attitude.roll))
        let (sp, cp) = (Double.sin(attitude.pitch), Double.cos(attitude.pitch))
        return Vector3(x: Float(-sr * cp), y: Float(sp), z: Float(cr * cp))
    }

    /// The body-frame angular velocity (rad/s, Remotion frame) that turns attitude `a`
    /// into `b` in `seconds`: the axis–angle of Rₐᵀ·R_b divided by the time. Exact for
    /// a constant rate about a fixed body axis; handles the ±π yaw seam. Returns zero
    /// for a non-positive time or non-finite input.
    package static func angularVelocity(from a: Attitude, to b: Attitude, seconds: Double) -> Vector3 {
        guard seconds > 0, a.isFinite, b.isFinite else { return .zero }
        let rel = Matrix3.rotation(a).transposed * Matrix3.rotation(b)
        // Antisymmetric part = 2·sin(angle)·axis; trace = 1 + 2·cos(angle).
        let w = (x: rel[2, 1] - rel[1, 2], y: rel[0, 2] - rel[2, 0], z: rel[1, 0] - rel[0, 1])
        let sinAngle = (w.x * w.x + w.y * w.y + w.z * w.z).squareRoot() / 2
        let cosAngle = (rel.trace - 1) / 2
        // No rotation, or a half turn between two samples (axis undefined): no rate.
        guard sinAngle > 1e-12 else { return .zero }
        let angle = Double.atan2(y: sinAngle, x: cosAngle)
        let scale = angle / (2 * sinAngle)
        return Vector3(x: Float(w.x * scale / seconds), y: Float(w.y * scale / seconds),
                       z: Float(w.z * scale / seconds))
    }
}

/// A 3×3 rotation matrix, row major; just enough for `DSUAxes`.
struct Matrix3 {
    var m: [Double]   // 9 elements

    subscript(_ r: Int, _ c: Int) -> Double { m[r * 3 + c] }

    var transposed: Matrix3 { Matrix3(m: [m[0], m[3], m[6], m[1], m[4], m[7], m[2], m[5], m[8]]) }
    var trace: Double { m[0] + m[4] + m[8] }

    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        var out = [Double](repeating: 0, count: 9)
        for r in 0..<3 { for c in 0..<3 { out[r * 3 + c] = (0..<3).reduce(0) { $0 + a[r, $1] * b[$1, c] } } }
        return Matrix3(m: out)
    }

    /// R = Rz(yaw)·Rx(pitch)·Ry(roll), CoreMotion's order.
    static func rotation(_ a: Attitude) -> Matrix3 {
        let (sy, cy) = (Double.sin(a.yaw), Double.cos(a.yaw))
        let (sp, cp) = (Double.sin(a.pitch), Double.cos(a.pitch))
        let (sr, cr) = (Double.sin(a.roll), Double.cos(a.roll))
        let rz = Matrix3(m: [cy, -sy, 0, sy, cy, 0, 0, 0, 1])
        let rx = Matrix3(m: [1, 0, 0, 0, cp, -sp, 0, sp, cp])
        let ry = Matrix3(m: [cr, 0, sr, 0, 1, 0, -sr, 0, cr])
        return rz * rx * ry
    }
}
