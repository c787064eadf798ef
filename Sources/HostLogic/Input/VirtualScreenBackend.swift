import RemotionProtocol

/// A screen that exists only in memory: tracks the pointer (clamped to the
/// screen), the buttons and keys the "OS" sees down, wheel totals, and the path
/// the pointer took (for the demo's summary plot). Deterministic; no OS access.
/// The event list and the path keep the newest `historyLimit` entries (and totals), so a
/// host left running with `--inject virtual` keeps bounded state.
package final class VirtualScreenBackend: InjectorBackend {
    package struct Point: Hashable, Sendable {
        package var x: Int
        package var y: Int
        package init(x: Int, y: Int) { self.x = x; self.y = y }
    }

    package let name = "virtual"
    /// The screen size; set it to simulate a resolution change.
    package var geometry: ScreenGeometry {
        didSet { pointer = clamped(pointer) }
    }
    package private(set) var pointer: Point
    package private(set) var buttonsDown: Set<MouseButton> = []
    package private(set) var keysDown: Set<Key> = []
    /// Sum of all wheel steps (positive dy = up, positive dx = right).
    package private(set) var wheelTotal = Point(x: 0, y: 0)
    /// Pointer position after every motion event, starting with the initial one (the newest
    /// `historyLimit`).
    package private(set) var path: [Point]
    /// The events posted, with their session, in order (the newest `historyLimit`).
    package private(set) var events: [(session: SessionID, event: InputEvent)] = []
    /// Every event posted, counted.
    package private(set) var eventCount = 0
    /// How many events and path points are kept.
    package let historyLimit: Int
    /// Number of `flush()` calls (frames).
    package private(set) var flushCount = 0
    /// Presses of something already down and releases of something not down:
    /// a correct `Injector` never produces these.
    package private(set) var redundantEvents = 0
    package private(set) var isClosed = false

    /// Starts with the pointer at `start` (clamped), or the screen centre.
    package init(geometry: ScreenGeometry, start: Point? = nil, historyLimit: Int = 100_000) {
        self.geometry = geometry
        self.historyLimit = max(1, historyLimit)
        let p = start ?? Point(x: geometry.width / 2, y: geometry.height / 2)
        let first = Point(x: min(max(p.x, 0), max(geometry.width - 1, 0)),
                          y: min(max(p.y, 0), max(geometry.height - 1, 0)))
        pointer = first
        path = [first]
    }

    package func screenGeometry() -> ScreenGeometry { geometry }

    package func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {
        guard !isClosed else { throw InjectionError(.closed, backend: name, "posted after close()") }
        events.append((session, event))
        eventCount += 1
        if events.count >= 2 * historyLimit { events.removeFirst(events.count - historyLimit) }   // amortised O(1)
        switch event {
        case .moveTo(let x, let y):
            moveTo(Point(x: x, y: y))
        case .moveBy(let dx, let dy):
            moveTo(Point(x: pointer.x + dx, y: pointer.y + dy))
        case .button(let b, let down):
            let changed = down ? buttonsDown.insert(b).inserted : buttonsDown.remove(b) != nil
            if !changed { redundantEvents += 1 }
        case .key(let k, let down):
            let changed = down ? keysDown.insert(k).inserted : keysDown.remove(k) != nil
            if !changed { redundantEvents += 1 }
        case .wheel(let dx, let dy):
            wheelTotal.x += dx
            wheelTotal.y += dy
        }
    }

    package func flush() throws(InjectionError) {
        guard !isClosed else { throw InjectionError(.closed, backend: name, "flushed after close()") }
        flushCount += 1
    }

    package func close() { isClosed = true }

    private func moveTo(_ p: Point) {
        pointer = clamped(p)
        path.append(pointer)
        if path.count >= 2 * historyLimit { path.removeFirst(path.count - historyLimit) }
    }

    private func clamped(_ p: Point) -> Point {
        Point(x: min(max(p.x, 0), max(geometry.width - 1, 0)),
              y: min(max(p.y, 0), max(geometry.height - 1, 0)))
    }
}
