import RemotionProtocol

/// The host pipeline's decisions, sans-IO: the session table (one
/// `PipelineSession` record per open session), what a session's open, motion, button edge
/// and close mean, its mapping state, telemetry, the totals of the ended ones, its
/// virtual pad's state, and what its page's touchpad, keys, text and laser mean
/// (PipelineCore+WebInput). Events and the time in; `PipelineOutput`s out, appended to a
/// buffer the caller reuses (no array per packet). The host's `HostPipeline` (App) feeds
/// it the protocol engine's actions and routes the outputs: input to the injector, pad
/// states to the virtual pads.
///
/// The zero-stuck rule lives here: `close` always asks the injector to release what the
/// session held, and a session with a pad shows it at rest before the pad goes.
package struct PipelineCore: Sendable {
    /// Pointer positions kept per controller for the dashboard's trail (about 2 s at 120 Hz).
    package static let trailLength = 256

    /// The host's profile: what sessions without their own use (config file, dashboard).
    package internal(set) var profile: MappingProfile
    /// One record per open session; nothing else in the pipeline is per session.
    package var sessions: [SessionID: PipelineSession] = [:]
    /// What the ended sessions leave behind: totals, not a list.
    package private(set) var closedTotals = ClosedSessionTotals()
    /// Motion moves nothing (a `pause` button); the gyro pipeline keeps up.
    package private(set) var paused = false
    /// The desktop session is inactive (`setSuspended`): pads show rest and report nothing.
    package internal(set) var suspended = false
    /// Pads made, by controller: at open (`for = "every"`) and on request (`setPad`).
    var padOpens = PadOpenLimit()
    /// Sessions keep a pointer trail (someone reads the status).
    package let keepsTrails: Bool
    /// Each session gets a virtual pad fed from its samples and edges (`--gamepad`); nil: none.
    package var pads: VirtualPadSettings?
    /// Whether phones may type at all (`remotion host --no-typing` sets false; PipelineCore+WebInput).
    package var typingAllowed = true
    /// Text and key messages refused: typing off for the host or the phone, or too fast.
    package internal(set) var typingRefusals = 0
    /// Who types a page's text here (PipelineCore+WebInput): the injector, or nobody.
    package var typist = TextTypist.injector
    /// When text was last typed (XTest borrows keycodes for it; given back a moment later).
    package internal(set) var lastTextAt: Instant?

    package init(profile: MappingProfile, keepsTrails: Bool = false, pads: VirtualPadSettings? = nil) {
        self.profile = profile
        self.keepsTrails = keepsTrails
        self.pads = pads
    }

    /// A session opened at `address` (as shown); `identity` names its controller stably for
    /// its pad (its paired name, else its address without the port).
    /// `sampleClock`: whose clock the controller's sample times are on (`SampleTimeline.Clock`).
    package mutating func open(_ id: SessionID, address: String, name: String? = nil, identity: String,
                               sampleClock: SampleTimeline.Clock = .own, now: Instant,
                               into out: inout [PipelineOutput]) {
        // An id opened twice (never from the state machine): the old pad rests and goes first.
        if let old = sessions[id]?.pad { out.append(.padClosed(rest: old.state.rest(at: old.state.motion.time))) }
        var telemetry = SessionTelemetry(address: address, opened: now)
        if let name { telemetry.name = name }
        // Every pad made counts against its controller's limit, those made at open too: a
        // controller (or a DSU server, or whoever spoofs one) that comes and goes in a loop
        // gets at most `PadOpenLimit.limit` pads a window; the pad it is owed comes from the
        // timer when the window passes (`duePads`), if it is still there.
        let wantsPad = pads?.forEvery == true
        let allowed = wantsPad && padOpens.allow(identity, now: now)
        let pad = allowed
            ? GamepadFeed(table: profile.buttons.padTable, gyroStick: profile.settings.gyroStick.stick, at: now) : nil
        sessions[id] = PipelineSession(telemetry: telemetry, profile: profile, keepsTrail: keepsTrails, pad: pad)
        sessions[id]?.padIdentity = identity
        sessions[id]?.timeline = SampleTimeline(clock: sampleClock)
        if wantsPad, !allowed { sessions[id]?.padOwedAt = padOpens.windowEnd(identity) ?? now }
        if pad != nil { out.append(.padOpened(identity: identity)) }
    }

    /// One motion sample of `id`, mapped on `screen`: a pointer event for the injector (unless
    /// paused or gated), its pad's new state, a note. The per-packet path: a value, no buffer
    /// (`HostPipeline` routes its parts to the outputs of their kind).
    package mutating func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64?, screen: ScreenGeometry,
                                 now: Instant) -> MotionOutput {
        guard let i = sessions.index(forKey: id) else { return MotionOutput() }
        // One in-place access to the record for the whole sample (`&sessions.values[i]`):
        // reading `sessions.values[i].field` goes through the getter and copies the whole
        // record, mapper and trail included, for every field read.
        var m = Self.map(sample, into: &sessions.values[i], latencyMicros: latencyMicros, paused: paused,
                         screen: screen, now: now)
        if suspended { m.pad = nil }
        return m
    }

    /// The same as outputs appended to `out`, in order: the note, the pointer, the pad.
    package mutating func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64?, screen: ScreenGeometry,
                                 now: Instant, into out: inout [PipelineOutput]) {
        let m = motion(id, sample, latencyMicros: latencyMicros, screen: screen, now: now)
        if let note = m.note { out.append(.note(note)) }
        if let event = m.pointer { out.append(.input(event)) }
        if let state = m.pad { out.append(.pad(state)) }
        if let feedback = m.feedback { out.append(.feedback(feedback)) }
        if let calibration = m.calibration { out.append(.calibration(calibration)) }
        if let save = m.calibrationSave { out.append(.calibrationSave(save)) }
    }

    /// What one sample decided: each part for the outputs of its kind.
    package struct MotionOutput: Sendable {
        /// `moveTo` or `moveBy`, one frame for the injector.
        package var pointer: InputEvent?
        /// The session's pad's new state.
        package var pad: GamepadState?
        /// Said once per session: pointer or seed mode without an attitude.
        package var note: PipelineNote?
        /// Rumble and light for the controller: a change held back, or a running rumble's refresh.
        package var feedback: ControllerFeedback?
        /// For the controller's page: a manual calibration's progress or end (`CalibrationReporter`).
        package var calibration: CalibrationReport?
        /// The sample with its time on the host's clock (`SampleTimeline`), for the observers
        /// that serve it on (the DSU server); nil when the session is not open.
        package var sample: MotionSample?
        /// The session's calibration, for the host's memory (at most every
        /// `calibrationSaveInterval` while it changes).
        package var calibrationSave: CalibrationSave?
        package init() {}
    }

    /// A sample through one session's record, in place: telemetry, mapper, trail, pad.
    static func map(_ received: MotionSample, into s: inout PipelineSession, latencyMicros: Int64?, paused: Bool,
                    screen: ScreenGeometry, now: Instant) -> MotionOutput {
        var result = MotionOutput()
        // The status shows the controller's own time (data, never computed with); everything
        // after this line reads the sample's time on the host's clock.
        s.telemetry.recordMotion(latencyMicros: latencyMicros, sample: received, now: now)
        var sample = received
        sample.timestampMicros = s.timeline.map(received.timestampMicros, now: now)
        s.telemetry.lastSampleHostMicros = sample.timestampMicros
        result.sample = sample
        if s.pad != nil {
            result.pad = s.pad?.motion(sample)
            result.feedback = s.feedback.due(now: now)
        }
        let mode = s.mapper.settings.mode
        guard !paused, s.motionEnabled else {
            // No output, but the gyro pipeline (calibration, fusion, clutch) keeps up.
            s.mapper.observe(sample)
            s.telemetry.attitude = s.mapper.attitude
            result.calibration = s.calibrationReporter.observe(s.mapper.raw.calibrator.manualCalibration, now: now)
            result.calibrationSave = noteCalibration(&s, now: now)
            return result
        }
        let output = s.mapper.update(sample, screen: screen)
        s.telemetry.attitude = s.mapper.attitude
        result.calibration = s.calibrationReporter.observe(s.mapper.raw.calibrator.manualCalibration, now: now)
        result.calibrationSave = noteCalibration(&s, now: now)
        // Pointer and seed modes need an attitude: sent by the controller, or fused from its
        // gyro and accelerometer (HostLogic/Motion/Raw). Say so once if neither is there.
        if mode != .fps, s.mapper.attitude == nil, !s.attitudeNoted {
            s.attitudeNoted = true
            result.note = .missingAttitude(mode: mode)
            s.telemetry.note = result.note?.text
        }
        if let p = output.moveTo {
            s.telemetry.pointer = p
            s.trail?.append(x: p.x, y: p.y)
            result.pointer = .moveTo(x: p.x, y: p.y)
        } else if output.moveBy != (0, 0) {
            result.pointer = .moveBy(dx: output.moveBy.dx, dy: output.moveBy.dy)
        }
        return result
    }

    /// A button edge of `id`: what its map makes of it (events for the injector, or a host
    /// command done here), and its pad's new state.
    package mutating func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant,
                                 into out: inout [PipelineOutput]) {
        guard let i = sessions.index(forKey: id) else { return }
        sessions.values[i].telemetry.buttonEdges += 1
        sessions.values[i].telemetry.buttons.set(button, down: isDown)
        let (events, command) = sessions.values[i].buttons.events(for: button, down: isDown)
        if let command { perform(command, at: i, down: isDown, into: &out) }
        if !events.isEmpty { out.append(events.count == 1 ? .input(events[0]) : .inputs(events)) }
        if sessions.values[i].pad != nil, let state = sessions.values[i].pad?.button(button, isDown: isDown), !suspended {
            out.append(.pad(state))
        }
    }

    /// A game wrote `change` to the pad of `id` (rumble, light): what to send its
    /// controller now, if anything (`FeedbackPacer`; the rest goes with its next samples).
    package mutating func padFeedback(_ id: SessionID, _ change: FeedbackChange, now: Instant,
                                      into out: inout [PipelineOutput]) {
        guard let i = sessions.index(forKey: id), sessions.values[i].pad != nil else { return }
        if let feedback = sessions.values[i].feedback.update(change, now: now) { out.append(.feedback(feedback)) }
    }

    private mutating func perform(_ command: ButtonCommand, at i: Dictionary<SessionID, PipelineSession>.Index,
                                  down: Bool, into out: inout [PipelineOutput]) {
        switch command {
        case .recenter where down: sessions.values[i].mapper.recenter()
        case .toggleMode where down: sessions.values[i].mapper.toggleMode()
        case .pause where down: paused.toggle()
        case .calibrate where down: out.append(.note(.calibration(started: sessions.values[i].mapper.calibrate())))
        case .holdToEnableMotion: sessions.values[i].motionHeld = down
        default: break
        }
    }

    /// `id` ended (`reason`): the injector releases what it held, its pad shows rest and
    /// goes, and its record is folded into the totals.
    package mutating func close(_ id: SessionID, reason: SessionCloseReason, now: Instant,
                                into out: inout [PipelineOutput]) {
        // Always, record or not: the injector's tracker is the truth about what is held.
        out.append(.releaseHeld)
        guard var s = sessions.removeValue(forKey: id) else { return }
        if let pad = s.pad { out.append(.padClosed(rest: pad.state.rest(at: pad.state.motion.time))) }
        // What it learned since the last save is remembered (a still period cut short included).
        if let save = Self.save(&s, now: now) { out.append(.calibrationSave(save)) }
        closedTotals.add(s.telemetry, timeline: s.timeline, reason: reason)
    }
}

/// What the pipeline needs to feed virtual pads (`[gamepad]`, `--gamepad`): that there are
/// pads, and whether every session starts with one (`for = "every"`, the default) or only
/// those that ask (`for = "asked"`: the page's Gamepad mode, the dashboard; `setPad`). Gyro as
/// a stick is each profile's (`gyro_stick.*`), its button targets its button map's.
package struct VirtualPadSettings: Sendable, Hashable {
    package var forEvery: Bool
    package init(forEvery: Bool = true) { self.forEvery = forEvery }
}
