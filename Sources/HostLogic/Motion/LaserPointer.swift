import RemotionProtocol

/// The presenter's laser (docs/WEB-CONTROLLER.md, "Presenter"): while a phone holds its
/// laser control, its pointer events place a dot on the screen instead of moving the real
/// pointer. Pure: where the dot goes after one event of that session.
package enum LaserPointer {
    /// The dot's next position: a `moveTo` (pointer mode's formula, or seed mode's) as is,
    /// a `moveBy` (FPS mode) added to where the dot was, kept on the screen; nil for events
    /// that are not pointer motion (they go to the injector as usual).
    package static func next(from p: (x: Int, y: Int), after event: InputEvent,
                             screen: ScreenGeometry) -> (x: Int, y: Int)? {
        switch event {
        case let .moveTo(x, y):
            return (x, y)
        case let .moveBy(dx, dy):
            let w = max(screen.width, 1), h = max(screen.height, 1)
            return (min(max(p.x &+ dx, 0), w - 1), min(max(p.y &+ dy, 0), h - 1))
        default:
            return nil
        }
    }
}

/// When the overlay shows the dot: from the last sample until `fade` seconds later.
/// Pure: the adapter asks it with its own clock.
package struct LaserDot: Sendable, Equatable {
    package static let fade = 0.5
    package private(set) var position: (x: Int, y: Int)?
    private var lastSample = -Double.infinity

    package init() {}

    /// A new dot position at `now` (seconds, any monotonic clock).
    package mutating func sample(x: Int, y: Int, now: Double) {
        position = (x, y)
        lastSample = now
    }

    /// Hides the dot at once (the laser control was released).
    package mutating func clear() { lastSample = -.infinity }

    /// Whether the dot is shown at `now`.
    package func visible(at now: Double) -> Bool { position != nil && now - lastSample < Self.fade }

    /// When the dot goes away if no sample arrives (nil when it is not shown).
    package var hideAt: Double? { lastSample.isFinite ? lastSample + Self.fade : nil }

    package static func == (a: LaserDot, b: LaserDot) -> Bool {
        a.position?.x == b.position?.x && a.position?.y == b.position?.y && a.lastSample == b.lastSample
    }
}

/// Where the host draws the laser dot: an overlay above every window that takes no
/// input (System/X11Overlay). Called from the host's loop; implementations hand the
/// drawing to their own thread.
package protocol LaserOverlay: AnyObject, Sendable {
    /// The dot belongs at (x, y) now; it fades `LaserDot.fade` s after the last call.
    func show(x: Int, y: Int)
    /// The laser was released: hide the dot now.
    func hide()
}
