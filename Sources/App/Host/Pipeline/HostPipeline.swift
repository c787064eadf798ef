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
package final class HostPipeline: HostEventSink {
    package let injector: Injector
    /// The decisions: sessions, mapping state, telemetry, totals, pads' states.
    package internal(set) var core: PipelineCore
    /// The host's profile: what sessions without their own use (config file, dashboard).
    package var profile: MappingProfile { core.profile }
    package var settings: MappingSettings { core.profile.settings }
    package var buttonMap: ButtonMap { core.profile.buttons }
    /// One record per open session (the core's).
    package var sessions: [SessionID: PipelineSession] { core.sessions }
    /// What the ended sessions leave behind: totals, not a list.
    package var closedTotals: ClosedSessionTotals { core.closedTotals }
    package var paused: Bool { core.paused }
    let logger: Logger
    /// Whether phones may type at all (`remotion host --no-typing` sets false; the core decides).
    package var typingAllowed: Bool { get { core.typingAllowed } set { core.typingAllowed = newValue } }
    /// Text and key messages refused: typing off for the host or the phone, or too fast.
    package var typingRefusals: Int { core.typingRefusals }
    /// The injector as an output (always the first of `outputs`).
    let injectorOutput: InjectorOutput
    /// Every output, the injector first; `addOutput` adds more (the virtual pads).
    package private(set) var outputs: [any HostOutput] { didSet { sortOutputs() } }
    /// The outputs other than the injector that accept input, and those that accept pad
    /// states (worked out when an output is added, not per sample). The injector, always
    /// there, is called directly on the per-packet path: no existential call, no enum.
    private var otherInputOutputs: [any HostOutput] = []
    var padOutputs: [any HostOutput] = []
    /// What the core decided for the action being handled (reused: no array per packet).
    var pending: [PipelineOutput] = []
    package var injectionErrors: Int { injectorOutput.errors }
    /// Input events handed to the injector successfully (motion, buttons, keys).
    package var injectedEvents: Int { injectorOutput.injected }
    /// Why this injector was chosen (shown at start-up).
    package let injectorReason: String
    /// Where status readers (terminal view, dashboard) find the host's state.
    package let publisher: SnapshotPublisher?
    /// Name and listening address shown in snapshots.
    package var identity = (name: "", listen: "")
    /// Builds status snapshots off this loop (HostPipeline+Snapshot).
    lazy var snapshotBuilder = publisher.map(SnapshotBuilder.init(publisher:))
    private var started: Instant?
    /// Told about every controller's session, motion and buttons (the DSU server, the laser),
    /// while the desktop session is active: a suspended host tells them every session
    /// closed, then nothing, and opens them again when it is active (HostPipeline+WebInput).
    package var observers: [any HostPipelineObserver] = []
    /// Where each open session came from, for the observers told again after a suspension.
    var origins: [SessionID: HostControllerOrigin] = [:]
    /// Told about every event the mapping produced, before the injector (an overlay, a recorder).
    package var outputHooks: [any HostOutputHook] {
        get { injectorOutput.hooks }
        set { injectorOutput.hooks = newValue }
    }
    /// Adapters beside the host's socket whose drops show with the host's (DSU).
    package var dropReporters: [any HostDropReporter] = []
    /// What `--local-pads` reads and skips now (nil: not asked for), for the status.
    package var localPads: LocalPadInventory?
    /// Where each external session's notices go — rumble and light, a calibration's progress
    /// — (the page's socket or data channel), set when its transport opens it; removed when it closes.
    package var noticeSinks: [SessionID: @Sendable (ControllerNotice) -> Void] = [:]
    /// The controllers of other transports (web, DSU, local pads): ids, slots, held buttons,
    /// the backstop (HostPipeline+Controllers).
    var external = ExternalControllers<SocketAddress>()
    /// Controllers at once, of every transport (`--max-controllers`; the datagram sessions'
    /// limit is the same number).
    package var maximumControllers = HostStateMachine<SocketAddress>.Configuration().maximumSessions
    /// The UDP handler that drives this pipeline (set when it is in the channel): told when
    /// controllers of other transports come and go, and how rumble reaches a datagram session.
    weak var driver: (any HostSinkDriver)?
    /// Feedback messages handed to a controller's transport, and those with nowhere to go (DSU, local pads).
    package internal(set) var feedbackSent = 0
    package internal(set) var feedbackUnsendable = 0
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
        self.core = PipelineCore(profile: profile, keepsTrails: publisher != nil)
        self.logger = logger
        injectorOutput = InjectorOutput(injector: injector, logger: logger)
        outputs = [injectorOutput]
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

    /// Another output beside the injector. With `pads`, every session opened from now on
    /// also gets a virtual pad whose states go to the outputs that accept `.pad`; when every
    /// controller gets one, so does each controller already connected (start-up order: a
    /// source may have delivered a controller before the pads existed).
    package func addOutput(_ output: any HostOutput, pads: VirtualPadSettings? = nil, now: Instant) {
        outputs.append(output)
        guard let pads else { return }
        core.pads = pads
        guard pads.forEvery else { return }
        for id in core.sessions.keys.sorted() { setPad(id, on: true, now: now) }
    }

    package func handle(_ action: HostAction<SocketAddress>, now: Instant) {
        let start = pending.count
        switch action {
        case let .sessionOpened(id, origin):
            var name: String?
            if case .udp = origin { name = driver?.peerKey(of: id).flatMap { pairedNames?.name(for: $0) } }
            // A gamepad on this computer times its samples on the host's clock (the kernel's).
            var clock = SampleTimeline.Clock.own
            if case .localPad = origin { clock = .host }
            core.open(id, address: origin.displayText, name: name, identity: Self.padIdentity(name: name, origin: origin),
                      sampleClock: clock, now: now, into: &pending)
            route(from: start, session: id, now: now)
            if let key = calibrationKey(id, origin: origin) { identify(id, as: key, now: now) }
            logger.info("controller connected", metadata: ["session": "\(id)", "address": "\(origin.displayText)"])
            origins[id] = origin
            if !core.suspended { for o in observers { o.sessionOpened(id, origin: origin, now: now) } }
        case let .motion(id, sample, latency):
            // The per-packet path: the core's decision as a value, its parts straight to their outputs.
            let m = core.motion(id, sample, latencyMicros: latency, screen: injector.screen, now: now)
            // Observers serve the sample on with its time on the host's clock (SampleTimeline).
            if let mapped = m.sample, !core.suspended { for o in observers { o.motion(id, mapped, now: now) } }
            if let note = m.note { say(note, session: id) }
            if let event = m.pointer {
                injectorOutput.inject(event, session: id, now: now)
                for o in otherInputOutputs { o.perform(.input(event), session: id, now: now) }
            }
            if let state = m.pad { for o in padOutputs { o.perform(.pad(state), session: id, now: now) } }
            if let feedback = m.feedback { send(feedback, to: id) }
            if let calibration = m.calibration { noticeSinks[id]?(.calibration(calibration)) }
            if let save = m.calibrationSave { calibrations?.remember(save) }
        case let .button(id, button, isDown):
            core.button(id, button, isDown: isDown, now: now, into: &pending)
            route(from: start, session: id, now: now)
            if !core.suspended { for o in observers { o.button(id, button, isDown: isDown, now: now) } }
        case let .sessionClosed(id, reason):
            core.close(id, reason: reason, now: now, into: &pending)
            route(from: start, session: id, now: now)
            noticeSinks.removeValue(forKey: id)
            logger.info("controller disconnected", metadata: ["session": "\(id)", "reason": "\(reason)"])
            if origins.removeValue(forKey: id) != nil, !core.suspended { for o in observers { o.sessionClosed(id, now: now) } }
        case .send:
            break
        }
    }

    /// A controller's stable identity for its pad: the name it paired under (or says it
    /// has), else where it came from (a UDP address without the port, a web device, a DSU
    /// slot, a local pad), so a reconnect gets the same pad address.
    static func padIdentity(name: String?, origin: HostControllerOrigin) -> String {
        if let name, !name.isEmpty { return "name:\(name)" }
        return origin.stableIdentity
    }

    /// Performs what the core appended since `start`, in order: each output to the outputs
    /// that accept its kind; notes, feedback, text and the laser here. Returns what the page
    /// must be told about text it typed. (Index-based, so an output that calls back into the
    /// pipeline only ever performs its own.)
    @discardableResult
    func route(from start: Int, session id: SessionID, now: Instant) -> WebInputReply? {
        var reply: WebInputReply?
        var i = start
        while i < pending.count {
            let output = pending[i]
            if case let .note(note) = output {
                say(note, session: id)
            } else if case let .feedback(feedback) = output {
                send(feedback, to: id)
            } else if case let .calibration(report) = output {
                noticeSinks[id]?(.calibration(report))     // a page shows it; nothing else can
            } else if case let .calibrationSave(save) = output {
                calibrations?.remember(save)
            } else if case let .text(text) = output {
                reply = type(text, now: now)
            } else if case let .laser(on, from) = output {
                // Without a laser hook (no overlay wired) the phone keeps moving the real pointer.
                laserHook?.set(id, on: on, from: from.map { ($0.x, $0.y) })
            } else {
                let kind = output.kind
                for o in outputs where o.accepts.contains(kind) { o.perform(output, session: id, now: now) }
            }
            i += 1
        }
        pending.removeSubrange(start...)
        return reply
    }

    private func say(_ note: PipelineNote, session id: SessionID) {
        switch note {
        case .missingAttitude:
            let t = core.sessions[id]?.telemetry
            let who = t.map { $0.name.isEmpty ? $0.address : $0.name } ?? "\(id)"
            logger.warning("\(who): \(note.text)", metadata: ["session": "\(id)"])
        case .calibration:
            logger.info("\(note.text)", metadata: ["session": "\(id)", "seconds": "\(settings.sensors.calibrationDuration)"])
        }
    }

    /// The name shown for a session (terminal view, dashboard, JSON status): the name a
    /// controller paired under, or what its transport calls it ("DSU slot 0").
    package func setName(_ id: SessionID, _ name: String) { core.setName(id, name) }

    package func shutdown(now: Instant) {
        closeAllExternal(now: now)
        // Every output by the same rule: the injector releases and closes, the pads rest and go.
        for output in outputs { output.stop() }
        // The sessions' last calibrations were handed over as they closed: on disk before the host goes.
        calibrations?.flush()
    }

    /// The direction a controller points at becomes the screen centre (its next sample).
    package func recenter(_ id: SessionID) { core.recenter(id) }

    /// One controller's mapping mode (the others keep theirs, and it keeps this one when
    /// the host's settings change); nil reads it. Returns the mode in effect.
    @discardableResult
    package func setMode(_ id: SessionID, _ mode: MappingSettings.Mode?) -> MappingSettings.Mode? { core.setMode(id, mode) }

    /// Gives one session its own profile (nil: back to the host's), at once and without
    /// touching the others. Returns false when no such session is open.
    @discardableResult
    package func setProfile(_ id: SessionID, _ own: MappingProfile?) -> Bool { core.setProfile(id, own) }

    /// The profile a session uses now (its own, or the host's with its mode).
    package func profile(of id: SessionID) -> MappingProfile? { core.profile(of: id) }

    /// Applies new mapping settings to the host's profile: every session that follows
    /// it now, new sessions later. Sessions with their own profile keep theirs.
    package func update(settings: MappingSettings) { core.update(settings: settings) }

    /// A new button map for the host's profile, applied at once to the sessions that follow it.
    package func update(buttons: ButtonMap) { core.update(buttons: buttons) }

    /// Starts a manual gyro calibration of one controller (hold it still for
    /// `calibration.duration` seconds).
    @discardableResult
    package func calibrate(session id: SessionID) -> CalibrationStart {
        guard let started = core.calibrate(id) else { return .noController }
        say(.calibration(started: started), session: id)
        return started ? .started : .off
    }

    /// The controller itself asks for a manual calibration (its page's Calibrate): a running
    /// one goes on rather than restart (`PipelineCore.requestCalibration`); nil: no such session.
    package func requestCalibration(_ id: SessionID, now: Instant) -> CalibrationReport? {
        let report = core.requestCalibration(id, now: now)
        if report == .running(progress: 0) { say(.calibration(started: true), session: id) }
        return report
    }

    /// The gyro status of one controller (nil before it sent gyro rates).
    package func gyroStatus(of id: SessionID) -> GyroStatus? { core.sessions[id]?.mapper.gyroStatus }

    func startInstant(_ now: Instant) -> Instant {
        if let started { return started }
        started = now
        return now
    }

    func fail(_ error: InjectionError) { injectorOutput.fail(error) }
}
