import RemotionProtocol

/// What the host's adapters ask of the engine besides its events: the host's profile and
/// settings, one session's own settings, the readings the status and the stop line show.
/// App reaches the engine through these and its events only, never through `core`, so the
/// decisions stay behind one surface (docs/ARCHITECTURE.md, "The engine's API").
extension HostEngine {
    // MARK: Readings (the status, the stop line)

    /// The host's profile: what sessions without their own use (config file, dashboard).
    package var profile: MappingProfile { core.profile }
    /// One record per open session.
    package var sessions: [SessionID: PipelineSession] { core.sessions }
    /// What the ended sessions leave behind: totals, not a list.
    package var closedTotals: ClosedSessionTotals { core.closedTotals }
    package var paused: Bool { core.paused }
    /// Text and key messages refused: typing off for the host or the phone, or too fast.
    package var typingRefusals: Int { core.typingRefusals }
    /// Whether this host makes virtual pads at all (`offerPads` was called).
    package var padsAvailable: Bool { core.pads != nil }
    /// The earliest time a game's rumble or light held back by its pacer is due.
    package var feedbackDeadline: Instant? { core.feedbackDeadline }
    /// One-way latency over every session served so far, µs; nil when none was measured.
    package func latencySummary() -> (p50: UInt64, p99: UInt64, samples: UInt64)? { core.latencySummary() }
    /// Samples re-timed toward the host's clock and sample clocks that restarted, over every session.
    package func sampleClockTotals() -> (reanchors: Int, restarts: Int) { core.sampleClockTotals() }
    /// The profile a session uses now (its own, or the host's with its mode).
    package func profile(of id: SessionID) -> MappingProfile? { core.profile(of: id) }
    /// The gyro status of one controller (nil before it sent gyro rates).
    package func gyroStatus(of id: SessionID) -> GyroStatus? { core.sessions[id]?.mapper.gyroStatus }
    /// The identity `id`'s calibration is remembered under, if any.
    package func calibrationKey(of id: SessionID) -> String? { core.calibrationKey(of: id) }

    // MARK: The host's settings

    /// Who types a page's text: the injector, or nobody (the page is told why).
    package var typist: TextTypist {
        get { core.typist }
        set { core.typist = newValue }
    }
    /// Whether phones may type at all (`remotion host --no-typing` sets false).
    package var typingAllowed: Bool {
        get { core.typingAllowed }
        set { core.typingAllowed = newValue }
    }

    /// This host makes virtual pads (`--gamepad`): every session opened from now on may get
    /// one. Set by the composition root before any source exists, so no controller came before.
    package mutating func offerPads(_ pads: VirtualPadSettings) { core.pads = pads }

    // MARK: One session's settings

    /// The name shown for a session: the name it paired under, or what its transport calls it.
    package mutating func setName(_ id: SessionID, _ name: String) { core.setName(id, name) }
    /// The direction a controller points at becomes the screen centre (its next sample).
    package mutating func recenter(_ id: SessionID) { core.recenter(id) }
    /// One controller's mapping mode; nil reads it. Returns the mode in effect.
    package mutating func setMode(_ id: SessionID, _ mode: MappingSettings.Mode?) -> MappingSettings.Mode? {
        core.setMode(id, mode)
    }
    /// One session's own profile (nil: back to the host's); false when no such session.
    package mutating func setProfile(_ id: SessionID, _ own: MappingProfile?) -> Bool { core.setProfile(id, own) }
    /// One controller's gyro as a pad stick: the target in effect, nil when no such session.
    package mutating func setGyroStick(_ id: SessionID, _ target: GyroStickSettings.Target?) -> GyroStickSettings.Target? {
        core.setGyroStick(id, target)
    }
    /// One session's typing permission (its device's, set by the transport when it opens).
    package mutating func setTyping(_ id: SessionID, allowed: Bool) { core.setTyping(id, allowed: allowed) }
    /// Starts a manual gyro calibration: true collecting, false calibration is off, nil no such session.
    package mutating func calibrate(_ id: SessionID) -> Bool? { core.calibrate(id) }
    /// Names `id`'s controller for calibration memory (with where it came from) and restores
    /// `saved`, what the store remembers of it. Returns whether a calibration was put back.
    package mutating func identify(_ id: SessionID, as key: String, restoring saved: RecalledCalibration?,
                                   now: Instant) -> Bool {
        core.identify(id, as: key, source: origins[id]?.calibrationSource, restoring: saved, now: now)
    }
}
