#if canImport(Glibc)
import Glibc
import RemotionProtocol
import RemotionNetwork

/// One simulated controller of the load sender: its own UDP socket (so the host sees
/// one source address per controller, as with real phones), its framing (plain or
/// Noise IK) and its motion sequence. Single-threaded; owned by `LoadSender`.
struct LoadController {
    enum Framing {
        case plain(PlainClientFraming)
        case noise(NoiseClientFraming)
        /// No session at all: datagrams for the floor receiver, which answers nothing.
        case raw
    }

    let fd: Int32
    let session: SessionID
    var framing: Framing
    var opened = false
    var sequence: UInt32 = 0
    var sent = 0
    var sendErrors = 0
    var disconnectsReceived = 0
    /// When the next sample is due (monotonic ns).
    var due: Int64

    init(host: UInt16, session: SessionID, framing: Framing, due: Int64) throws(LoadError) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw LoadError("socket: errno \(errno)") }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")   // loopback only, always
        addr.sin_port = host.bigEndian
        let rc = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else { throw LoadError("connect: errno \(errno)") }
        self.fd = fd
        self.session = session
        self.framing = framing
        self.due = due
    }

    static func monotonicNanos() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// The host's clock is CLOCK_MONOTONIC too (NIODeadline), so the clock offset is 0
    /// and the host's one-way latency figure is exact on one machine.
    func now() -> Instant { Instant(nanoseconds: Self.monotonicNanos()) }

    mutating func frame(_ message: Message) -> [UInt8]? {
        switch framing {
        case .plain(let f):
            return f.outbound(message, session: session, now: now())
        case .noise(var f):
            defer { framing = .noise(f) }
            return f.outbound(message, session: session, now: now())
        case .raw:
            return PlainDatagram(session: session, message: message).encode()
        }
    }

    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) } == bytes.count
    }

    /// Starts the session: a ping (behind an IK initiation with Noise).
    mutating func start() {
        guard case .noise(var f) = framing else { return sendPing() }
        if let initiation = f.start(session: session, now: now()) { _ = send(initiation) }
        framing = .noise(f)
        sendPing()
    }

    mutating func sendPing() {
        if let bytes = frame(.ping(clientTimeMicros: UInt64(max(0, now().microseconds)), clockOffsetMicros: 0)) {
            _ = send(bytes)
        }
    }

    /// Reads whatever the host sent (pongs, handshake responses, acks, disconnects).
    mutating func drain() {
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { return }
            let frame: InboundFrame = buffer.withUnsafeBytes { raw in
                let datagram = UnsafeRawBufferPointer(rebasing: raw[0..<n])
                switch framing {
                case .plain(let f):
                    return f.inbound(datagram, now: now())
                case .noise(var f):
                    defer { framing = .noise(f) }
                    return f.inbound(datagram, now: now())
                case .raw:
                    return .drop(.unexpectedMessage)
                }
            }
            switch frame {
            case .message(.pong, _): opened = true
            case .message(.disconnect, _): disconnectsReceived += 1; opened = false
            case let .reply(bytes): _ = send(bytes)
            default: break
            }
        }
    }

    /// The next motion datagram (a slowly turning attitude and a gyro reading).
    mutating func nextMotion(nowNanos: Int64) -> [UInt8]? {
        sequence &+= 1
        let t = Double(nowNanos) / 1e9
        let sample = MotionSample(timestampMicros: UInt64(nowNanos / 1000),
                                  attitude: Attitude(roll: 0, pitch: 0.2 * sin(t), yaw: 0.3 * sin(2 * t)),
                                  gyro: Vector3(x: Float(0.2 * cos(t)), y: 0, z: Float(0.6 * cos(2 * t))))
        return frame(.motion(MotionPacket(sequence: sequence, buttonSequence: 0, sample: sample)))
    }

    mutating func close() {
        if opened, let bytes = frame(.disconnect(.user)) { _ = send(bytes) }
        Glibc.close(fd)
    }
}

struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
#endif
