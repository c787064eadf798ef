import RemotionProtocol

/// The phone page's touchpad, clicks, keys, text and laser (docs/WEB-CONTROLLER.md, "What
/// each control does by default"), decided here like a button edge: the session's touchpad
/// with its live settings, whether it may type (the host's `--no-typing`, its device's
/// permission) and how fast (`TextBudget`), where its laser's dot starts. What is decided
/// becomes `PipelineOutput`s; the host's `HostPipeline` routes them (input through the output
/// hooks into the injector, exactly-once edges, released when the session ends) and types
/// the text through its injector's backend, which alone knows what it cannot type.
/// Who types the text a page sends on this host: the injector (its backend can type any
/// character), or nobody — the injector named cannot type text (uinput, the log).
package enum TextTypist: Sendable, Equatable {
    case injector
    case none(injector: String)
}

extension PipelineCore {
    /// How long after the last text the keycodes typing borrowed are given back: long enough
    /// for an application to handle the keys with the map they were typed with.
    package static let typingRestoreDelay = Duration.seconds(1)

    /// One touchpad, typing or laser message of `id`: its outputs appended to `out`, and a
    /// reply when the page must be told its text or key was refused (typing off for the host
    /// or for this phone, typing too fast; counted in `typingRefusals`). Nothing for a
    /// session that is not open.
    @discardableResult
    package mutating func webInput(_ id: SessionID, _ message: WebInputMessage, now: Instant,
                                   into out: inout [PipelineOutput]) -> WebInputReply? {
        guard let i = sessions.index(forKey: id) else { return nil }
        switch message {
        case let .pad(dx, dy, millis):
            let d = Self.touchpad(&sessions.values[i]) { $0.move(dx: dx, dy: dy, millis: millis) }
            if d != (0, 0) { out.append(.input(.moveBy(dx: d.dx, dy: d.dy))) }
        case let .scroll(dx, dy):
            let w = Self.touchpad(&sessions.values[i]) { $0.scroll(dx: dx, dy: dy) }
            if w != (0, 0) { out.append(.input(.wheel(dx: w.dx, dy: w.dy))) }
        case let .click(button, down?):
            out.append(.input(.button(button, down: down)))              // one edge of a drag
        case let .click(button, nil):
            out.append(.inputs([.button(button, down: true), .button(button, down: false)]))
        case let .key(key):
            if let refusal = typingRefusal(key.name, phoneMayType: sessions.values[i].typing) { return refusal }
            out.append(.inputs([.key(key, down: true), .key(key, down: false)]))
        case let .text(text):
            if let refusal = typingRefusal(text, phoneMayType: sessions.values[i].typing) { return refusal }
            // At most `TextBudget.rate` characters a second (a burst of `burst`): a page that
            // floods text cannot keep the X keymap churning.
            guard sessions.values[i].textBudget.take(text.count, now: now) else {
                typingRefusals += 1
                return .untyped(text, reason: "typing too fast: at most \(TextBudget.rate) characters a second")
            }
            if let untypable = untypable(text) { return untypable }
            lastTextAt = now
            out.append(.text(text))
        case let .laser(on):
            out.append(.laser(on: on, from: sessions.values[i].telemetry.pointer.map { ScreenPoint(x: $0.x, y: $0.y) }))
        }
        return nil
    }

    /// One session's typing permission (its device's, set by the transport when it opens and
    /// when its owner changes it). Until the first call a session may not type.
    package mutating func setTyping(_ id: SessionID, allowed: Bool) { sessions[id]?.typing = allowed }

    /// When the keycodes typing borrowed are due back (`typingRestoreDelay` after the last
    /// text; a newer text postpones it); nil: nothing typed since they were last given back.
    package var typingRestoreDeadline: Instant? { lastTextAt.map { $0 + Self.typingRestoreDelay } }

    /// True once, at or after `typingRestoreDeadline`: the host gives the keycodes back now.
    package mutating func typingRestoreDue(now: Instant) -> Bool {
        guard let deadline = typingRestoreDeadline, now >= deadline else { return false }
        lastTextAt = nil
        return true
    }

    /// The session's touchpad with the settings it maps with now (`[mapping] touchpad.*`,
    /// changed live), in place.
    private static func touchpad(_ s: inout PipelineSession,
                                 _ step: (inout TouchpadMapper) -> (dx: Int, dy: Int)) -> (dx: Int, dy: Int) {
        s.touchpad.settings = s.mapper.settings.touchpad
        return step(&s.touchpad)
    }

    /// Text nobody can type now, and why (not a refusal: the host cannot, not will not): the
    /// desktop session is another user's, or the injector cannot type text at all.
    private func untypable(_ text: String) -> WebInputReply? {
        if suspended {
            return .untyped(text, reason: "this computer's desktop session is not the active one (another user is at the screen)")
        }
        guard case .none(let injector) = typist else { return nil }
        return .untyped(text, reason: "the \(injector) injector cannot type text; run the host with --inject xtest on an X11 session or --inject wlroots on sway and other wlroots compositors")
    }

    /// A page's keyboard is a full keyboard (any text, Return, Tab): the owner can take it
    /// away from every phone (`--no-typing`) or one (`remotion devices --no-typing NAME`).
    /// Counted, told to the page, nothing injected.
    private mutating func typingRefusal(_ what: String, phoneMayType: Bool) -> WebInputReply? {
        guard !typingAllowed || !phoneMayType else { return nil }
        typingRefusals += 1
        return .untyped(what, reason: typingAllowed ? "typing is off for this phone on the host (remotion devices --typing NAME turns it on)"
                                                    : "typing is off on the host (--no-typing)")
    }
}
