import RemotionProtocol

/// What one motion update asks of the pointer.
///
/// `moveTo` is the absolute position (pointer and seed modes; `nil` in FPS mode);
/// `moveBy` is the relative motion in counts since the previous update (for games
/// that read raw mouse deltas; in seed mode it includes the roll "turning" delta).
package struct PointerOutput: Sendable, Equatable, CustomStringConvertible {
    package var moveTo: (x: Int, y: Int)?
    package var moveBy: (dx: Int, dy: Int)

    package init(moveTo: (x: Int, y: Int)? = nil, moveBy: (dx: Int, dy: Int) = (0, 0)) {
        self.moveTo = moveTo
        self.moveBy = moveBy
    }

    /// Nothing to do: no absolute position and no relative motion.
    package static let none = PointerOutput()

    package var isEmpty: Bool { moveTo == nil && moveBy == (0, 0) }

    /// The events an injector that supports only one kind of motion should post:
    /// the absolute position when there is one, else the relative motion (if any).
    package var events: [InputEvent] {
        if let p = moveTo { return [.moveTo(x: p.x, y: p.y)] }
        if moveBy != (0, 0) { return [.moveBy(dx: moveBy.dx, dy: moveBy.dy)] }
        return []
    }

    package static func == (a: PointerOutput, b: PointerOutput) -> Bool {
        guard a.moveBy == b.moveBy else { return false }
        switch (a.moveTo, b.moveTo) {
        case (nil, nil): return true
        case let (p?, q?): return p == q
        default: return false
        }
    }

    package var description: String {
        let to = moveTo.map { "moveTo(\($0.x), \($0.y)) " } ?? ""
        return to + "moveBy(\(moveBy.dx), \(moveBy.dy))"
    }
}

/// Angle helpers shared by the mappers and filters. All angles are radians.
package enum MotionMath {
    /// Wraps an angle into (-π, π]. Non-finite input is returned unchanged.
    package static func wrap(_ angle: Double) -> Double {
        guard angle.isFinite else { return angle }
        var a = angle.truncatingRemainder(dividingBy: 2 * .pi)
        if a > .pi { a -= 2 * .pi } else if a <= -.pi { a += 2 * .pi }
        return a
    }

    /// Wraps an angle into [0, 2π).
    package static func wrapPositive(_ angle: Double) -> Double {
        guard angle.isFinite else { return angle }
        var a = angle.truncatingRemainder(dividingBy: 2 * .pi)
        if a < 0 { a += 2 * .pi }
        return a
    }

    package static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
    package static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

    /// The seed's soft dead zone: 0 within ±`threshold`, else the excess beyond it
    /// (`value ∓ threshold`), so the output is continuous at the threshold.
    package static func excess(_ value: Double, beyond threshold: Double) -> Double {
        if value < -threshold { return value + threshold }
        if value > threshold { return value - threshold }
        return 0
    }

    /// Rounds `value` to a pixel and clamps it to stay `margin` pixels inside
    /// [0, extent - 1] (the seed keeps the pointer 2 px inside the border).
    /// Degenerate screens (too small for the margin) pin to the middle pixel.
    package static func clampInside(_ value: Double, extent: Int, margin: Int = 2) -> Int {
        guard extent > 0 else { return 0 }
        let lo = margin, hi = extent - 1 - margin
        guard hi >= lo else { return (extent - 1) / 2 }
        guard value.isFinite else { return value > 0 ? hi : lo }
        let clamped = Swift.min(Swift.max(value.rounded(), Double(lo)), Double(hi))
        return Int(clamped)
    }

    /// A whole pixel count: rounded, saturating instead of trapping on absurd values.
    package static func pixels(_ v: Double) -> Int { saturated(v.rounded(), limit: maxCounts) }

    /// The most one relative move or position may say, each way.
    package static let maxCounts = 1_000_000_000

    /// `v` truncated to an Int within ±`limit` (NaN: 0). The one way a Double from input
    /// or settings becomes an Int on the input paths: `Int(Double)` traps out of range.
    package static func saturated(_ v: Double, limit: Int) -> Int {
        guard !v.isNaN else { return 0 }
        return Int(Swift.min(Swift.max(v, -Double(limit)), Double(limit)))
    }

    /// Linear interpolation factor of `x` between `lo` and `hi`, clamped to [0, 1].
    /// When `hi <= lo` it is a step at `lo`.
    package static func ramp(_ x: Double, from lo: Double, to hi: Double) -> Double {
        guard hi > lo else { return x >= lo ? 1 : 0 }
        return Swift.min(Swift.max((x - lo) / (hi - lo), 0), 1)
    }
}
