import RemotionProtocol

/// How three-axis gyro rates become the two rates a mouse needs (JoyShockMapper's
/// GYRO_SPACE; GyroWiki, "Player Space Gyro (and Alternatives) Explained", 2021).
/// Formulas are GamepadMotionHelpers' `CalculatePlayerSpaceGyro` /
/// `CalculateWorldSpaceGyro` (GamepadMotion.hpp, J. Smart, MIT), applied after an
/// explicit change of axes.
///
/// Axes. GamepadMotionHelpers (GMH) uses the DualShock 4 / SDL frame: x right, y up,
/// z towards the player, gravity ≈ (0, −1, 0) when the pad lies flat. Remotion's device
/// frame (CoreMotion) held as a pointer — flat, screen up, top towards the monitor —
/// has x right, y forward (towards the monitor), z up. So, for any vector v:
///
///     GMH.x = v.x      GMH.y = v.z      GMH.z = −v.y          (a proper rotation)
///
/// GMH's outputs are "x" (rate about its x axis: pitch, + = top tilts up) and "y" (rate
/// about its y axis: yaw, + = turns left); these are our pitch (gyro.x sign) and yaw
/// (gyro.z sign), so no sign changes come out. With g = gravity in GMH axes (unit,
/// pointing down) and ω = calibrated gyro in GMH axes:
///
///     local:   yaw = ω.y                                   pitch = ω.x
///     player:  w   = −(g.y ω.y + g.z ω.z)                  (world yaw, pitch axis left out)
///              yaw = sign(w) · min(|w| · relax, √(ω.y² + ω.z²))       relax = 1.41
///              pitch = ω.x
///     world:   yaw = −g·ω
///              p   = normalise(x̂ − g·g.x)                  (pitch axis in the ground plane)
///              side = clamp((max(|g.y|, |g.z|) − t) / t, 0, 1)          t = 0.125
///              pitch = side · p·ω                          (0 when p degenerates)
///
/// Player space takes the yaw direction from gravity but the magnitude from the
/// controller's yaw + roll axes, so gravity errors never leak in: turning about gravity
/// with the controller pitched (top raised or lowered) gives the flat-held rate. It does
/// not compensate roll about the long axis (that rotation lands on the pitch axis) —
/// world space does, at the cost of taking on gravity errors.
package enum GyroSpace: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
    case local
    case player
    case world

    /// Player space: how far beyond the world yaw the output may go (GMH's 1.41).
    package static let yawRelaxFactor = 1.41
    /// World space: the tilt ("side") below which pitch fades out (GMH's 0.125).
    package static let sideReductionThreshold = 0.125

    /// Yaw and pitch rates (rad/s; yaw + = left, pitch + = up) from calibrated gyro
    /// rates (device frame, rad/s) and gravity in the device frame (pointing down; any
    /// length, it is normalised; `nil` when unknown, which falls back to local space).
    package func rates(gyro: Vec3, gravity: Vec3?) -> (yaw: Double, pitch: Double) {
        guard case let g? = gravity?.normalized else { return (gyro.z, gyro.x) }
        let w = Self.toGMH(gyro), grav = Self.toGMH(g)
        switch self {
        case .local:
            return (w.y, w.x)
        case .player:
            let worldYaw = -(grav.y * w.y + grav.z * w.z)
            let sign: Double = worldYaw < 0 ? -1 : 1
            let yaw = sign * Swift.min(Swift.abs(worldYaw) * Self.yawRelaxFactor, (w.y * w.y + w.z * w.z).squareRoot())
            return (yaw, w.x)
        case .world:
            let worldYaw = -grav.dot(w)
            let pitchAxis = Vec3(1 - grav.x * grav.x, -grav.y * grav.x, -grav.z * grav.x)
            guard let p = pitchAxis.normalized else { return (worldYaw, 0) }
            let t = Self.sideReductionThreshold
            let side = Swift.min(Swift.max((Swift.max(Swift.abs(grav.y), Swift.abs(grav.z)) - t) / t, 0), 1)
            return (worldYaw, side * p.dot(w))
        }
    }

    /// Remotion device axes → GamepadMotionHelpers axes (see the type's documentation).
    package static func toGMH(_ v: Vec3) -> Vec3 { Vec3(v.x, v.z, -v.y) }
    /// GamepadMotionHelpers axes → Remotion device axes.
    package static func fromGMH(_ v: Vec3) -> Vec3 { Vec3(v.x, -v.z, v.y) }
}
