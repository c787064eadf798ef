import RemotionProtocol

/// A controller's virtual pad switched on and off while it is connected. With `[gamepad] for =
/// "asked"` no session gets a pad at open; the page's Gamepad mode asks for one, the
/// dashboard can give or take one; with `for = "every"` (the default) each session starts
/// with one and may still give it up. Taking a pad away is the zero-stuck rule's case: rest,
/// then gone.
extension PipelineCore {
    /// Gives `id` a pad (`on`) or takes it away, with the session's own button table and gyro
    /// stick. The pad it has after the call (true/false), nil when there is no such session
    /// or this host makes no pads (`--gamepad` not given).
    @discardableResult
    package mutating func setPad(_ id: SessionID, on: Bool, now: Instant, into out: inout [PipelineOutput]) -> Bool? {
        guard pads != nil, let i = sessions.index(forKey: id) else { return nil }
        switch (on, sessions.values[i].pad) {
        case (true, nil):
            let s = sessions.values[i]
            // Each pad made is a UHID device, a thread, a udev event and a journal line: a
            // controller toggling its Gamepad mode gets at most `PadOpenLimit.limit` a window.
            guard padOpens.allow(s.padIdentity, now: now) else {
                if s.padOwedAt != nil { sessions.values[i].padOwedAt = padOpens.windowEnd(s.padIdentity) ?? now }
                return false
            }
            sessions.values[i].padOwedAt = nil
            sessions.values[i].pad = GamepadFeed(table: s.buttons.padTable, gyroStick: s.mapper.settings.gyroStick.stick, at: now)
            sessions.values[i].feedback = FeedbackPacer()
            out.append(.padOpened(identity: s.padIdentity))
        case (false, let pad?):
            sessions.values[i].pad = nil
            out.append(.padClosed(rest: pad.state.rest(at: pad.state.motion.time)))
        case (false, nil):
            sessions.values[i].padOwedAt = nil          // taken away before it was made
        default:
            break
        }
        return sessions.values[i].pad != nil
    }

    /// The earliest of the pads' feedback deadlines (`FeedbackPacer.nextDeadline`): a game's
    /// change held back by the minimum interval, or a running rumble's refresh.
    package var feedbackDeadline: Instant? {
        var next: Instant?
        for s in sessions.values where s.pad != nil { next = earliest(next, s.feedback.nextDeadline) }
        return next
    }

    /// At the timer: each pad's feedback that is due now, for its session's controller.
    package mutating func dueFeedback(now: Instant, _ send: (SessionID, ControllerFeedback) -> Void) {
        for i in sessions.indices where sessions.values[i].pad != nil {
            if let feedback = sessions.values[i].feedback.due(now: now) { send(sessions.keys[i], feedback) }
        }
    }

    /// The pads' timer in one walk of the sessions: the earliest feedback deadline
    /// (`feedbackDeadline`) and the earliest pad held back at open (`PadOpenLimit`).
    package var padsDeadline: Instant? {
        var next: Instant?
        for s in sessions.values {
            if let at = s.padOwedAt { next = earliest(next, at) }
            if s.pad != nil { next = earliest(next, s.feedback.nextDeadline) }
        }
        return next
    }

    /// At the timer: the sessions whose pad, held back at open, is due now, in id order. The
    /// caller makes each with `setPad(_:on:true)`, which counts it against the limit again.
    package func duePads(now: Instant) -> [SessionID] {
        sessions.compactMap { id, s in s.padOwedAt.flatMap { $0 <= now ? id : nil } }.sorted()
    }

    /// Whether `id` has a pad now (nil: no such session).
    package func hasPad(_ id: SessionID) -> Bool? { sessions[id].map { $0.pad != nil } }

    /// The desktop session this host injects into became inactive (a fast user switch) or
    /// active again. Suspension is a property of all the session's outputs, not only the
    /// injector's: every pad shows rest now (returned, one per session with a pad, for the pad
    /// outputs) and reports nothing while suspended — the next user at the seat gets access
    /// to the pads' nodes, and a compositor may read a pad's touchpad as a pointer. The pads'
    /// states keep following their controllers, so on resume the next sample or edge reports
    /// what is really held.
    package mutating func setSuspended(_ suspended: Bool) -> [(SessionID, GamepadState)] {
        guard suspended != self.suspended else { return [] }
        self.suspended = suspended
        guard suspended else { return [] }
        return sessions.compactMap { id, s in s.pad.map { (id, $0.state.rest(at: $0.state.motion.time)) } }
            .sorted { $0.0 < $1.0 }
    }
}

/// How often one controller (by its pad identity, so reconnecting does not reset it) may be
/// given a pad, at open or on request: `limit` in a `window` that starts with its first pad,
/// a fixed-size table of the latest keys.
package struct PadOpenLimit: Sendable {
    package static let limit = 4
    package static let window = Duration.seconds(10)
    package static let maxKeys = 64
    private var windows: [String: (start: Instant, count: Int)] = [:]

    package init() {}

    /// Counts one pad given to `key` at `now`: true when within the limit.
    package mutating func allow(_ key: String, now: Instant) -> Bool {
        if var w = windows[key], now - w.start < Self.window {
            w.count += 1
            windows[key] = w
            return w.count <= Self.limit
        }
        if windows[key] == nil, windows.count >= Self.maxKeys,
           let oldest = windows.min(by: { $0.value.start < $1.value.start })?.key {
            windows.removeValue(forKey: oldest)
        }
        windows[key] = (now, 1)
        return true
    }

    /// When `key`'s window ends: the earliest a pad refused now may be given (nil: no window).
    package func windowEnd(_ key: String) -> Instant? { windows[key].map { $0.start + Self.window } }
}
