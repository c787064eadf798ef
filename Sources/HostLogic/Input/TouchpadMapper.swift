import RemotionProtocol

/// The phone page's touchpad, as pure state: finger deltas (CSS pixels) in, pointer
/// moves and wheel steps out (docs/WEB-CONTROLLER.md, "Touchpad").
///
/// Pointer acceleration: a finger speed v (CSS px/ms) gets the gain
///
///     gain(v) = speed · (1 + acceleration · clamp((v − threshold) / (limit − threshold), 0, 1))
///
/// so slow, careful moves are 1:1 times `speed` and fast flicks up to
/// `1 + acceleration` times that (libinput's "adaptive" profile, simplified to a
/// straight ramp). Fractions of a pixel are kept and added to the next move, so many
/// small moves add up exactly. Scrolling keeps fractions of a wheel step the same way:
/// `scrollPixels` CSS pixels of two-finger movement make one wheel step.
///
/// One message gives at most `maxWheelSteps` wheel steps and `maxPixels` pixels per
/// axis (injectors post one click per wheel step); what is beyond that is dropped,
/// not kept for later, and every conversion to Int saturates instead of trapping.
package struct TouchpadMapper: Sendable, Equatable {
    package struct Settings: Sendable, Equatable, Hashable, Codable {
        /// Screen pixels per CSS pixel for slow moves.
        package var speed = 1.6
        /// Extra gain at and above `limit` (0: no acceleration).
        package var acceleration = 1.5
        /// Finger speeds (CSS px/ms) where the ramp starts and ends.
        package var threshold = 0.25
        package var limit = 2.0
        /// CSS pixels of scrolling per wheel step.
        package var scrollPixels = 24.0
        package init() {}
    }

    /// Wheel steps per axis one scroll message may give.
    package static let maxWheelSteps = 20
    /// Screen pixels per axis one pad message may give.
    package static let maxPixels = 10_000

    package var settings: Settings
    private var remainder = (x: 0.0, y: 0.0)
    private var scrollRemainder = (x: 0.0, y: 0.0)

    package init(settings: Settings = Settings()) { self.settings = settings }

    /// The gain for a finger speed `v` in CSS px/ms (see the type's comment).
    package func gain(speed v: Double) -> Double {
        let s = settings
        guard v.isFinite, s.limit > s.threshold else { return s.speed }
        let t = min(max((v - s.threshold) / (s.limit - s.threshold), 0), 1)
        return s.speed * (1 + s.acceleration * t)
    }

    /// A finger move of (dx, dy) CSS pixels over `millis` ms → whole screen pixels to move.
    package mutating func move(dx: Double, dy: Double, millis: Double) -> (dx: Int, dy: Int) {
        guard dx.isFinite, dy.isFinite else { return (0, 0) }
        let distance = (dx * dx + dy * dy).squareRoot()
        let g = gain(speed: distance / max(millis, 1))
        let x = remainder.x + dx * g, y = remainder.y + dy * g
        guard x.isFinite, y.isFinite else { remainder = (0, 0); return (0, 0) }
        let ix = x.rounded(.towardZero), iy = y.rounded(.towardZero)
        remainder = (x - ix, y - iy)
        return (MotionMath.saturated(ix, limit: Self.maxPixels), MotionMath.saturated(iy, limit: Self.maxPixels))
    }

    /// A scroll of (dx, dy) CSS pixels (positive dy: up, positive dx: right) → whole
    /// wheel steps, fractions kept for the next scroll.
    package mutating func scroll(dx: Double, dy: Double) -> (dx: Int, dy: Int) {
        // The setting is ≥ 1 (MappingSettings+Keys); a smaller value set in code is
        // treated as 1 so a tiny step cannot turn one message into billions of clicks.
        guard dx.isFinite, dy.isFinite, settings.scrollPixels.isFinite else { return (0, 0) }
        let step = Swift.max(settings.scrollPixels, 1)
        let x = scrollRemainder.x + dx / step
        let y = scrollRemainder.y + dy / step
        guard x.isFinite, y.isFinite else { scrollRemainder = (0, 0); return (0, 0) }
        // A whole step within rounding error counts (ten moves of 2.4 px are one step).
        let ix = (x + (x < 0 ? -1e-9 : 1e-9)).rounded(.towardZero), iy = (y + (y < 0 ? -1e-9 : 1e-9)).rounded(.towardZero)
        let cap = Double(Self.maxWheelSteps)
        // Steps beyond the cap are dropped with their remainder, not saved for later.
        scrollRemainder = (abs(ix) > cap ? 0 : x - ix, abs(iy) > cap ? 0 : y - iy)
        return (MotionMath.saturated(ix, limit: Self.maxWheelSteps), MotionMath.saturated(iy, limit: Self.maxWheelSteps))
    }

    package static func == (a: TouchpadMapper, b: TouchpadMapper) -> Bool {
        a.settings == b.settings && a.remainder == b.remainder && a.scrollRemainder == b.scrollRemainder
    }
}
