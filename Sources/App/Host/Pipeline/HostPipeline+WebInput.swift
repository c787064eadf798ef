import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

extension HostPipeline {
    /// One touchpad, typing or laser message of `id` (docs/WEB-CONTROLLER.md, "What each control does by default").
    /// Presses and releases go through the injector like the buttons' (output hooks first,
    /// exactly-once edges, released when the session ends). Returns a reply for the page
    /// (characters that could not be typed).
    @discardableResult
    package func webInput(_ id: SessionID, _ message: WebInputMessage, now: Instant) -> WebInputReply? {
        guard let i = core.sessions.index(forKey: id) else { return nil }
        switch message {
        case let .pad(dx, dy, millis):
            core.sessions.values[i].touchpad.settings = core.sessions.values[i].mapper.settings.touchpad   // [mapping] touchpad.*, live
            let d = core.sessions.values[i].touchpad.move(dx: dx, dy: dy, millis: millis)
            if d != (0, 0) { inject(.moveBy(dx: d.dx, dy: d.dy), session: id, now: now) }
        case let .scroll(dx, dy):
            core.sessions.values[i].touchpad.settings = core.sessions.values[i].mapper.settings.touchpad
            let w = core.sessions.values[i].touchpad.scroll(dx: dx, dy: dy)
            if w != (0, 0) { inject(.wheel(dx: w.dx, dy: w.dy), session: id, now: now) }
        case let .click(button, down):
            if let down {
                inject([.button(button, down: down)], session: id, now: now)
            } else {
                inject([.button(button, down: true), .button(button, down: false)], session: id, now: now)
            }
        case .key(let key):
            guard typingAllowed, core.sessions.values[i].typing else { return typingRefused(key.name) }
            inject([.key(key, down: true), .key(key, down: false)], session: id, now: now)
        case .text(let text):
            guard typingAllowed, core.sessions.values[i].typing else { return typingRefused(text) }
            // At most `TextBudget.rate` characters a second (a burst of `burst`): a page that
            // floods text cannot keep the X keymap churning.
            guard core.sessions.values[i].textBudget.take(text.count, now: now) else {
                typingRefusals += 1
                return .untyped(text, reason: "typing too fast: at most \(TextBudget.rate) characters a second")
            }
            lastTextAt = now
            // The handler's timer then also covers the keycodes' return (`nextDeadline`).
            driver?.sinkChanged(now: now, membership: false)
            return type(text)
        case .laser(let on):
            // Without a laser hook (no overlay wired) the phone keeps moving the real pointer.
            laserHook?.set(id, on: on, from: core.sessions.values[i].telemetry.pointer)
        }
        return nil
    }

    /// A page's keyboard is a full keyboard (any text, Return, Tab): the owner can take it
    /// away from every phone (`--no-typing`) or one (`remotion devices --no-typing NAME`).
    /// Counted, told to the page, nothing injected.
    private func typingRefused(_ what: String) -> WebInputReply {
        typingRefusals += 1
        return .untyped(what, reason: typingAllowed ? "typing is off for this phone on the host (remotion devices --typing NAME turns it on)"
                                                    : "typing is off on the host (--no-typing)")
    }

    /// One session's typing permission (its device's, set by the transport when it opens).
    package func setTyping(_ id: SessionID, allowed: Bool) { core.sessions[id]?.typing = allowed }

    private func type(_ text: String) -> WebInputReply? {
        guard !injector.isSuspended else {
            return .untyped(text, reason: "this computer's desktop session is not the active one (another user is at the screen)")
        }
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

    /// The host's desktop session became active or inactive (logind's `Active`, a fast user
    /// switch): inactive releases every held input, shows every virtual pad at rest, tells the
    /// observers (the DSU server's slots, the laser) every session closed, and drops input,
    /// pad reports and observed motion until active again, when the observers see the open
    /// sessions come back (one rule for all the outputs: rest, release, then silence).
    package func setDesktopSessionActive(_ active: Bool, now: Instant) {
        let wasSuspended = core.suspended
        for (id, rest) in core.setSuspended(!active) {
            for o in padOutputs { o.perform(.pad(rest), session: id, now: now) }
        }
        if core.suspended != wasSuspended {
            for (id, origin) in origins.sorted(by: { $0.key < $1.key }) {
                for o in observers {
                    if core.suspended { o.sessionClosed(id, now: now) } else { o.sessionOpened(id, origin: origin, now: now) }
                }
            }
        }
        guard active == injector.isSuspended else { return }
        if active {
            injector.resume()
            logger.info("desktop session active again: injecting", metadata: ["dropped": "\(injector.droppedWhileSuspended)"])
        } else {
            if let error = injector.suspend() { fail(error) }
            if let typist = injector.backend as? any TextTypingBackend { typist.restoreBorrowedKeycodes() }
            logger.info("desktop session inactive (another user's session is active): every held input released, input dropped until it is active again")
        }
    }

    /// How long after the last text the borrowed keycodes are given back: long enough for
    /// an application to handle the keys with the map they were typed with.
    package static let typingRestoreDelay = Duration.seconds(1)

    /// Gives back the keycodes typing borrowed when no text came for `typingRestoreDelay`
    /// (a newer text postpones it). On the host's timer: `nextDeadline` asks for it, `tick`
    /// does it; nothing here schedules a task or reads a clock.
    package func restoreTypingIfIdle(now: Instant) {
        guard let last = lastTextAt else { return }
        guard !(now < last + Self.typingRestoreDelay) else { return }
        lastTextAt = nil
        if let typist = injector.backend as? any TextTypingBackend { typist.restoreBorrowedKeycodes() }
    }

    /// The presenter's laser among the output hooks (wired by the daemon).
    var laserHook: LaserOverlayHook? { outputHooks.lazy.compactMap { $0 as? LaserOverlayHook }.first }

    /// The session's button map, for the page's labels.
    package func buttonLabels(_ id: SessionID) -> WebInputReply {
        .buttons(of: sessions[id]?.buttons ?? buttonMap)
    }
}
