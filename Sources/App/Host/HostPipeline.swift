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
/// mapper into the injector, button edges through the button map, host commands, and
/// release of everything a session held when it ends. Runs on the host's event loop.
package final class HostPipeline: HostEventSink {
    package let injector: Injector
    package private(set) var buttonMap: ButtonMap
    package private(set) var settings: MappingSettings
    var mappers: [SessionID: MotionMapper] = [:]
    package internal(set) var telemetry: [SessionID: SessionTelemetry] = [:]
    /// Every session that ever connected, with its final numbers (for summaries).
    package private(set) var closed: [(SessionID, SessionTelemetry, SessionCloseReason)] = []
    package private(set) var paused = false
    private var motionHeld = Set<SessionID>()
    private let gateMotion: Bool
    let logger: Logger
    package private(set) var injectionErrors = 0
    /// Input events handed to the injector successfully (motion, buttons, keys).
    package private(set) var injectedEvents = 0
    /// Why this injector was chosen (shown at start-up).
    package let injectorReason: String
    /// Where status readers (terminal view, dashboard) find the host's state.
    package let publisher: SnapshotPublisher?
    /// Name and listening address shown in snapshots.
    package var identity = (name: "", listen: "")
    private var trails: [SessionID: PointerTrail] = [:]
    /// Builds status snapshots off this loop (HostPipeline+Snapshot).
    lazy var snapshotBuilder = publisher.map(SnapshotBuilder.init(publisher:))
    /// Pointer positions kept per controller for the dashboard's trail (about 2 s at 120 Hz).
    package static let trailLength = 256
    private var started: Instant?
    /// Told about every controller's session, motion and buttons (the DSU server).
    package var observers: [any HostPipelineObserver] = []
    /// Adapters beside the host's socket whose drops show with the host's (DSU).
    package var dropReporters: [any HostDropReporter] = []
    /// Sessions already told that pointer mode needs an attitude they do not send.
    var attitudeNoted = Set<SessionID>()
    /// Names a new session (set by the host: for Noise sessions the paired controller's
    /// name from the key store); other transports call `setName` themselves.
    package var nameForSession: ((SessionID) -> String?)?
    /// The phone page's touchpad, typing and laser (HostPipeline+WebInput).
    package var web = WebInputSide()

    package init(injector: Injector, buttonMap: ButtonMap, settings: MappingSettings, logger: Logger,
                injectorReason: String = "", publisher: SnapshotPublisher? = nil) {
        self.publisher = publisher
        self.injector = injector
        self.injectorReason = injectorReason
        self.buttonMap = buttonMap
        self.settings = settings
        self.logger = logger
        gateMotion = buttonMap.actions.values.contains(.host(.holdToEnableMotion))
    }

    package func handle(_ action: HostAction<SocketAddress>, now: Instant) {
        switch action {
        case let .sessionOpened(id, address):
            mappers[id] = MotionMapper(settings: settings)
            telemetry[id] = SessionTelemetry(address: address.displayText, opened: now)
            if let name = nameForSession?(id) { setName(id, name) }
            logger.info("controller connected", metadata: ["session": "\(id)", "address": "\(address.displayText)"])
            for o in observers { o.sessionOpened(id, address: address, now: now) }
        case let .motion(id, sample, latency):
            for o in observers { o.motion(id, sample, now: now) }
            motion(id, sample, latencyMicros: latency, now: now)
        case let .button(id, button, isDown):
            self.button(id, button, isDown: isDown)
            for o in observers { o.button(id, button, isDown: isDown, now: now) }
        case let .sessionClosed(id, reason):
            if let error = injector.endSession(id) { fail(error) }
            mappers[id] = nil
            trails[id] = nil
            motionHeld.remove(id)
            attitudeNoted.remove(id)
            endWebInput(id)
            if let t = telemetry.removeValue(forKey: id) { closed.append((id, t, reason)) }
            logger.info("controller disconnected", metadata: ["session": "\(id)", "reason": "\(reason)"])
            for o in observers { o.sessionClosed(id, now: now) }
        case .send:
            break
        }
    }

    /// The name shown for a session (terminal view, dashboard, JSON status).
    package func setName(_ id: SessionID, _ name: String) {
        telemetry[id]?.name = name
    }

    package func shutdown() {
        if let error = injector.releaseEverything() { fail(error) }
        injector.close()
    }

    /// The direction a controller points at becomes the screen centre (its next sample).
    package func recenter(_ id: SessionID) { mappers[id]?.recenter() }

    /// One controller's mapping mode (the others keep theirs); returns the mode in effect.
    @discardableResult
    package func setMode(_ id: SessionID, _ mode: MappingSettings.Mode?) -> MappingSettings.Mode? {
        if let mode { mappers[id]?.settings.mode = mode }
        return mappers[id]?.settings.mode
    }

    /// Applies new mapping settings to every session now and to new ones later.
    package func update(settings: MappingSettings) {
        self.settings = settings
        for id in mappers.keys { mappers[id]?.settings = settings }
    }

    private func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64, now: Instant) {
        // Mapper and telemetry are updated in place through their indices (a keyed
        // optional-chained update moves the whole value out of the table and back).
        guard let t = telemetry.index(forKey: id), let m = mappers.index(forKey: id) else { return }
        telemetry.values[t].recordMotion(latencyMicros: latencyMicros, now: now)
        if !web.sessions.isEmpty, laserMotion(id, sample) { return }
        guard !paused, !gateMotion || motionHeld.contains(id) else {
            // No output, but the gyro pipeline (calibration, fusion, clutch) keeps up.
            mappers.values[m].observe(sample)
            telemetry.values[t].attitude = mappers.values[m].attitude
            return
        }
        let output = mappers.values[m].update(sample, screen: injector.screen)
        telemetry.values[t].attitude = mappers.values[m].attitude
        // Pointer and seed modes need an attitude: sent by the controller, or fused from its
        // gyro and accelerometer (HostLogic/Motion/Raw). Say so once if neither is there.
        let mode = mappers.values[m].settings.mode
        if mode != .fps, mappers.values[m].attitude == nil { noteMissingAttitude(id, mode: mode) }
        if let p = output.moveTo {
            telemetry.values[t].pointer = p
            if publisher != nil { trails[id, default: PointerTrail(capacity: Self.trailLength)].append(x: p.x, y: p.y) }
            inject(.moveTo(x: p.x, y: p.y), session: id)
        } else if output.moveBy != (0, 0) {
            inject(.moveBy(dx: output.moveBy.dx, dy: output.moveBy.dy), session: id)
        }
    }

    /// One event (a motion frame): no array per packet.
    func inject(_ event: InputEvent, session id: SessionID) {
        do {
            try injector.apply(event, session: id)
            injectedEvents += 1
        } catch {
            fail(error)
        }
    }

    func inject(_ events: [InputEvent], session id: SessionID) {
        guard !events.isEmpty else { return }
        do {
            try injector.apply(events, session: id)
            injectedEvents += events.count
        } catch {
            fail(error)
        }
    }

    private func button(_ id: SessionID, _ button: Button, isDown: Bool) {
        telemetry[id]?.buttonEdges += 1
        telemetry[id]?.buttons.set(button, down: isDown)
        let (events, command) = buttonMap.events(for: button, down: isDown)
        if let command { perform(command, session: id, down: isDown) }
        inject(events, session: id)
    }

    private func perform(_ command: RemotionHostLogic.HostCommand, session id: SessionID, down: Bool) {
        switch command {
        case .recenter where down: mappers[id]?.recenter()
        case .toggleMode where down: mappers[id]?.toggleMode()
        case .pause where down: paused.toggle()
        case .calibrate where down: calibrate(session: id)
        case .holdToEnableMotion:
            if down { motionHeld.insert(id) } else { motionHeld.remove(id) }
        default: break
        }
    }

    /// Starts a manual gyro calibration of one controller (hold it still for
    /// `calibration.duration` seconds).
    @discardableResult
    package func calibrate(session id: SessionID) -> CalibrationStart {
        guard let started = mappers[id]?.calibrate() else { return .noController }
        logger.info(started ? "gyro calibration started; hold the controller still" : "gyro calibration is off",
                    metadata: ["session": "\(id)", "seconds": "\(settings.sensors.calibrationDuration)"])
        return started ? .started : .off
    }

    /// The gyro status of one controller (nil before it sent gyro rates).
    package func gyroStatus(of id: SessionID) -> GyroStatus? { mappers[id]?.gyroStatus }

    func trailOf(_ id: SessionID) -> [[Int]] { trails[id]?.points ?? [] }
    var trailsBySession: [SessionID: PointerTrail] { trails }

    func startInstant(_ now: Instant) -> Instant {
        if let started { return started }
        started = now
        return now
    }

    private func fail(_ error: InjectionError) {
        injectionErrors += 1
        logger.error("injection failed; released every held input", metadata: ["error": "\(error)"])
    }
}
