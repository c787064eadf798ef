import RemotionHostLogic
import RemotionProtocol

/// The phone page's touchpad, typing and laser state (docs/WEB-CONTROLLER.md, "Modes"),
/// kept by the pipeline beside its mappers: one entry per web session, dropped when it ends.
package struct WebInputSide {
    struct Session {
        var touchpad = TouchpadMapper()
        /// Set while the laser control is held and an overlay draws the dot.
        var laser: LaserPointer?
    }
    var sessions: [SessionID: Session] = [:]
    /// Opens the laser overlay on first use: the overlay, or why there is none.
    package var openOverlay: (() -> (overlay: (any LaserOverlay)?, note: String?))?
    var overlay: (any LaserOverlay)?
    var overlayTried = false
    package init() {}
}

extension HostPipeline {
    /// One touchpad, typing or laser message of `id`. Presses and releases go through the
    /// injector's held-input tracker like the buttons' (exactly-once edges, released when
    /// the session ends). Returns a reply for the page (characters that could not be typed).
    @discardableResult
    package func webInput(_ id: SessionID, _ message: WebInputMessage) -> WebInputReply? {
        guard telemetry[id] != nil else { return nil }
        switch message {
        case let .pad(dx, dy, millis):
            web.sessions[id, default: .init()].touchpad.settings = settings.touchpad   // [mapping] touchpad.*, live
            let d = web.sessions[id, default: .init()].touchpad.move(dx: dx, dy: dy, millis: millis)
            if d != (0, 0) { inject(.moveBy(dx: d.dx, dy: d.dy), session: id) }
        case let .scroll(dx, dy):
            web.sessions[id, default: .init()].touchpad.settings = settings.touchpad
            let w = web.sessions[id, default: .init()].touchpad.scroll(dx: dx, dy: dy)
            if w != (0, 0) { inject(.wheel(dx: w.dx, dy: w.dy), session: id) }
        case let .click(button, down):
            if let down {
                inject([.button(button, down: down)], session: id)
            } else {
                inject([.button(button, down: true), .button(button, down: false)], session: id)
            }
        case .key(let key):
            inject([.key(key, down: true), .key(key, down: false)], session: id)
        case .text(let text):
            return type(text, session: id)
        case .laser(let on):
            setLaser(id, on: on)
        }
        return nil
    }

    private func type(_ text: String, session id: SessionID) -> WebInputReply? {
        guard let typist = injector.backend as? any TextTypingBackend else {
            return .untyped(text, reason: "the \(injector.backend.name) injector cannot type text; run the host with --inject xtest on an X11 session")
        }
        do {
            let missing = try typist.type(text)
            return missing.isEmpty ? nil : .untyped(missing, reason: "these characters have no key to type them")
        } catch {
            logger.error("typing failed", metadata: ["error": "\(error)"])
            return .untyped(text, reason: error.message)
        }
    }

    /// The laser control went down or up. Without an overlay (Wayland, no display) the
    /// laser says so once and the phone keeps moving the real pointer.
    private func setLaser(_ id: SessionID, on: Bool) {
        if !on {
            if web.sessions[id]?.laser != nil { web.overlay?.hide() }
            web.sessions[id]?.laser = nil
            return
        }
        if !web.overlayTried {
            web.overlayTried = true
            if let opened = web.openOverlay?() {
                web.overlay = opened.overlay
                if let note = opened.note { logger.notice("presenter laser: \(note)") }
            } else {
                logger.notice("presenter laser: this host has no overlay; the laser moves the pointer instead")
            }
        }
        guard web.overlay != nil, let pointer = mappers[id]?.pointer else { return }
        web.sessions[id, default: .init()].laser = LaserPointer(from: pointer)
    }

    /// While `id` holds the laser, its motion places the overlay's dot (pointer mode's
    /// formula) and the real pointer stays put. True when the sample was used so.
    func laserMotion(_ id: SessionID, _ sample: MotionSample) -> Bool {
        guard web.sessions[id]?.laser != nil, let overlay = web.overlay, mappers[id] != nil else { return false }
        mappers[id]!.observe(sample)
        telemetry[id]?.attitude = mappers[id]!.attitude
        if let a = mappers[id]!.attitude, let p = web.sessions[id]!.laser!.place(a, screen: injector.screen) {
            overlay.show(x: p.x, y: p.y)
        }
        return true
    }

    /// A session ended: forget its touchpad and hide its dot.
    func endWebInput(_ id: SessionID) {
        if web.sessions.removeValue(forKey: id)?.laser != nil { web.overlay?.hide() }
    }

    /// The host's button map, for the page's labels.
    package var buttonLabels: WebInputReply { .buttons(of: buttonMap) }
}
