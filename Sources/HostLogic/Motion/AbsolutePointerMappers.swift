import RemotionProtocol

/// The seed article's MotionInjector, reconstructed (docs/MOTION.md, "Seed mode").
///
/// Per update, with roll r, pitch p and yaw z (radians):
///
///     z'          = z + π                                        (0 … 2π)
///     centerAngle += excess(r, 0.2) / 100, wrapped into [0, 2π]   (center setter)
///     deltaAngle  = wrap(centerAngle - z')                       (angle overflow check)
///     ppr         = width / yawSpan · sensitivity                 (pixels per radian)
///     actual.x    = width/2  + deltaAngle · ppr
///     actual.y    = height/2 - (p - pitchCenter) · ppr
///     delta       = actual - previous                            (unclamped)
///     turning     = excess(r, 0.06) · turn · sensitivity
///     moveTo      = actual clamped 2 px inside the screen
///     moveBy      = (round(delta.x + turning), round(delta.y))
package struct SeedPointerMapper: Sendable, Equatable {
    /// Roll beyond which the centre angle drifts ("center setter" mode).
    package static let centerSetterRoll = 0.2
    /// Centre drift per update per radian of roll beyond `centerSetterRoll`.
    package static let centerSetterRate = 0.01
    /// Roll beyond which the turning delta is added.
    package static let turningRoll = 0.06

    package var settings: SeedSettings
    /// The seed's sensitivityRatio.
    package var sensitivity: Double

    /// The yaw (+π, in [0, 2π)) that points at the screen's horizontal centre.
    package private(set) var centerAngle: Double = .pi
    /// The pitch that points at the screen's vertical centre.
    package private(set) var pitchCenter: Double = 0
    /// The last turning delta, pixels.
    package private(set) var turningAngle: Double = 0
    /// The unclamped position of the previous update (the seed's delta is unclamped).
    private var baseline = PositionBaseline<Double>()
    private var recenterPending = false

    package init(settings: SeedSettings = SeedSettings(), sensitivity: Double = 1) {
        self.settings = settings
        self.sensitivity = sensitivity
    }

    /// Makes the direction the controller points at on the next update the screen
    /// centre. That update reports no relative motion (no jump in games).
    package mutating func recenter() { recenterPending = true }

    /// Forgets the previous position, so the next update reports no relative motion.
    package mutating func resetBaseline() { baseline.reset() }

    package mutating func update(_ attitude: Attitude, screen: ScreenGeometry) -> PointerOutput {
        guard attitude.isFinite, screen.width > 0, screen.height > 0 else { return .none }
        let roll = attitude.roll
        let z = MotionMath.wrapPositive(attitude.yaw + .pi)

        if recenterPending {
            recenterPending = false
            centerAngle = z
            pitchCenter = attitude.pitch
            resetBaseline()
        }

        // Center setter: heavy roll slowly moves the centre angle.
        centerAngle = MotionMath.wrapPositive(
            centerAngle + MotionMath.excess(roll, beyond: Self.centerSetterRoll) * Self.centerSetterRate)

        // Yaw relative to the centre, through the shorter way round (the seed's border
        // angles centerAngle ± π).
        let deltaAngle = MotionMath.wrap(centerAngle - z)
        let ppr = Double(screen.width) / MotionMath.radians(settings.yawSpan) * sensitivity
        let actualX = Double(screen.width) / 2 + deltaAngle * ppr
        let actualY = Double(screen.height) / 2 - MotionMath.wrap(attitude.pitch - pitchCenter) * ppr

        let (deltaX, deltaY) = baseline.step(to: actualX, actualY)

        turningAngle = MotionMath.excess(roll, beyond: Self.turningRoll) * settings.turn * sensitivity

        let screenX = MotionMath.clampInside(actualX, extent: screen.width)
        let screenY = MotionMath.clampInside(actualY, extent: screen.height)
        return PointerOutput(
            moveTo: (screenX, screenY),
            moveBy: (MotionMath.pixels(deltaX + turningAngle), MotionMath.pixels(deltaY)))
    }
}

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
package struct PointerModeMapper: Sendable, Equatable {
    package var settings: PointerSettings
    package var sensitivity: Double

    /// The yaw (radians, (-π, π]) that points at the screen centre.
    package private(set) var centerYaw: Double = 0
    /// The pitch (radians) that points at the screen centre.
    package private(set) var centerPitch: Double = 0
    private var recenterPending = true
    /// The clamped position of the previous update (`moveBy` agrees with `moveTo`).
    private var baseline = PositionBaseline<Int>()

    package init(settings: PointerSettings = PointerSettings(), sensitivity: Double = 1) {
        self.settings = settings
        self.sensitivity = sensitivity
    }

    /// Makes the direction the controller points at on the next update the centre.
    package mutating func recenter() { recenterPending = true }

    /// Forgets the previous position, so the next update reports no relative motion.
    package mutating func resetBaseline() { baseline.reset() }

    package mutating func update(_ attitude: Attitude, screen: ScreenGeometry) -> PointerOutput {
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
        return PointerOutput(moveTo: (px, py), moveBy: baseline.step(to: px, py))
    }
}

/// The previous position of an absolute mapper, from which it also reports relative
/// motion: nothing on the first update and after `reset()` (no jump in games).
struct PositionBaseline<Value: Numeric & Sendable>: Sendable, Equatable {
    private var previous: (x: Value, y: Value)?

    /// The change from the previous position to this one (zero without a previous one).
    mutating func step(to x: Value, _ y: Value) -> (Value, Value) {
        defer { previous = (x, y) }
        guard let p = previous else { return (0, 0) }
        return (x - p.x, y - p.y)
    }

    mutating func reset() { previous = nil }

    static func == (a: Self, b: Self) -> Bool {
        switch (a.previous, b.previous) {
        case (nil, nil): true
        case let (l?, r?): l.x == r.x && l.y == r.y
        default: false
        }
    }
}
