import RemotionProtocol
import RemotionHostLogic

/// The host's engine and every transport's session machine on virtual time, with scripted
/// peers of every origin (after quinn-proto's test `Pair`): nothing sleeps, no task, no event
/// loop. The pair holds `now`; `advance` moves it to each deadline any machine asks for and
/// runs that machine's timer there, as the host's one timer would.
///
/// - UDP controllers (`EnginePair+UDP`): real Noise IK handshakes and sealed datagrams
///   (`SecureClient` → `SecureHost`), the wire machine (`HostStateMachine`), then the engine;
///   what the host sends back is sealed and opened again by the peer's own keys.
/// - Pages (`EnginePair+Page`): the page's frames and texts through `WebSession`, its
///   `ControllerCommand`s into the engine, the answers back to the page.
/// - DSU servers (`EnginePair+DSU`): pad-data packets through `DSUSourceStateMachine`, each
///   slot a controller.
/// - Local pads (`EnginePair+LocalPad`): evdev events through `LocalPad`.
///
/// Every `EngineOutput` is performed as the host's adapter does (`EnginePair+Outputs`):
/// input through a real `Injector` (its held-input tracker) to a recording backend, pad
/// states to a recording pad output, samples to a DSU server with a subscriber, feedback to
/// each controller's own transport. `log` has all of it in order with its time; `problems`
/// says where an output saw something it must never see.
package final class EnginePair {
    package typealias Address = PeerAddress
    package static let screen = ScreenGeometry(width: 1920, height: 1080)
    /// The wall clock at `Instant.zero` (the Noise timestamps, the page's epoch clock).
    static let epochSeconds: Int64 = 1_790_000_000

    package private(set) var now: Instant
    package var engine: HostEngine<Address>
    package internal(set) var wire: HostStateMachine<Address>
    var secure: SecureHost<Address>
    package let hostKey: KeyPair
    var random: SplitMix64
    var lastSecureTick: Instant
    package let maximum: Int

    package let backend: RecordingBackend
    package let injector: Injector
    /// The pads the pad output holds open, with their last state.
    package internal(set) var openPads: [SessionID: GamepadState] = [:]
    var dsuServer = DSUServerStateMachine<Address, SessionID>(configuration: .init(serverID: 1))
    static let dsuClient = PeerAddress(127, 0, 0, 1, port: 26_761)

    package internal(set) var udpPeers: [UDPPeer] = []
    package internal(set) var pages: [PagePeer] = []
    package internal(set) var dsuSources: [DSUSourcePeer] = []
    package internal(set) var localPads: [LocalPadPeer] = []

    /// Everything in order with its time (kept while `keepsLog`: the fuzzer counts only).
    package internal(set) var log: [PairEvent] = []
    package var keepsLog = true
    /// What reached the outputs, counted whether or not the log is kept.
    package internal(set) var counts = Counts()
    /// Invariants an output saw broken (a pad state for a closed pad, a held input after
    /// its session closed, a value out of its physical range, a sealed datagram its peer
    /// could not open).
    package internal(set) var problems: [String] = []

    var pending: [EngineOutput<Address>] = []

    package struct Counts: Sendable, Equatable {
        package var injected = 0, presses = 0, padStates = 0, padsClosed = 0, dsuPackets = 0
        package var toUDP = 0, toPage = 0, toDSUServer = 0, toLocalPad = 0, opened = 0, closed = 0
        package init() {}
    }

    /// A host with pads for every controller (`pads`) and `maximum` slots for every origin;
    /// with `prepared`, its Noise layer and UDP peers as they were left (`PreparedPeers`).
    package init(maximum: Int = 8, pads: VirtualPadSettings? = VirtualPadSettings(forEvery: true),
                 seed: UInt64 = 0x5041_4952, start: Instant = Instant(nanoseconds: 1_000_000_000),
                 prepared: PreparedPeers? = nil) {
        now = prepared?.start ?? start
        self.maximum = maximum
        random = SplitMix64(seed: seed)
        if let prepared {
            hostKey = prepared.hostKey
            secure = prepared.secure
            udpPeers = prepared.peers
            random = prepared.random
        } else {
            hostKey = random.keyPair()
            secure = SecureHost(staticKey: hostKey, trusted: [], now: start, random: &random)
        }
        let start = now
        lastSecureTick = start
        var configuration = HostStateMachine<Address>.Configuration()
        configuration.maximumSessions = maximum
        // As the host's UDP handler: it looks in at least every second, so a longer gap is its own stall.
        configuration.stallAllowance = .seconds(1)
        wire = HostStateMachine(configuration: configuration)
        engine = HostEngine(core: PipelineCore(profile: MappingProfile(), keepsTrails: true, pads: pads),
                            maximumControllers: maximum)
        backend = RecordingBackend(screen: Self.screen)
        injector = Injector(backend: backend)
        let request = DSUCodec.encode(DSUPacket(senderID: 9, message: .padDataRequest(DSUPadRequest(flags: 0))))
        _ = dsuServer.receive(request, from: Self.dsuClient, now: start)
    }

    // MARK: Time

    /// The earliest deadline of any machine: the wire machine's, the engine's, each DSU
    /// source's and each page session's.
    package var nextDeadline: Instant? {
        var d = earliest(wire.nextDeadline, engine.nextDeadline)
        for s in dsuSources { d = earliest(d, s.source.nextDeadline) }
        for p in pages { d = earliest(d, p.session.nextDeadline) }
        return d
    }

    /// Virtual time passes by `duration`: every timer due on the way fires at its deadline,
    /// in order. With `stalled` the host did not run meanwhile (its loop blocked): only the
    /// end fires. At most `maximumFires` timers (a machine that re-arms at or before now
    /// would spin the host's loop: `spun` says so).
    @discardableResult
    package func advance(by duration: Duration, stalled: Bool = false, maximumFires: Int = 100_000) -> (fires: Int, spun: Bool) {
        let end = now + duration
        var fires = 0
        while !stalled, let next = nextDeadline, next <= end {
            if fires >= maximumFires { return (fires, true) }
            now = max(now, next)
            fire()
            fires += 1
        }
        now = max(now, end)
        fire()
        return (fires + 1, false)
    }

    /// The host's timer at `now`: the wire machine's timeouts, the Noise layer's upkeep, the
    /// engine's deadlines, the DSU sources' renewals and silences, the pages' held bursts
    /// and lingers.
    package func fire() {
        perform(wire.tick(now: now))
        if now - lastSecureTick >= .seconds(1) {
            lastSecureTick = now
            secure.tick(now: now, random: &random)
        }
        engine.tick(now: now, screen: Self.screen, into: &pending)
        route()
        for k in dsuSources.indices where dsuSources[k].source.nextDeadline.map({ $0 <= now }) ?? false {
            let out = dsuSources[k].source.tick(now: now)
            dsuDeliver(k, out)
        }
        for k in pages.indices where pages[k].session.nextDeadline.map({ $0 <= now }) ?? false {
            let time = pageTime
            pagePerform(k, pages[k].session.expire(at: time))
        }
    }

    /// The host stops: every UDP controller is told and closed, every other controller closed.
    package func shutdown() {
        perform(wire.shutdown())
        engine.closeAll(reason: .hostShutdown, screen: Self.screen, now: now, into: &pending)
        route()
    }

    /// The desktop session goes inactive (a fast user switch) or active again: the engine's
    /// one rule for the pads and observers; the injector releases everything and drops input
    /// meanwhile, as the host's adapter does.
    package func setSuspended(_ suspended: Bool) {
        if suspended {
            injector.suspend()
            takePosted()
        } else {
            injector.resume()
        }
        engine.setSuspended(suspended, into: &pending)
        route()
    }

    /// A game writes `change` (rumble, light) to the pad of `id`.
    package func padFeedback(_ id: SessionID, _ change: FeedbackChange) {
        engine.padFeedback(id, change, now: now, into: &pending)
        route()
    }

    // MARK: What happened

    /// Appends `what` at now to the log.
    func record(_ what: PairRecord) {
        if keepsLog { log.append(PairEvent(at: now, what: what)) }
    }

    func problem(_ text: String) {
        if problems.count < 16 { problems.append(text) }
    }

    /// Open sessions of every origin, as the engine's table has them.
    package var sessionCount: Int { engine.sessions.count }

    /// Datagrams the host's Noise layer dropped (malformed, forged, replayed, unknown).
    package var noiseDrops: Int { secure.drops.total }

    /// What the injector holds down, over every session.
    package var heldInputs: Set<HeldInput> { injector.heldTracker.down }

    package func clearLog() { log.removeAll() }

    /// The records of the log without their times.
    package var records: [PairRecord] { log.map(\.what) }
}
