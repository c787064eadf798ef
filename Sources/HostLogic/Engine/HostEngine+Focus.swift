import RemotionProtocol

/// Profiles that follow the focused application (`[[profile]]`, docs/MOTION.md "Profiles"):
/// a focus watcher tells the engine which application has the focus, and every controller
/// a profile applies to switches to it within that one event.
extension HostEngine {
    /// The desktop's focus moved to `app` (nil: no application, e.g. its window closed or
    /// the desktop itself has the focus). Each open session whose profile in force changes
    /// switches cleanly (`PipelineCore.switchProfile`: held input released, gyro stick
    /// rested, mapping fresh, then the new profile), in session order.
    package mutating func focus(_ app: FocusedApp?, now: Instant, into out: inout [EngineOutput<Address>]) {
        focused = app
        applyFocus(now: now, into: &out)
    }

    /// New profiles (the config read again): each session switches to its profile in force
    /// under them.
    package mutating func setProfiles(_ profiles: FocusProfiles, now: Instant, into out: inout [EngineOutput<Address>]) {
        self.profiles = profiles
        // Indices mean other profiles now: every session takes its new one afresh.
        for id in origins.keys.sorted() { _ = decide(id, into: &out) { core, o in core.switchProfile(id, to: nil, nil, now: now, into: &o) } }
        applyFocus(now: now, into: &out)
    }

    /// New mapping settings or a new button map for the host's profile (the dashboard): the
    /// sessions that follow it take them at once, and a session in a focus profile gets that
    /// profile over the new host profile (no switch: the same profile stays in force).
    package mutating func update(settings: MappingSettings? = nil, buttons: ButtonMap? = nil) {
        if let settings { core.update(settings: settings) }
        if let buttons { core.update(buttons: buttons) }
        for id in origins.keys.sorted() {
            guard let index = core.focusProfile(of: id), profiles.list.indices.contains(index) else { continue }
            let focus = profiles.list[index]
            core.setFocusMapping(id, focus.applied(over: core.profile), namesMode: focus.namesMode, namesGyroStick: focus.namesGyroStick)
        }
    }

    /// The profile in force for a controller from `origin` while `focused` has the focus:
    /// its index and the whole profile (over the host's), or nil for the host's.
    package func profileInForce(for origin: ControllerOrigin<Address>) -> (index: Int, profile: MappingProfile)? {
        guard let index = profiles.match(focused, kind: ControllerKind(origin)) else { return nil }
        return (index, profiles.list[index].applied(over: core.profile))
    }

    private mutating func applyFocus(now: Instant, into out: inout [EngineOutput<Address>]) {
        for (id, origin) in origins.sorted(by: { $0.key < $1.key }) { applyFocus(id, origin, now: now, into: &out) }
    }

    /// Puts the profile in force for the session `id` from `origin` (a new session gets it at open).
    mutating func applyFocus(_ id: SessionID, _ origin: ControllerOrigin<Address>, now: Instant,
                             into out: inout [EngineOutput<Address>]) {
        let next = profileInForce(for: origin)
        let focus = next.map { profiles.list[$0.index] }
        _ = decide(id, into: &out) { core, o in
            core.switchProfile(id, to: next?.index, next?.profile, namesMode: focus?.namesMode ?? false,
                               namesGyroStick: focus?.namesGyroStick ?? false, pad: focus?.pad, app: focus?.app, now: now, into: &o)
        }
    }
}
