import NIOCore
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import Crypto
#if canImport(Glibc)
import Glibc
#endif

/// The host's pure core for one controller, in process: framing (plain or Noise IK) →
/// `HostStateMachine` → the session's `MotionMapper` → `Injector` with a backend that
/// does nothing. No socket, no event loop, no clock reads: what the host does per
/// motion packet apart from receiving it (docs/BENCHMARKS.md, "in-process core").
final class CoreHarness<Framing: HostFraming> {
    private var framing: Framing
    private var machine = HostStateMachine<SocketAddress>()
    private var mapper = MotionMapper()
    private let injector = Injector(backend: NullBackend())
    private let screen = ScreenGeometry(width: 1920, height: 1080)
    private let source: SocketAddress
    private var actions: [HostAction<SocketAddress>] = []
    private(set) var injected = 0
    private(set) var now = Instant(nanoseconds: 1_000_000_000)

    init(framing: Framing, source: SocketAddress) {
        self.framing = framing
        self.source = source
    }

    /// One datagram as the host's channel handler sees it; returns what should go back.
    @discardableResult
    func receive(_ datagram: [UInt8]) -> [UInt8]? {
        now = now + .microseconds(500)
        let frame = datagram.withUnsafeBytes { framing.inbound($0, from: source, now: now) }
        switch frame {
        case let .message(message, session):
            var reply: [UInt8]?
            // As the host does: one action buffer for every datagram, one event per motion frame.
            machine.receive(message, session: session, from: source, now: now, into: &actions)
            defer { actions.removeAll(keepingCapacity: true) }
            for action in actions {
                switch action {
                case let .motion(_, sample, _):
                    let output = mapper.update(sample, screen: screen)
                    let event: InputEvent? = output.moveTo.map { .moveTo(x: $0.x, y: $0.y) }
                        ?? (output.moveBy != (0, 0) ? .moveBy(dx: output.moveBy.dx, dy: output.moveBy.dy) : nil)
                    if let event, (try? injector.apply(event, session: session)) != nil { injected += 1 }
                case let .send(m, s, to):
                    reply = framing.outbound(m, session: s, to: to, now: now)
                default:
                    break
                }
            }
            return reply
        case let .reply(bytes):
            return bytes
        case .drop, .handled:
            return nil
        }
    }
}

/// Accepts every event and shows nothing.
final class NullBackend: InjectorBackend {
    let name = "null"
    func screenGeometry() -> ScreenGeometry { ScreenGeometry(width: 1920, height: 1080) }
    func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {}
    func flush() throws(InjectionError) {}
    func close() {}
}

/// A controller's datagrams for the harness: a session opened with a ping, then motion.
struct CoreController<Framing: ClientFraming> {
    var framing: Framing
    let session = SessionID(0x5eed_0001)
    var sequence: UInt32 = 0

    mutating func ping(now: Instant) -> [UInt8]? {
        framing.outbound(.ping(clientTimeMicros: UInt64(now.microseconds), clockOffsetMicros: 0), session: session, now: now)
    }

    mutating func inbound(_ bytes: [UInt8], now: Instant) -> [UInt8]? {
        let frame = bytes.withUnsafeBytes { framing.inbound($0, now: now) }
        if case let .reply(next) = frame { return next }
        return nil
    }

    /// `count` motion datagrams of a slowly turning controller, framed in advance.
    mutating func motion(count: Int, now: Instant) -> [[UInt8]] {
        (0..<count).compactMap { i in
            sequence &+= 1
            let t = Double(i) / 1000
            let sample = MotionSample(timestampMicros: UInt64(now.microseconds) + UInt64(i) * 500,
                                      attitude: Attitude(roll: 0, pitch: 0.2 * sin(t), yaw: 0.3 * sin(2 * t)),
                                      gyro: Vector3(x: 0.1, y: 0, z: 0.2))
            return framing.outbound(.motion(MotionPacket(sequence: sequence, buttonSequence: 0, sample: sample)),
                                    session: session, now: now)
        }
    }
}

enum CoreSetup {
    static let source = try! SocketAddress(ipAddress: "127.0.0.1", port: 50_000)

    /// A plain host with one open session, and `count` motion datagrams for it.
    static func plain(count: Int) -> (CoreHarness<PlainFraming>, [[UInt8]]) {
        let host = CoreHarness(framing: PlainFraming(), source: source)
        var client = CoreController(framing: PlainClientFraming())
        host.receive(client.ping(now: host.now)!)
        return (host, client.motion(count: count, now: host.now))
    }

    /// A Noise IK host with one established session, and `count` sealed motion datagrams.
    static func noise(count: Int) -> (CoreHarness<NoiseHostFraming>, [[UInt8]]) {
        let hostKey = KeyPair(Curve25519.KeyAgreement.PrivateKey())
        let clientKey = KeyPair(Curve25519.KeyAgreement.PrivateKey())
        let framing = NoiseHostFraming(staticKey: hostKey, trusted: [clientKey.publicKey], now: Instant(nanoseconds: 1_000_000_000))
        let host = CoreHarness(framing: framing, source: source)
        var client = CoreController(framing: NoiseClientFraming(staticKey: clientKey, hostStatic: hostKey.publicKey))
        var outgoing = client.framing.start(session: client.session, now: host.now)
        _ = client.ping(now: host.now)                 // queued until the handshake completes
        while let bytes = outgoing, let answer = host.receive(bytes) {
            outgoing = client.inbound(answer, now: host.now)
        }
        return (host, client.motion(count: count, now: host.now))
    }
}
