import RemotionProtocol

/// A `[[profile]]` taking over a session as the focused application changes (docs/MOTION.md,
/// "Profiles"): the switch is clean, in this order, all within the one event.
extension PipelineCore {
    /// Puts the focus profile `index` in force for `id` with `own` as its profile (both nil:
    /// back to the host's). Nothing happens when it is already in force. Otherwise:
    /// 1. `.releaseHeld`: every button and key it holds is released, so nothing pressed for
    ///    the application being left stays down in the next one;
    /// 2. its pad's gyro stick rests (`.pad`, the stick centred until the next sample);
    /// 3. its mapping starts afresh: FPS smoothing, baselines, the filter, and the pointer's
    ///    centre is where the controller points at its next sample (`MotionMapper.restart`);
    /// 4. the new mapping and button map; the mode and gyro stick the controller's page chose
    ///    stay its own: the profile's win where it names them (`names…`), and are back with
    ///    the host's mapping.
    /// 6. `.profile`: which profile (`app`, nil: none) and the mode now in force, for its page.
    /// Nothing is injected: the next sample maps with the new profile.
    /// Returns whether it switched.
    @discardableResult
    package mutating func switchProfile(_ id: SessionID, to index: Int?, _ own: MappingProfile?,
                                        namesMode: Bool = true, namesGyroStick: Bool = true, pad: Bool? = nil, app: String? = nil, now: Instant,
                                        into out: inout [PipelineOutput]) -> Bool {
        guard let i = sessions.index(forKey: id), sessions.values[i].focusProfile != index else { return false }
        out.append(.releaseHeld)
        if sessions.values[i].pad?.gyroStick != nil, let rest = sessions.values[i].pad?.restGyroStick(), !suspended {
            out.append(.pad(rest))
        }
        sessions.values[i].mapper.restart()
        sessions.values[i].focusProfile = index
        setFocusMapping(id, own, namesMode: namesMode, namesGyroStick: namesGyroStick)
        switchPad(id, to: pad, now: now, into: &out)
        if let mode = sessions[id]?.mapper.settings.mode {
            out.append(.profile(ProfileInForce(app: index == nil ? nil : app, mode: mode, setsMode: own != nil && namesMode)))
        }
        return true
    }

    /// 5. `pad = "on"`/`"off"`: its pad made, or rested and taken away (`setPad`); a profile
    ///    without `pad` gives back the pad it had before one changed it.
    private mutating func switchPad(_ id: SessionID, to pad: Bool?, now: Instant, into out: inout [PipelineOutput]) {
        guard pads != nil, let had = sessions[id].map({ $0.pad != nil }) else { return }
        if let pad {
            if sessions[id]?.padBeforeFocus == nil { sessions[id]?.padBeforeFocus = had }
            if pad != had { setPad(id, on: pad, now: now, into: &out) }
        } else if let before = sessions[id]?.padBeforeFocus {
            sessions[id]?.padBeforeFocus = nil
            if before != had { setPad(id, on: before, now: now, into: &out) }
        }
    }

    /// The focus profile in force for `id` (its index), nil: none (or no such session).
    package func focusProfile(of id: SessionID) -> Int? { sessions[id]?.focusProfile }
}
