import Logging
import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// What a calibration request came to.
package enum CalibrationStart: String, Sendable, Codable, Equatable {
    /// Collecting: the controller should be held still for `calibration.duration` s.
    case started
    /// `calibration.mode = off`: nothing happens.
    case off
    /// No controller with that session is connected.
    case noController = "no-controller"
}

/// The host's work after the protocol engine: each session's motion through its own
/// mapper into the injector, button edges through its button map, host commands, and
/// release of everything a session held when it ends. Runs on the host's event loop.
///
/// A sample's path: `handle(.motion)` → observers (`motion`) → the session's `MotionMapper`
/// → output hooks (`HostOutputHook`, may take the event) → `Injector` → backend.
package final class HostPipeline: HostEventSink {
    package let injector: Injector
    /// The host's profile: what sessions without their own use (config file, dashboard).
    package private(set) var profile: MappingProfile
    package var settings: MappingSettings { profile.settings }
    package var buttonMap: ButtonMap { profile.buttons }
    /// One record per open session; nothing else in the pipeline is per session.
    package internal(set) var sessions: [SessionID: PipelineSession] = [:]
    /// What the ended sessions leave behind: totals, not a list.
    package private(set) var closedTotals = ClosedSessionTotals()
    package private(set) var paused = false
    let logger: Logger
    package private(set) var injectionErrors = 0
    /// Whether phones may type at all (`remotion host --no-typing` sets false).
    package var typingAllowed = true
    /// Text and key messages refused because typing is off.
    package internal(set) var typingRefusals = 0
    /// Input events handed to the injector successfully (motion, buttons, keys).
    package private(set) var injectedEvents = 0
    /// Why this injector was chosen (shown at start-up).
    package let injectorReason: String
    /// Where status readers (terminal view, dashboard) find the host's state.
    package let publisher: SnapshotPublisher?
    /// Name and listening address shown in snapshots.
    package var identity = (name: "", listen: "")
    /// Builds status snapshots off this loop (HostPipeline+Snapshot).
    lazy var snapshotBuilder = publisher.map(SnapshotBuilder.init(publisher:))
    /// Pointer positions kept per controller for the dashboard's trail (about 2 s at 120 Hz).
    package static let trailLength = 256
    private var started: Instant?
    /// When text was last typed (XTest borrows keycodes for it; given back a moment later).
    var lastTextAt: Instant?
    /// Told about every controller's session, motion and buttons (the DSU server).
    package var observers: [any HostPipelineObserver] = []
    /// Told about every event the mapping produced, before the injector (an overlay, a recorder).
    package var outputHooks: [any HostOutputHook] = []
    /// Adapters beside the host's socket whose drops show with the host's (DSU).
    package var dropReporters: [any HostDropReporter] = []
    /// Names a new session (set by the host: for Noise sessions the paired controller's
    /// name from the key store); other transports name theirs when they open them.
    package var nameForSession: ((SessionID) -> String?)?

    package init(injector: Injector, profile: MappingProfile, logger: Logger,
                 injectorReason: String = "", publisher: SnapshotPublisher? = nil) {
        self.publisher = publisher
        self.injector = injector
        self.injectorReason = injectorReason
        self.profile = profile
        self.logger = logger
    }

    package convenience init(injector: Injector, buttonMap: ButtonMap, settings: MappingSettings, logger: Logger,
                             injectorReason: String = "", publisher: SnapshotPublisher? = nil) {
        self.init(injector: injector, profile: MappingProfile(settings: settings, buttons: buttonMap), logger: logger,
                  injectorReason: injectorReason, publisher: publisher)
    }

    package func handle(_ action: HostAction<SocketAddress>, now: Instant) {
        switch action {
        case let .sessionOpened(id, origin):
            sessions[id] = PipelineSession(telemetry: SessionTelemetry(address: origin.displayText, opened: now),
                                           profile: profile, keepsTrail: publisher != nil)
            if let name = nameForSession?(id) { setName(id, name) }
            logger.info("controller connected", metadata: ["session": "\(id)", "address": "\(origin.displayText)"])
            for o in observers { o.sessionOpened(id, origin: origin, now: now) }
        case let .motion(id, sample, latency):
            for o in observers { o.motion(id, sample, now: now) }
            motion(id, sample, latencyMicros: latency, now: now)
        case let .button(id, button, isDown):
            self.button(id, button, isDown: isDown, now: now)
            for o in observers { o.button(id, button, isDown: isDown, now: now) }
        case let .sessionClosed(id, reason):
            if let error = injector.endSession(id) { fail(error) }
            if let s = sessions.removeValue(forKey: id) { closedTotals.add(s.telemetry, reason: reason) }
            logger.info("controller disconnected", metadata: ["session": "\(id)", "reason": "\(reason)"])
            for o in observers { o.sessionClosed(id, now: now) }
        case .send:
            break
        }
    }

    /// The name shown for a session (terminal view, dashboard, JSON status): the name a
    /// controller paired under, or what its transport calls it ("DSU slot 0").
    package func setName(_ id: SessionID, _ name: String) {
        sessions[id]?.telemetry.name = name
    }

    package func shutdown() {
        if let error = injector.releaseEverything() { fail(error) }
        injector.close()
    }

    /// The direction a controller points at becomes the screen centre (its next sample).
    package func recenter(_ id: SessionID) { sessions[id]?.mapper.recenter() }

    /// One controller's mapping mode (the others keep theirs, and it keeps this one when
    /// the host's settings change); nil reads it. Returns the mode in effect.
    @discardableResult
    package func setMode(_ id: SessionID, _ mode: MappingSettings.Mode?) -> MappingSettings.Mode? {
        guard let i = sessions.index(forKey: id) else { return nil }
        if let mode {
            sessions.values[i].ownMode = mode
            sessions.values[i].mapper.settings.mode = mode
        }
        return sessions.values[i].mapper.settings.mode
    }

    /// Gives one session its own profile (nil: back to the host's), at once and without
    /// touching the others. Returns false when no such session is open.
    @discardableResult
    package func setProfile(_ id: SessionID, _ own: MappingProfile?) -> Bool {
        guard let i = sessions.index(forKey: id) else { return false }
        sessions.values[i].ownProfile = own
        sessions.values[i].ownMode = nil
        sessions.values[i].buttons = (own ?? profile).buttons
        sessions.values[i].mapper.settings = sessions.values[i].settings(host: profile)
        return true
    }

    /// The profile a session uses now (its own, or the host's with its mode).
    package func profile(of id: SessionID) -> MappingProfile? {
        guard let s = sessions[id] else { return nil }
        return MappingProfile(settings: s.mapper.settings, buttons: s.buttons)
    }

    /// Applies new mapping settings to the host's profile: every session that follows
    /// it now, new sessions later. Sessions with their own profile keep theirs.
    package func update(settings: MappingSettings) {
        profile.settings = settings
        for i in sessions.indices where sessions.values[i].ownProfile == nil {
            sessions.values[i].mapper.settings = sessions.values[i].settings(host: profile)
        }
    }

    /// A new button map for the host's profile, applied at once to the sessions that follow it.
    package func update(buttons: ButtonMap) {
        profile.buttons = buttons
        for i in sessions.indices where sessions.values[i].ownProfile == nil {
            sessions.values[i].buttons = buttons
        }
    }

    private func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64?, now: Instant) {
        guard let i = sessions.index(forKey: id) else { return }
        // One in-place access to the record for the whole sample (`&sessions.values[i]`):
        // reading `sessions.values[i].field` goes through the getter and copies the whole
        // record, mapper and trail included, for every field read (issue 27 item 9).
        let step = Self.map(sample, into: &sessions.values[i], latencyMicros: latencyMicros, paused: paused,
                            screen: injector.screen, now: now)
        if step.needsAttitude { noteMissingAttitude(id, mode: step.mode) }
        if let event = step.event { inject(event, session: id, now: now) }
    }

    /// What one sample did to a session: the event to inject, and whether pointer or seed
    /// mode lacks an attitude (said once).
    struct MotionStep {
        var event: InputEvent?
        var needsAttitude = false
        var mode: MappingSettings.Mode
    }

    /// A sample through one session's record, in place: telemetry, mapper, trail.
    static func map(_ sample: MotionSample, into s: inout PipelineSession, latencyMicros: Int64?, paused: Bool,
                    screen: ScreenGeometry, now: Instant) -> MotionStep {
        s.telemetry.recordMotion(latencyMicros: latencyMicros, sample: sample, now: now)
        let mode = s.mapper.settings.mode
        guard !paused, s.motionEnabled else {
            // No output, but the gyro pipeline (calibration, fusion, clutch) keeps up.
            s.mapper.observe(sample)
            s.telemetry.attitude = s.mapper.attitude
            return MotionStep(mode: mode)
        }
        let output = s.mapper.update(sample, screen: screen)
        s.telemetry.attitude = s.mapper.attitude
        // Pointer and seed modes need an attitude: sent by the controller, or fused from its
        // gyro and accelerometer (HostLogic/Motion/Raw). Say so once if neither is there.
        var step = MotionStep(mode: mode)
        step.needsAttitude = mode != .fps && s.mapper.attitude == nil && !s.attitudeNoted
        if let p = output.moveTo {
            s.telemetry.pointer = p
            s.trail?.append(x: p.x, y: p.y)
            step.event = .moveTo(x: p.x, y: p.y)
        } else if output.moveBy != (0, 0) {
            step.event = .moveBy(dx: output.moveBy.dx, dy: output.moveBy.dy)
        }
        return step
    }

    /// One event (a motion frame): no array per packet. Output hooks see it first.
    func inject(_ event: InputEvent, session id: SessionID, now: Instant) {
        for hook in outputHooks where !hook.output(event, session: id, now: now) { return }
        do {
            try injector.apply(event, session: id)
            injectedEvents += 1
        } catch {
            fail(error)
        }
    }

    private func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant) {
        guard let i = sessions.index(forKey: id) else { return }
        let (events, command) = Self.press(button, isDown: isDown, in: &sessions.values[i])
        if let command { perform(command, session: id, down: isDown) }
        inject(events, session: id, now: now)
    }

    /// A button edge in one session's record, in place: its counters, and what its map makes of it.
    static func press(_ button: Button, isDown: Bool, in s: inout PipelineSession) -> ([InputEvent], ButtonCommand?) {
        s.telemetry.buttonEdges += 1
        s.telemetry.buttons.set(button, down: isDown)
        return s.buttons.events(for: button, down: isDown)
    }

    /// A button's events (a key chord: modifiers and key) in one frame, one flush.
    func inject(_ events: [InputEvent], session id: SessionID, now: Instant) {
        let kept = outputHooks.isEmpty ? events
            : events.filter { e in outputHooks.allSatisfy { $0.output(e, session: id, now: now) } }
        guard !kept.isEmpty else { return }
        do {
            try injector.apply(kept, session: id)
            injectedEvents += kept.count
        } catch {
            fail(error)
        }
    }

    private func perform(_ command: ButtonCommand, session id: SessionID, down: Bool) {
        switch command {
        case .recenter where down: sessions[id]?.mapper.recenter()
        case .toggleMode where down: sessions[id]?.mapper.toggleMode()
        case .pause where down: paused.toggle()
        case .calibrate where down: calibrate(session: id)
        case .holdToEnableMotion: sessions[id]?.motionHeld = down
        default: break
        }
    }

    /// Starts a manual gyro calibration of one controller (hold it still for
    /// `calibration.duration` seconds).
    @discardableResult
    package func calibrate(session id: SessionID) -> CalibrationStart {
        guard let started = sessions[id]?.mapper.calibrate() else { return .noController }
        logger.info(started ? "gyro calibration started; hold the controller still" : "gyro calibration is off",
                    metadata: ["session": "\(id)", "seconds": "\(settings.sensors.calibrationDuration)"])
        return started ? .started : .off
    }

    /// The gyro status of one controller (nil before it sent gyro rates).
    package func gyroStatus(of id: SessionID) -> GyroStatus? { sessions[id]?.mapper.gyroStatus }

    func startInstant(_ now: Instant) -> Instant {
        if let started { return started }
        started = now
        return now
    }

    func fail(_ error: InjectionError) {
        injectionErrors += 1
        logger.error("injection failed; released every held input", metadata: ["error": "\(error)"])
    }
}
