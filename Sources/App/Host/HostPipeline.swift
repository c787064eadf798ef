import Logging
import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// The host's work after the protocol engine: each session's motion through its own
/// mapper into the injector, button edges through the button map, host commands, and
/// release of everything a session held when it ends. Runs on the host's event loop.
package final class HostPipeline: HostEventSink {
    package let injector: Injector
    package private(set) var buttonMap: ButtonMap
    package private(set) var settings: MappingSettings
    private var mappers: [SessionID: MotionMapper] = [:]
    package private(set) var telemetry: [SessionID: SessionTelemetry] = [:]
    /// Every session that ever connected, with its final numbers (for summaries).
    package private(set) var closed: [(SessionID, SessionTelemetry, SessionCloseReason)] = []
    package private(set) var paused = false
    private var motionHeld = Set<SessionID>()
    private let gateMotion: Bool
    private let logger: Logger
    package private(set) var injectionErrors = 0
    /// Input events handed to the injector successfully (motion, buttons, keys).
    package private(set) var injectedEvents = 0
    /// Why this injector was chosen (shown at start-up).
    package let injectorReason: String
    /// Where status readers (terminal view, dashboard) find the host's state.
    package let publisher: SnapshotPublisher?
    /// Name and listening address shown in snapshots.
    package var identity = (name: "", listen: "")
    private var trails: [SessionID: [[Int]]] = [:]
    /// Pointer positions kept per controller for the dashboard's trail (about 2 s at 120 Hz).
    package static let trailLength = 256
    private var started: Instant?
    /// Names a new session (set by the host: for Noise sessions the paired controller's
    /// name from the key store); other transports call `setName` themselves.
    package var nameForSession: ((SessionID) -> String?)?

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
        case let .motion(id, sample, latency):
            motion(id, sample, latencyMicros: latency, now: now)
        case let .button(id, button, isDown):
            self.button(id, button, isDown: isDown)
        case let .sessionClosed(id, reason):
            if let error = injector.endSession(id) { fail(error) }
            mappers[id] = nil
            trails[id] = nil
            motionHeld.remove(id)
            if let t = telemetry.removeValue(forKey: id) { closed.append((id, t, reason)) }
            logger.info("controller disconnected", metadata: ["session": "\(id)", "reason": "\(reason)"])
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

    /// Applies new mapping settings to every session now and to new ones later.
    package func update(settings: MappingSettings) {
        self.settings = settings
        for id in mappers.keys { mappers[id]?.settings = settings }
    }

    private func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64, now: Instant) {
        guard var mapper = mappers[id] else { return }
        telemetry[id]?.recordMotion(latencyMicros: latencyMicros, now: now)
        telemetry[id]?.attitude = sample.attitude
        guard !paused, !gateMotion || motionHeld.contains(id) else { return }
        let output = mapper.update(sample, screen: injector.screen)
        mappers[id] = mapper
        if let p = output.moveTo {
            telemetry[id]?.pointer = p
            if publisher != nil {
                trails[id, default: []].append([p.x, p.y])
                if trails[id]!.count > Self.trailLength { trails[id]!.removeFirst() }
            }
        }
        let events = output.events
        inject(events, session: id)
    }

    private func inject(_ events: [InputEvent], session id: SessionID) {
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
        case .holdToEnableMotion:
            if down { motionHeld.insert(id) } else { motionHeld.remove(id) }
        default: break
        }
    }

    func trailOf(_ id: SessionID) -> [[Int]] { trails[id] ?? [] }

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
