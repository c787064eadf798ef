import RemotionProtocol

/// What changes a session's meaning at run time: names, modes, profiles, the host's
/// settings and button map, recentring and calibration.
extension PipelineCore {
    /// The name shown for a session (terminal view, dashboard, JSON status): the name a
    /// controller paired under, or what its transport calls it ("DSU slot 0").
    package mutating func setName(_ id: SessionID, _ name: String) {
        sessions[id]?.telemetry.name = name
    }

    /// The direction a controller points at becomes the screen centre (its next sample).
    package mutating func recenter(_ id: SessionID) { sessions[id]?.mapper.recenter() }

    /// Starts a manual gyro calibration of one controller: true when it started, false when
    /// calibration is off, nil when no such session is open.
    package mutating func calibrate(_ id: SessionID) -> Bool? { sessions[id]?.mapper.calibrate() }

    /// The controller itself asks for a manual calibration (its page's Calibrate): started
    /// (`running(0)`), or the one already running goes on (its progress: a second tap does
    /// not restart it), or why not. nil when no such session is open.
    package mutating func requestCalibration(_ id: SessionID, now: Instant) -> CalibrationReport? {
        guard let i = sessions.index(forKey: id) else { return nil }
        if case .running(let progress)? = sessions.values[i].mapper.raw.calibrator.manualCalibration {
            return .running(progress: progress)
        }
        guard sessions.values[i].mapper.raw.settings.calibration.mode != .off else { return .unavailable(.off) }
        guard sessions.values[i].mapper.raw.hasGyro else { return .unavailable(.noGyro) }
        guard sessions.values[i].mapper.calibrate() else { return .unavailable(.off) }
        sessions.values[i].calibrationReporter.started(now: now)
        return .running(progress: 0)
    }

    /// One controller's mapping mode (the others keep theirs, and it keeps this one when
    /// the host's settings change); nil reads it. Returns the mode in effect.
    package mutating func setMode(_ id: SessionID, _ mode: MappingSettings.Mode?) -> MappingSettings.Mode? {
        guard let i = sessions.index(forKey: id) else { return nil }
        if let mode {
            sessions.values[i].ownMode = mode
            sessions.values[i].mapper.settings.mode = mode
        }
        return sessions.values[i].mapper.settings.mode
    }

    /// One controller's gyro stick (`gyro_stick.target`: off, right, left), chosen on its page;
    /// like its mode it outlives the host's settings changes. nil reads it. Returns the
    /// target in effect.
    package mutating func setGyroStick(_ id: SessionID, _ target: GyroStickSettings.Target?) -> GyroStickSettings.Target? {
        guard let i = sessions.index(forKey: id) else { return nil }
        if let target {
            sessions.values[i].ownGyroStick = target
            var settings = sessions.values[i].mapper.settings
            settings.gyroStick.target = target
            setSettings(settings, at: i)
        }
        return sessions.values[i].mapper.settings.gyroStick.target
    }

    /// Gives one session its own profile (nil: back to the host's), at once and without
    /// touching the others. Returns false when no such session is open.
    package mutating func setProfile(_ id: SessionID, _ own: MappingProfile?) -> Bool {
        guard let i = sessions.index(forKey: id) else { return false }
        sessions.values[i].ownProfile = own
        sessions.values[i].ownMode = nil
        sessions.values[i].ownGyroStick = nil
        setButtons((own ?? profile).buttons, at: i)
        setSettings(sessions.values[i].settings(host: profile), at: i)
        return true
    }

    /// A `[[profile]]`'s mapping for a session (nil: back to the host's), which keeps the
    /// mode and gyro stick its page chose: the profile's win while in force where it names
    /// them (`namesMode`, `namesGyroStick`), the page's return when it goes.
    mutating func setFocusMapping(_ id: SessionID, _ own: MappingProfile?, namesMode: Bool, namesGyroStick: Bool) {
        guard let i = sessions.index(forKey: id) else { return }
        sessions.values[i].ownProfile = own
        sessions.values[i].focusNamesMode = own != nil && namesMode
        sessions.values[i].focusNamesGyroStick = own != nil && namesGyroStick
        setButtons((own ?? profile).buttons, at: i)
        setSettings(sessions.values[i].settings(host: profile), at: i)
    }

    /// The profile a session uses now (its own, or the host's with its mode).
    package func profile(of id: SessionID) -> MappingProfile? {
        guard let s = sessions[id] else { return nil }
        return MappingProfile(settings: s.mapper.settings, buttons: s.buttons)
    }

    /// Applies new mapping settings to the host's profile: every session that follows
    /// it now, new sessions later. Sessions with their own profile keep theirs.
    package mutating func update(settings: MappingSettings) {
        profile.settings = settings
        for i in sessions.indices where sessions.values[i].ownProfile == nil {
            setSettings(sessions.values[i].settings(host: profile), at: i)
        }
    }

    /// A new button map for the host's profile, applied at once to the sessions that follow it.
    package mutating func update(buttons: ButtonMap) {
        profile.buttons = buttons
        for i in sessions.indices where sessions.values[i].ownProfile == nil { setButtons(buttons, at: i) }
    }

    /// A session's mapping settings, and its pad's gyro stick with them (`gyro_stick.*`): on,
    /// off or to the other stick from its next state on. (A mode change alone leaves it: the
    /// gyro stick is the same in every mode.)
    private mutating func setSettings(_ settings: MappingSettings, at i: Dictionary<SessionID, PipelineSession>.Index) {
        sessions.values[i].mapper.settings = settings
        sessions.values[i].pad?.gyroStick = settings.gyroStick.stick
    }

    /// A session's button map, and its pad's table with it (pad targets, docs/GAMEPAD.md).
    private mutating func setButtons(_ buttons: ButtonMap, at i: Dictionary<SessionID, PipelineSession>.Index) {
        sessions.values[i].buttons = buttons
        sessions.values[i].pad?.table = buttons.padTable
    }

    /// One-way latency over every session served so far (open, and the closed ones'
    /// totals), in µs; nil when no sample's latency could be measured.
    package func latencySummary() -> (p50: UInt64, p99: UInt64, samples: UInt64)? {
        var all = closedTotals.latency
        for s in sessions.values { all.add(s.telemetry.latency) }
        guard all.totalCount > 0 else { return nil }
        return (all.valueAtPercentile(50), all.valueAtPercentile(99), all.totalCount)
    }

    /// Samples re-timed toward the host's clock and mapping restarts, over every session
    /// served so far (`SampleTimeline`): a controller clock that ran fast, jumped or restarted.
    package func sampleClockTotals() -> (reanchors: Int, restarts: Int) {
        sessions.values.reduce((closedTotals.clockReanchors, closedTotals.clockRestarts)) {
            ($0.0 &+ $1.timeline.reanchors, $0.1 &+ $1.timeline.discontinuities)
        }
    }
}
