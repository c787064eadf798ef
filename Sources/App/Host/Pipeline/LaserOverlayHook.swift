import Logging
import NIOCore
import RemotionHostLogic
import RemotionProtocol

/// The presenter's laser (docs/WEB-CONTROLLER.md, "Presenter"): while a phone holds its
/// laser control, this output hook takes that session's pointer events — the position
/// pointer mode's formula chose (`moveTo`), or relative moves in FPS mode — and draws the
/// overlay's dot there instead (`LaserPointer.next`), so the real cursor stays put. The
/// overlay opens on first use; where there is none (Wayland, no display) the host says so
/// once and the laser moves the real pointer. On the host's loop, like every hook.
package final class LaserOverlayHook: LaserOutput {
    private let open: () -> (overlay: (any LaserOverlay)?, note: String?)
    private let screen: () -> ScreenGeometry
    private let logger: Logger
    private var overlay: (any LaserOverlay)?
    private var tried = false
    /// Why there is no overlay (the open's note), once it was tried.
    private var missing: String?
    /// Sessions holding the laser, with where their dot is.
    private var dots: [SessionID: (x: Int, y: Int)] = [:]

    package init(logger: Logger, screen: @escaping () -> ScreenGeometry,
                 open: @escaping () -> (overlay: (any LaserOverlay)?, note: String?)) {
        self.logger = logger
        self.screen = screen
        self.open = open
    }

    /// The laser control of `id` went down or up; the dot starts where the pointer was
    /// (`pointer`) until the session's next pointer event places it. Returns, when the laser
    /// went on where no dot can be drawn, the line saying the laser moves the pointer instead
    /// (for the page); nil otherwise.
    @discardableResult
    package func set(_ id: SessionID, on: Bool, from pointer: (x: Int, y: Int)?) -> String? {
        guard on else {
            if dots.removeValue(forKey: id) != nil { overlay?.hide() }
            return nil
        }
        if !tried { openOverlay() }
        guard overlay != nil else { return missing }
        let s = screen()
        dots[id] = pointer ?? (s.width / 2, s.height / 2)
        return nil
    }

    private func openOverlay() {
        tried = true
        let opened = open()
        overlay = opened.overlay
        if let note = opened.note { logger.notice("presenter laser: \(note)") }
        missing = opened.overlay == nil ? opened.note ?? "this computer draws no laser dot; the laser moves the pointer instead" : nil
    }

    /// The dashboard chose another output: the overlay (placed on the output the host aimed at)
    /// goes, and opens again over the new one — at once while a laser is held (its dot starts
    /// mid-screen), else on the next laser.
    package func pointerAreaChanged() {
        guard tried else { return }
        overlay?.hide()
        overlay = nil   // its drawing thread stops with it
        tried = false
        guard !dots.isEmpty else { return }
        openOverlay()
        let s = screen()
        for id in dots.keys { dots[id] = (s.width / 2, s.height / 2) }
    }

    package func output(_ event: InputEvent, session: SessionID, now: Instant) -> Bool {
        guard let from = dots[session], let overlay,
              let p = LaserPointer.next(from: from, after: event, screen: screen()) else { return true }
        dots[session] = p
        overlay.show(x: p.x, y: p.y)
        return false
    }

    package func sessionOpened(_ id: SessionID, origin: HostControllerOrigin, now: Instant) {}
    package func motion(_ id: SessionID, _ sample: MotionSample, now: Instant) {}
    package func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant) {}
    package func sessionClosed(_ id: SessionID, now: Instant) { set(id, on: false, from: nil) }
}
