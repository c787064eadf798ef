import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Drives a `HostEngine` the way the host's loop does, on virtual time (quinn-proto's test
/// `Pair`): a real wire session machine (`HostStateMachine`) in front of it for datagram
/// controllers, the engine's own table for the others; the loop's timer fires at every
/// deadline either asks for; everything the engine decides is recorded, in order.
struct EngineHarness {
    /// An address as a test writes it.
    struct Address: ControllerAddress {
        var host: String
        var port: Int
        var displayText: String { "\(host):\(port)" }
        var hostText: String { host }
    }

    static let screen = ScreenGeometry(width: 1920, height: 1080)
    var engine: HostEngine<Address>
    var wire: HostStateMachine<Address>
    var now = Instant.zero
    /// Everything the engine decided, in order (`clear` empties it).
    var log: [EngineOutput<Address>] = []
    private var rng = SplitMix64(seed: 42)
    private var sequences: [SessionID: UInt32] = [:]

    init(pads: VirtualPadSettings? = VirtualPadSettings(), maximum: Int = 16) {
        engine = HostEngine(core: PipelineCore(profile: MappingProfile(), pads: pads), maximumControllers: maximum)
        var configuration = HostStateMachine<Address>.Configuration()
        configuration.maximumSessions = maximum
        wire = HostStateMachine(configuration: configuration)
    }

    // MARK: Datagram controllers, through the wire machine

    mutating func datagram(_ id: SessionID, from address: Address, _ message: Message) {
        wire.sessionsElsewhere = engine.sessionsElsewhere
        for action in wire.receive(message, session: id, from: address, now: now) {
            engine.handle(action, screen: Self.screen, now: now, into: &log)
        }
    }

    /// A datagram controller's first ping opens its session.
    mutating func connect(_ id: SessionID, from address: Address) {
        datagram(id, from: address, .ping(clientTimeMicros: 1, clockOffsetMicros: 0))
    }

    mutating func motion(_ id: SessionID, from address: Address, _ sample: MotionSample) {
        sequences[id, default: 0] += 1
        datagram(id, from: address, .motion(MotionPacket(sequence: sequences[id]!, buttonSequence: 0, sample: sample)))
    }

    // MARK: Controllers on other transports

    mutating func open(_ origin: ControllerOrigin<Address>, name: String = "") -> SessionID? {
        engine.open(from: origin, name: name, screen: Self.screen, now: now, random: &rng, into: &log)
    }

    @discardableResult
    mutating func send(_ command: ControllerCommand, to id: SessionID) -> ControllerAnswer? {
        engine.perform(command, for: id, screen: Self.screen, now: now, into: &log)
    }

    /// One controller of each origin, in this order: a datagram session (`udp` from
    /// `address`), the page, a DSU slot of `server`, a local pad.
    mutating func openOneOfEach(udp: SessionID, from address: Address, dsu server: Address) throws -> [SessionID] {
        connect(udp, from: address)
        let web = open(.web(device: "phone-2", peer: nil))
        let dsu = open(.dsu(server: server, slot: 1))
        let pad = open(.localPad("event7"))
        return [udp, try #require(web), try #require(dsu), try #require(pad)]
    }

    // MARK: Time

    /// Virtual time passes; the loop's timer fires at every deadline on the way. With
    /// `stalled`, the host did not run in between (its loop blocked): only the end fires.
    mutating func advance(by duration: Duration, stalled: Bool = false) {
        let end = now + duration
        var fired = 0
        while !stalled, fired < 100_000, let next = earliest(engine.nextDeadline, wire.nextDeadline), next <= end {
            now = max(now, next)
            fire()
            fired += 1
        }
        now = end
        fire()
    }

    /// The loop's timer: the wire machine's timeouts, then the engine's deadlines.
    mutating func fire() {
        for action in wire.tick(now: now) { engine.handle(action, screen: Self.screen, now: now, into: &log) }
        engine.tick(now: now, screen: Self.screen, into: &log)
    }

    mutating func setSuspended(_ suspended: Bool) { engine.setSuspended(suspended, into: &log) }

    mutating func clear() { log.removeAll() }

    // MARK: What was decided

    /// The pad states decided for `id`, in order (its samples' and its edges').
    func padStates(_ id: SessionID) -> [GamepadState] {
        log.compactMap {
            switch $0 {
            case let .session(s, .pad(state)) where s == id: state
            case let .sample(s, m) where s == id: m.pad
            default: nil
            }
        }
    }

    /// What the observers were told of `id`.
    func observed(_ id: SessionID) -> [EngineOutput<Address>.Observation] {
        log.compactMap { if case let .observe(s, what) = $0, s == id { what } else { nil } }
    }

    /// The sessions that opened and closed, in order.
    var opened: [SessionID] { log.compactMap { if case let .opened(id, _) = $0 { id } else { nil } } }
    var closed: [(SessionID, SessionCloseReason)] { log.compactMap { if case let .closed(id, r) = $0 { (id, r) } else { nil } } }

    /// The outputs of one session, in order.
    func outputs(_ id: SessionID) -> [PipelineOutput] {
        log.compactMap { if case let .session(s, o) = $0, s == id { o } else { nil } }
    }
}
