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

/// The host's work after the protocol engine, as an adapter around `PipelineCore`
/// (HostLogic/Pipeline, sans-IO): it hands the core each action with the time and the
/// screen, and routes what the core decides to the outputs (`HostOutput`: the injector,
/// the virtual pads) and says its notes. The observers (the DSU server, the laser) see
/// every session, sample and edge. Runs on the host's event loop.
///
/// A sample's path: `handle(.motion)` → observers (`motion`) → `PipelineCore.motion` (the
/// session's `MotionMapper`, telemetry, pad) → `PipelineOutput`s → outputs by kind: input to
/// `InjectorOutput` (output hooks, may take the event → `Injector` → backend), pad states
/// to `VirtualPadOutput`.
package final class HostPipeline {
    package let injector: Injector
    /// The host's engine (HostLogic, sans-IO): every session of every origin and the
    /// decisions; this class is its adapter on the host's loop, and reaches it through its
    /// API only (`HostEngine+API`), never its `core`.
    var engine: HostEngine<SocketAddress>
    /// The host's profile: what sessions without their own use (config file, dashboard).
    package var profile: MappingProfile { engine.profile }
    package var settings: MappingSettings { engine.profile.settings }
    package var buttonMap: ButtonMap { engine.profile.buttons }
    /// One record per open session (the engine's).
    package var sessions: [SessionID: PipelineSession] { engine.sessions }
    /// What the ended sessions leave behind: totals, not a list.
    package var closedTotals: ClosedSessionTotals { engine.closedTotals }
    package var paused: Bool { engine.paused }
    let logger: Logger
    /// Whether phones may type at all (`remotion host --no-typing` sets false; the engine decides).
    package var typingAllowed: Bool { get { engine.typingAllowed } set { engine.typingAllowed = newValue } }
    /// Text and key messages refused: typing off for the host or the phone, or too fast.
    package var typingRefusals: Int { engine.typingRefusals }
    /// The injector as an output (always the first of `outputs`).
    let injectorOutput: InjectorOutput
    /// Every output, the injector first; `addOutput` adds more (the virtual pads).
    package private(set) var outputs: [any HostOutput] { didSet { sortOutputs() } }
    /// The outputs other than the injector that accept input, and those that accept pad
    /// states (worked out when an output is added, not per sample). The injector, always
    /// there, is called directly on the per-packet path: no existential call, no enum.
    private var otherInputOutputs: [any HostOutput] = []
    var padOutputs: [any HostOutput] = []
    /// Where a page's text goes: the injector's typing when its backend types, else nowhere
    /// (the page is told why). Nothing else ever gets text.
    package let text: (any TextOutput)?
    /// The presenter's laser (wired by the daemon when a dot can be drawn): the only place a
    /// laser goes; it also sees the pointer events before the injector and every session's end.
    /// Without one the phone's laser moves the real pointer.
    package var laser: (any LaserOutput)? {
        didSet {
            if let old = oldValue {
                outputHooks.removeAll { $0 === old }
                observers.removeAll { $0 === old }
            }
            if let laser {
                outputHooks.append(laser)
                observers.append(laser)
            }
        }
    }
    /// What the engine decided for the event being handled (reused: no array per packet).
    var pending: [EngineOutput<SocketAddress>] = []
    package var injectionErrors: Int { injectorOutput.errors }
    /// Input events handed to the injector successfully (motion, buttons, keys).
    package var injectedEvents: Int { injectorOutput.injected }
    /// Why this injector was chosen (shown at start-up).
    package let injectorReason: String
    /// Where status readers (terminal view, dashboard) find the host's state.
    package let publisher: SnapshotPublisher?
    /// Name and listening address shown in snapshots.
    package var identity = (name: "", listen: "")
    /// `--output` was given: the command line decides the output, not the dashboard (HostPipeline+Outputs).
    package var outputFromCommandLine = false
    /// Builds status snapshots off this loop (HostPipeline+Snapshot).
    lazy var snapshotBuilder = publisher.map(SnapshotBuilder.init(publisher:))
    /// What the last snapshot handed over shows that the status lines say (HostPipeline+Snapshot).
    var statusMarks = StatusEventMarks()
    private var started: Instant?
    /// Told about every controller's session, motion and buttons (the DSU server, the laser),
    /// while the desktop session is active: a suspended host tells them every session
    /// closed, then nothing, and opens them again when it is active (HostPipeline+WebInput).
    package var observers: [any HostPipelineObserver] = []
    /// Told about every event the mapping produced, before the injector (an overlay, a recorder).
    package var outputHooks: [any HostOutputHook] {
        get { injectorOutput.hooks }
        set { injectorOutput.hooks = newValue }
    }
    /// Adapters beside the host's socket whose drops show with the host's (DSU).
    package var dropReporters: [any HostDropReporter] = []
    /// What `--local-pads` reads and skips now (nil: not asked for), for the status.
    package var localPads: LocalPadInventory?
    /// What goes back to each controller on its own transport: rumble and light, a
    /// calibration's progress, the profile in force (an output: `ControllerFeedbackOutput`).
    package let feedback = ControllerFeedbackOutput()
    /// Controllers at once, of every transport (`--max-controllers`; the datagram sessions'
    /// limit is the same number).
    package var maximumControllers: Int {
        get { engine.maximumControllers }
        set { engine.maximumControllers = newValue }
    }
    /// The host's loop driver (`HostDriver`, set when it is made around this pipeline): told
    /// when controllers of other transports come and go, and how rumble reaches a datagram session.
    weak var driver: (any HostSinkDriver)? { didSet { feedback.datagrams = driver } }
    /// The names controllers paired under (`paired.json`), by the static key a datagram
    /// session authenticated with (the UDP handler's `peerKey`); nil on a plain host.
    package var pairedNames: PairedNames?
    /// Where controllers' calibrations are remembered; nil: nowhere (tests, the demo).
    package var calibrations: CalibrationStore?

    package init(injector: Injector, profile: MappingProfile, logger: Logger,
                 injectorReason: String = "", publisher: SnapshotPublisher? = nil) {
        self.publisher = publisher
        self.injector = injector
        self.injectorReason = injectorReason
        self.engine = HostEngine(core: PipelineCore(profile: profile, keepsTrails: publisher != nil),
                                 maximumControllers: HostStateMachine<SocketAddress>.Configuration().maximumSessions)
        self.logger = logger
        injectorOutput = InjectorOutput(injector: injector, logger: logger)
        text = injectorOutput.typing
        outputs = [injectorOutput]
        if text == nil { engine.typist = .none(injector: injector.backend.name) }
        sortOutputs()
    }

    private func sortOutputs() {
        otherInputOutputs = outputs.filter { $0 !== injectorOutput && $0.accepts.contains(.input) }
        padOutputs = outputs.filter { $0.accepts.contains(.pad) }
    }

    package convenience init(injector: Injector, buttonMap: ButtonMap, settings: MappingSettings, logger: Logger,
                             injectorReason: String = "", publisher: SnapshotPublisher? = nil) {
        self.init(injector: injector, profile: MappingProfile(settings: settings, buttons: buttonMap), logger: logger,
                  injectorReason: injectorReason, publisher: publisher)
    }

    /// Another output beside the injector, added by the composition root (`HostRoot`) before
    /// any source exists. With `pads`, every session opened gets a virtual pad whose states go
    /// to the outputs that accept `.pad` (or the session that asks, without `forEvery`).
    package func addOutput(_ output: any HostOutput, pads: VirtualPadSettings? = nil) {
        outputs.append(output)
        guard let pads else { return }
        engine.offerPads(pads)
    }

    package func handle(_ action: HostAction<SocketAddress>, now: Instant) {
        if case let .motion(id, sample, latency) = action {
            // The per-packet path: the engine's decision as a value, its parts straight to their outputs.
            perform(engine.motion(id, sample, latencyMicros: latency, screen: injector.screen, now: now), session: id, now: now)
            return
        }
        var name: String?
        if case .sessionOpened(let id, .udp) = action { name = driver?.peerKey(of: id).flatMap { pairedNames?.name(for: $0) } }
        let start = pending.count
        engine.handle(action, name: name, screen: injector.screen, now: now, into: &pending)
        route(from: start, now: now)
    }

    /// One sample's decision: observers (the sample on the host's clock), the note, the
    /// pointer to the injector, the pad state to the pads, feedback and calibration notices.
    private func perform(_ m: PipelineCore.MotionOutput, session id: SessionID, now: Instant) {
        if let mapped = m.sample { for o in observers { o.motion(id, mapped, now: now) } }
        if let note = m.note { say(note, session: id) }
        if let event = m.pointer {
            injectorOutput.inject(event, session: id, now: now)
            for o in otherInputOutputs { o.perform(.input(event), session: id, now: now) }
        }
        if let state = m.pad { for o in padOutputs { o.perform(.pad(state), session: id, now: now) } }
        if let change = m.feedback { feedback.send(change, to: id) }
        if let calibration = m.calibration { feedback.notify(id, .calibration(calibration)) }
        if let save = m.calibrationSave { calibrations?.remember(save) }
    }

    /// Performs what the engine appended since `start`, in order: each session output to the
    /// outputs that accept its kind; notes, feedback, text, the laser, the log and the
    /// observers here. Returns what the page must be told about text it typed. (Index-based,
    /// so an output that calls back into the pipeline only ever performs its own.)
    @discardableResult
    func route(from start: Int, now: Instant) -> WebInputReply? {
        var reply: WebInputReply?
        var i = start
        while i < pending.count {
            switch pending[i] {
            case let .opened(id, origin):
                if let key = calibrationKey(id, origin: origin) { identify(id, as: key, now: now) }
                logger.info("controller connected", metadata: ["session": "\(id)", "address": "\(origin.displayText)"])
            case let .closed(id, reason):
                feedback.closed(id)
                logger.info("controller disconnected", metadata: ["session": "\(id)", "reason": "\(reason)"])
            case let .session(id, output):
                if let typed = perform(output, session: id, now: now) { reply = typed }
            case let .sample(id, m):
                perform(m, session: id, now: now)
            case let .observe(id, what):
                for o in observers {
                    switch what {
                    case .opened(let origin): o.sessionOpened(id, origin: origin, now: now)
                    case let .button(button, isDown): o.button(id, button, isDown: isDown, now: now)
                    case .closed: o.sessionClosed(id, now: now)
                    }
                }
            case .restoreBorrowedKeycodes:
                text?.restoreBorrowedKeycodes()
            }
            i += 1
        }
        pending.removeSubrange(start...)
        return reply
    }

    /// One session output: to the outputs of its kind, or performed here.
    private func perform(_ output: PipelineOutput, session id: SessionID, now: Instant) -> WebInputReply? {
        switch output {
        case .note(let note): say(note, session: id)
        case .feedback(let change): feedback.send(change, to: id)
        case .calibration(let report): feedback.notify(id, .calibration(report))     // a page shows it; nothing else can
        case .profile(let inForce): feedback.notify(id, .profile(inForce))     // a page shows it; nothing else can
        case .calibrationSave(let save): calibrations?.remember(save)
        case .text(let text): return type(text, now: now)
        case let .laser(on, from):
            // Without a laser hook (no overlay wired) the phone keeps moving the real pointer.
            // Where no dot can be drawn the page is told so (one line in its presenter mode).
            if let line = laser?.set(id, on: on, from: from.map { ($0.x, $0.y) }) { return .laserMovesPointer(line) }
        default:
            let kind = output.kind
            for o in outputs where o.accepts.contains(kind) { o.perform(output, session: id, now: now) }
        }
        return nil
    }

    private func say(_ note: PipelineNote, session id: SessionID) {
        switch note {
        case .missingAttitude:
            let t = engine.sessions[id]?.telemetry
            let who = t.map { $0.name.isEmpty ? $0.address : $0.name } ?? "\(id)"
            logger.warning("\(who): \(note.text)", metadata: ["session": "\(id)"])
        case .calibration:
            logger.info("\(note.text)", metadata: ["session": "\(id)", "seconds": "\(settings.sensors.calibrationDuration)"])
        }
    }

    /// The name shown for a session (terminal view, dashboard, JSON status): the name a
    /// controller paired under, or what its transport calls it ("DSU slot 0").
    package func setName(_ id: SessionID, _ name: String) { engine.setName(id, name) }

    package func shutdown(now: Instant) {
        closeAllExternal(now: now)
        // Every output by the same rule: the injector releases and closes, the pads rest and go.
        for output in outputs { output.stop() }
        // The sessions' last calibrations were handed over as they closed: on disk before the host goes.
        calibrations?.flush()
        // No more snapshots from this loop for a reader that arrives (and the publisher lets go of the loop).
        publisher?.refreshes(with: nil)
    }

    /// The direction a controller points at becomes the screen centre (its next sample).
    package func recenter(_ id: SessionID) { engine.recenter(id) }

    /// One controller's mapping mode (the others keep theirs, and it keeps this one when
    /// the host's settings change); nil reads it. Returns the mode in effect.
    @discardableResult
    package func setMode(_ id: SessionID, _ mode: MappingSettings.Mode?) -> MappingSettings.Mode? { engine.setMode(id, mode) }

    /// Gives one session its own profile (nil: back to the host's), at once and without
    /// touching the others. Returns false when no such session is open.
    @discardableResult
    package func setProfile(_ id: SessionID, _ own: MappingProfile?) -> Bool { engine.setProfile(id, own) }

    /// The profile a session uses now (its own, or the host's with its mode).
    package func profile(of id: SessionID) -> MappingProfile? { engine.profile(of: id) }

    /// Applies new mapping settings to the host's profile: every session that follows
    /// it now, new sessions later. Sessions with their own profile keep theirs.
    package func update(settings: MappingSettings) { engine.update(settings: settings) }

    /// A new button map for the host's profile, applied at once to the sessions that follow it.
    package func update(buttons: ButtonMap) { engine.update(buttons: buttons) }

    /// Starts a manual gyro calibration of one controller (hold it still for
    /// `calibration.duration` seconds).
    @discardableResult
    package func calibrate(session id: SessionID) -> CalibrationStart {
        guard let started = engine.calibrate(id) else { return .noController }
        say(.calibration(started: started), session: id)
        return started ? .started : .off
    }

    /// The controller itself asks for a manual calibration (its page's Calibrate): a running
    /// one goes on rather than restart (`PipelineCore.requestCalibration`); nil: no such session.
    package func requestCalibration(_ id: SessionID, now: Instant) -> CalibrationReport? {
        if case .calibration(let report)? = perform(.calibrate, for: id, now: now) { return report }
        return nil
    }

    /// The gyro status of one controller (nil before it sent gyro rates).
    package func gyroStatus(of id: SessionID) -> GyroStatus? { engine.gyroStatus(of: id) }

    /// The identity `id`'s calibration is remembered under, if any.
    package func calibrationKey(of id: SessionID) -> String? { engine.calibrationKey(of: id) }

    func startInstant(_ now: Instant) -> Instant {
        if let started { return started }
        started = now
        return now
    }

    func fail(_ error: InjectionError) { injectorOutput.fail(error) }
}
