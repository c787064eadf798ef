import RemotionProtocol

/// A controller's virtual pad switched on and off while it is connected (issue 28 item 2:
/// "the dashboard and the page can switch a controller to it"). With `[gamepad] for =
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
            sessions.values[i].pad = GamepadFeed(table: s.buttons.padTable, gyroStick: s.mapper.settings.gyroStick.stick, at: now)
            sessions.values[i].feedback = FeedbackPacer()
            out.append(.padOpened(identity: s.padIdentity))
        case (false, let pad?):
            sessions.values[i].pad = nil
            out.append(.padClosed(rest: pad.state.rest(at: pad.state.motion.time)))
        default:
            break
        }
        return sessions.values[i].pad != nil
    }

    /// Whether `id` has a pad now (nil: no such session).
    package func hasPad(_ id: SessionID) -> Bool? { sessions[id].map { $0.pad != nil } }
}
