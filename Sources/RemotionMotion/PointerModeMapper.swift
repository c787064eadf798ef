import RemotionCore

/// Absolute, Wiimote-like pointing: the direction the controller points in is a
/// position on the screen.
///
///     centerYaw  += excess(roll, rollThreshold) · driftRate     (drifting centre)
///     x = width/2  - wrap(yaw - centerYaw)     / fovX · width  · sensitivity
///     y = height/2 - wrap(pitch - centerPitch) / fovY · height · sensitivity
///
/// then both are clamped 2 px inside the screen. `moveBy` is the change of the
/// clamped position since the previous update, so it always agrees with `moveTo`.
/// The first update (and the one after `recenter()`) takes the current direction
/// as the centre.
public struct PointerModeMapper: Sendable, Equatable {
    public var settings: PointerSettings
    public var sensitivity: Double

    /// The yaw (radians, (-π, π]) that points at the screen centre.
    public private(set) var centerYaw: Double = 0
    /// The pitch (radians) that points at the screen centre.
    public private(set) var centerPitch: Double = 0
    private var recenterPending = true
    private var previousX: Int?
    private var previousY: Int?

    public init(settings: PointerSettings = PointerSettings(), sensitivity: Double = 1) {
        self.settings = settings
        self.sensitivity = sensitivity
    }

    /// Makes the direction the controller points at on the next update the centre.
    public mutating func recenter() {
        recenterPending = true
    }

    /// Forgets the previous position, so the next update reports no relative motion.
    public mutating func resetBaseline() {
        previousX = nil
        previousY = nil
    }

    public mutating func update(_ attitude: Attitude, screen: ScreenGeometry) -> PointerOutput {
        guard attitude.isFinite, screen.width > 0, screen.height > 0 else { return .none }
        if recenterPending {
            recenterPending = false
            centerYaw = MotionMath.wrap(attitude.yaw)
            centerPitch = attitude.pitch
        }

        // Heavy roll drags the centre, as the seed's "center setter" does.
        let drift = MotionMath.excess(attitude.roll, beyond: settings.rollThreshold) * settings.driftRate
        centerYaw = MotionMath.wrap(centerYaw + drift)

        let fovX = MotionMath.radians(settings.fovX)
        let fovY = MotionMath.radians(settings.fovY)
        let w = Double(screen.width), h = Double(screen.height)
        let x = w / 2 - MotionMath.wrap(attitude.yaw - centerYaw) / fovX * w * sensitivity
        let y = h / 2 - MotionMath.wrap(attitude.pitch - centerPitch) / fovY * h * sensitivity

        let px = MotionMath.clampInside(x, extent: screen.width)
        let py = MotionMath.clampInside(y, extent: screen.height)
        let dx = previousX.map { px - $0 } ?? 0
        let dy = previousY.map { py - $0 } ?? 0
        previousX = px
        previousY = py
        return PointerOutput(moveTo: (px, py), moveBy: (dx, dy))
    }
}
