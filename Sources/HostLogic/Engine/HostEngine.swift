import RemotionProtocol

/// The host's engine, sans-IO: every controller session, whatever its origin — a datagram
/// session of the wire protocol (`.udp`), the page's WebSocket or data channels (`.web`), a
/// DSU server's slot (`.dsu`), a gamepad on this computer (`.localPad`) — in one table, with
/// the pipeline's decisions (`PipelineCore`: mapping, buttons, pads, gyro stick, typing and
/// touchpad budgets, calibration, suspension), the slots and release guarantees of the
/// controllers on other transports (`ExternalControllers`, with their backstop) and every
/// deadline. Events and the time in; `EngineOutput`s and the next deadline out. Nothing here
/// reads a clock, allocates a task or knows a socket (docs/ARCHITECTURE.md, "The engine").
///
/// What comes in:
/// - the wire session machine's actions for datagram sessions (`handle`), its motion on the
///   per-packet path as a value (`motion`);
/// - a transport's controller (`open`) and its `ControllerCommand`s (`perform`);
/// - a game's rumble and light for a session's pad (`padFeedback`);
/// - the desktop session's activity (`setSuspended`), the timer (`tick`), the end (`closeAll`).
///
/// The host's `HostPipeline` (App) is its adapter on the host's loop: it gives the events with
/// the loop's time and performs the outputs (injector, virtual pads, observers, the log).
package struct HostEngine<Address: ControllerAddress>: Sendable {
    /// The decisions: sessions, mapping state, telemetry, totals, pads' states.
    package var core: PipelineCore
    /// The controllers on other transports: slots, held buttons, the backstop.
    package internal(set) var external = ExternalControllers<Address>()
    /// Controllers at once, of every origin (`--max-controllers`).
    package var maximumControllers: Int
    /// Where each open session came from (observers are told again after a suspension).
    package private(set) var origins: [SessionID: ControllerOrigin<Address>] = [:]
    /// `[[profile]]`: the mapping while an application has the focus (`HostEngine+Focus`).
    package internal(set) var profiles = FocusProfiles()
    /// The application with the desktop's focus, as the focus watcher last said (nil: none).
    package internal(set) var focused: FocusedApp?
    /// The core's outputs for the event being handled (reused: no array per event).
    private var scratch: [PipelineOutput] = []

    package init(core: PipelineCore, maximumControllers: Int) {
        self.core = core
        self.maximumControllers = maximumControllers
    }

    /// The controllers on other transports (their slots and ids, for the wire machine).
    package var sessionsElsewhere: Set<SessionID> { external.ids }
    package var suspended: Bool { core.suspended }

    /// An action of the wire session machine (a datagram session), or one the engine made
    /// for a controller on another transport. `name`: what a datagram controller paired as.
    package mutating func handle(_ action: HostAction<Address>, name: String? = nil, screen: ScreenGeometry,
                                 now: Instant, into out: inout [EngineOutput<Address>]) {
        switch action {
        case let .sessionOpened(id, origin):
            core.open(id, address: origin.displayText, name: name, identity: Self.padIdentity(name: name, origin: origin),
                      sampleClock: origin.sampleClock, now: now, into: &scratch)
            origins[id] = origin
            out.append(.opened(id, origin))
            flush(id, into: &out)
            applyFocus(id, origin, now: now, into: &out)
            if !core.suspended { out.append(.observe(id, .opened(origin))) }
        case let .motion(id, sample, latency):
            out.append(.sample(id, motion(id, sample, latencyMicros: latency, screen: screen, now: now)))
        case let .button(id, button, isDown):
            core.button(id, button, isDown: isDown, now: now, into: &scratch)
            flush(id, into: &out)
            if !core.suspended { out.append(.observe(id, .button(button, isDown: isDown))) }
        case let .sessionClosed(id, reason):
            core.close(id, reason: reason, now: now, into: &scratch)
            flush(id, into: &out)
            out.append(.closed(id, reason))
            if origins.removeValue(forKey: id) != nil, !core.suspended { out.append(.observe(id, .closed)) }
        case .send:
            break
        }
    }

    /// The per-packet path: one sample's decision as a value, no buffer. Its `sample` (for
    /// the observers) is nil while the desktop session is suspended.
    package mutating func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64?,
                                 screen: ScreenGeometry, now: Instant) -> PipelineCore.MotionOutput {
        var m = core.motion(id, sample, latencyMicros: latencyMicros, screen: screen, now: now)
        if core.suspended { m.sample = nil }
        return m
    }

    /// A controller on another transport from `origin`, shown as `name`: its session, or nil
    /// when every slot is taken (the datagram sessions' included). Its id is random, never 0,
    /// never one in use.
    package mutating func open(from origin: ControllerOrigin<Address>, name: String, screen: ScreenGeometry, now: Instant,
                               random: inout some RandomNumberGenerator,
                               into out: inout [EngineOutput<Address>]) -> SessionID? {
        let sessions = core.sessions
        guard let (id, actions) = external.open(from: origin, now: now, maximum: maximumControllers,
                                                datagramSessions: sessions.count - external.count,
                                                taken: { sessions[$0] != nil }, random: &random) else { return nil }
        for action in actions { handle(action, screen: screen, now: now, into: &out) }
        core.setName(id, name)
        return id
    }

    /// Opens refused because every slot was taken (controllers on other transports).
    package var refusedFull: Int { external.refusedFull }

    /// A game wrote `change` to the pad of `id` (rumble, light): what goes to its controller.
    package mutating func padFeedback(_ id: SessionID, _ change: FeedbackChange, now: Instant,
                                      into out: inout [EngineOutput<Address>]) {
        core.padFeedback(id, change, now: now, into: &scratch)
        flush(id, into: &out)
    }

    /// The host's desktop session became inactive (a fast user switch) or active again: one
    /// rule for every output — every pad shows rest and reports nothing, the observers see
    /// every session close (and open again on resume). The injector's side is the adapter's.
    package mutating func setSuspended(_ suspended: Bool, into out: inout [EngineOutput<Address>]) {
        let was = core.suspended
        for (id, rest) in core.setSuspended(suspended) { out.append(.session(id, .pad(rest))) }
        guard core.suspended != was else { return }
        for (id, origin) in origins.sorted(by: { $0.key < $1.key }) {
            out.append(.observe(id, suspended ? .closed : .opened(origin)))
        }
    }

    /// The backstop's deadline, typing's (its borrowed keycodes), the pads' feedback and the
    /// pads held back at open.
    package var nextDeadline: Instant? {
        earliest(earliest(external.nextDeadline, core.typingRestoreDeadline), core.padsDeadline)
    }

    /// The timer: controllers on other transports silent past the backstop close (what they
    /// held released), typing's keycodes go back when due, a game's rumble or light held
    /// back by its pacer goes to its controller, and a pad the limit held back at open is
    /// made once its window has passed.
    package mutating func tick(now: Instant, screen: ScreenGeometry, into out: inout [EngineOutput<Address>]) {
        for action in external.expire(now: now) { handle(action, screen: screen, now: now, into: &out) }
        if core.typingRestoreDue(now: now) { out.append(.restoreBorrowedKeycodes) }
        core.dueFeedback(now: now) { id, feedback in out.append(.session(id, .feedback(feedback))) }
        for id in core.duePads(now: now) {
            _ = decide(id, into: &out) { core, scratch in core.setPad(id, on: true, now: now, into: &scratch) }
        }
    }

    /// The host stops: every controller on another transport closes, what it held released.
    package mutating func closeAll(reason: SessionCloseReason, screen: ScreenGeometry, now: Instant,
                                   into out: inout [EngineOutput<Address>]) {
        for action in external.closeAll(reason: reason) { handle(action, screen: screen, now: now, into: &out) }
    }

    /// A controller's stable identity for its pad: the name it paired under (or says it
    /// has), else where it came from, so a reconnect gets the same pad address.
    static func padIdentity(name: String?, origin: ControllerOrigin<Address>) -> String {
        if let name, !name.isEmpty { return "name:\(name)" }
        return origin.stableIdentity
    }

    /// Hands what the core appended for `id` on as the engine's outputs, in order.
    mutating func flush(_ id: SessionID, into out: inout [EngineOutput<Address>]) {
        for o in scratch { out.append(.session(id, o)) }
        scratch.removeAll(keepingCapacity: true)
    }

    /// Runs `body` with the core and the scratch buffer, then flushes it for `id`.
    mutating func decide<T>(_ id: SessionID, into out: inout [EngineOutput<Address>],
                            _ body: (inout PipelineCore, inout [PipelineOutput]) -> T) -> T {
        let result = body(&core, &scratch)
        flush(id, into: &out)
        return result
    }
}
