import NIOCore
import RemotionProtocol
import Synchronization

/// Supplies the paired controllers' keys; returns nil when nothing changed since the
/// last call (so a host can ask on every tick for the price of a `stat`).
public protocol TrustSource: Sendable {
    func keysIfChanged() -> Set<[UInt8]>?
}

/// The host's encrypted framing (docs/SECURITY.md): `SecureHost` behind the
/// `HostFraming` seam. Sessions are presented to the state machine under the host's
/// index for them. Per datagram it only frames; trust reloads, key expiry and the
/// statistics happen in `tick`, on the host's timer.
public struct NoiseHostFraming: HostFraming {
    public private(set) var core: SecureHost<SocketAddress>
    private var random = SecureRandom()
    private let trust: (any TrustSource)?
    private var desk: PairingDesk?
    private var lastCoreTick = Instant.zero
    /// Sessions found untrusted outside `tick` (at a handshake); `tick` hands them out.
    private var untrusted: [SessionID] = []
    /// The security layer's numbers, readable from any thread.
    public let stats: SecurityStats

    public init(staticKey: KeyPair, trusted: Set<[UInt8]>, trust: (any TrustSource)? = nil, desk: PairingDesk? = nil,
                stats: SecurityStats = SecurityStats(),
                configuration: SecureHost<SocketAddress>.Configuration = .init(), now: Instant) {
        self.stats = stats
        var rng = SecureRandom()
        core = SecureHost(staticKey: staticKey, trusted: trust?.keysIfChanged() ?? trusted,
                          configuration: configuration, now: now, random: &rng)
        self.trust = trust
        self.desk = desk
    }

    /// Opens a pairing window for `psk` (see `PairingCode.psk`).
    public mutating func openPairing(psk: [UInt8], until: Instant) { core.openPairing(psk: psk, until: until) }

    /// Opens a pairing window on a running host: requests go to `desk` (the user's
    /// answers come back through it).
    public mutating func openPairing(psk: [UInt8], until: Instant, desk: PairingDesk) {
        self.desk = desk
        core.openPairing(psk: psk, until: until)
    }

    /// Ends the pairing window at `at` (no new pairing starts after it; a controller
    /// already decided on gets its answer until then), if it is open longer.
    public mutating func closePairing(at: Instant) { core.shortenPairing(until: at) }

    public func isPairing(now: Instant) -> Bool { core.isPairing(now: now) }

    /// The paired controller's static key for a session (nil for unknown sessions).
    public func remoteStatic(of session: SessionID) -> [UInt8]? { core.remoteStatic(of: session) }
    public func peerKey(of session: SessionID) -> [UInt8]? { core.remoteStatic(of: session) }

    public mutating func inbound(_ datagram: UnsafeRawBufferPointer, from: SocketAddress, now: Instant) -> InboundFrame {
        if datagram.count > 2, datagram[2] == DatagramKind.handshakeInitiation.rawValue, core.acceptsMac1(datagram) {
            // A handshake that passed mac1 meets the current trust (a `stat`, and a read
            // only when the file changed), so a key revoked a moment ago cannot start a
            // session. Unauthenticated traffic costs no file-system work.
            reloadTrust()
            // The user's answers to pairing requests (memory only).
            if let desk { for (id, accept) in desk.takeDecisions() { core.decidePairing(id, accept: accept) } }
        }
        let result = core.inbound(datagram, from: from, now: now, random: &random)
        if let desk { for request in core.takePairingRequests() { desk.post(request) } }
        switch result {
        case let .message(m, session): return .message(m, session: session)
        case let .reply(bytes): return .reply(bytes)
        case .handled: return .handled
        case let .drop(reason): return .drop(reason)
        }
    }

    public mutating func outbound(_ message: Message, session: SessionID, to: SocketAddress, now: Instant) -> [UInt8]? {
        core.outbound(message, session: session, now: now)
    }

    public mutating func sessionClosed(_ session: SessionID) {
        core.sessionClosed(session)
    }

    public mutating func tick(now: Instant) -> [SessionID] {
        if now - lastCoreTick >= .seconds(1) {
            lastCoreTick = now
            core.tick(now: now, random: &random)
        }
        reloadTrust()
        publish()
        defer { untrusted.removeAll() }
        return untrusted
    }

    private mutating func reloadTrust() {
        if let keys = trust?.keysIfChanged() { untrusted += core.setTrusted(keys) }
    }

    private func publish() {
        stats.update(SecurityStats.Snapshot(
            sessions: core.sessionCount, halfOpen: core.halfOpenCount, pendingPairings: core.pendingPairingCount,
            trackedSources: core.trackedSources, cookieReplies: core.cookieRepliesSent,
            handshakes: core.handshakesCompleted, drops: core.drops))
    }
}

/// What the host's security layer has done, published by the framing (on the host's
/// loop) and read by status displays and tests (any thread).
public final class SecurityStats: Sendable {
    public struct Snapshot: Sendable, Equatable {
        public var sessions = 0
        /// Sessions whose keys the controller has not used yet.
        public var halfOpen = 0
        public var pendingPairings = 0
        /// Sources with a rate-limit bucket.
        public var trackedSources = 0
        public var cookieReplies = 0
        public var handshakes = 0
        /// Drops inside the security layer by reason (including cookie demands as rate-limited).
        public var drops = DropCounters()
        public init() {}
        init(sessions: Int, halfOpen: Int, pendingPairings: Int, trackedSources: Int, cookieReplies: Int,
             handshakes: Int, drops: DropCounters) {
            self.sessions = sessions; self.halfOpen = halfOpen; self.pendingPairings = pendingPairings
            self.trackedSources = trackedSources; self.cookieReplies = cookieReplies; self.handshakes = handshakes
            self.drops = drops
        }
    }

    private let state = Mutex(Snapshot())
    public init() {}
    public var snapshot: Snapshot { state.withLock { $0 } }
    func update(_ s: Snapshot) { state.withLock { $0 = s } }
}
