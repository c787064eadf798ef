import NIOCore
import RemotionProtocol

/// The controller's encrypted framing: `SecureClient` behind the `ClientFraming` seam.
/// While no keys exist, each ping becomes a new IK initiation (retries ride on the
/// ping timer) and the ping waits; when the response arrives the ping goes out
/// sealed at once. A rekey initiation likewise takes one ping's place.
public struct NoiseClientFraming: ClientFraming {
    public static var retryInterval: Duration { .milliseconds(450) }
    private let staticKey: KeyPair
    private let hostStatic: [UInt8]
    public private(set) var core: SecureClient?
    private var queued: Message?
    private var random = SecureRandom()

    public init(staticKey: KeyPair, hostStatic: [UInt8]) {
        self.staticKey = staticKey
        self.hostStatic = hostStatic
    }

    public mutating func start(session: SessionID, now: Instant) -> [UInt8]? {
        var c = SecureClient(staticKey: staticKey, hostStatic: hostStatic, clientSession: session)
        let bytes = c.initiation(now: now, wallClock: WallClock.now(), random: &random)
        core = c
        return bytes
    }

    public mutating func outbound(_ message: Message, session: SessionID, now: Instant) -> [UInt8]? {
        if core == nil { _ = start(session: session, now: now) }
        guard var c = core else { return nil }
        defer { core = c }
        let isPing: Bool = if case .ping = message { true } else { false }
        if !c.isEstablished {
            if isPing { queued = message }
            guard c.wantsHandshake(now: now, retryAfter: Self.retryInterval) else { return nil }
            return c.initiation(now: now, wallClock: WallClock.now(), random: &random)
        }
        if isPing, c.wantsHandshake(now: now, retryAfter: Self.retryInterval) {
            queued = message
            return c.initiation(now: now, wallClock: WallClock.now(), random: &random)
        }
        return c.seal(message, now: now)
    }

    public mutating func inbound(_ datagram: UnsafeRawBufferPointer, now: Instant) -> InboundFrame {
        guard var c = core else { return .drop(.unknownSession) }
        defer { core = c }
        switch c.inbound(datagram, now: now, wallClock: WallClock.now(), random: &random) {
        case let .message(m): return .message(m, session: c.clientSession)
        case .established:
            guard let ping = queued, let sealed = c.seal(ping, now: now) else { return .drop(.unexpectedMessage) }
            queued = nil
            return .reply(sealed)
        case let .retry(bytes): return .reply(bytes)
        case let .drop(reason): return .drop(reason)
        }
    }
}
