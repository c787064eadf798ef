import NIOCore
import RemotionProtocol
import Synchronization

/// Supplies the paired controllers' keys; returns nil when nothing changed since the
/// last call (so a host can ask on every handshake for the price of a `stat`).
public protocol TrustSource: Sendable {
    func keysIfChanged() -> Set<[UInt8]>?
}

/// The host's encrypted framing (docs/SECURITY.md): `SecureHost` behind the
/// `HostFraming` seam. Sessions are presented to the state machine under the host's
/// index for them.
public struct NoiseHostFraming: HostFraming {
    public private(set) var core: SecureHost<SocketAddress>
    private var random = SystemRandomNumberGenerator()
    private let trust: (any TrustSource)?
    private let desk: PairingDesk?
    private var lastTick = Instant.zero
    /// The security layer's numbers, readable from any thread.
    public let stats: SecurityStats

    public init(staticKey: KeyPair, trusted: Set<[UInt8]>, trust: (any TrustSource)? = nil, desk: PairingDesk? = nil,
                stats: SecurityStats = SecurityStats(),
                configuration: SecureHost<SocketAddress>.Configuration = .init(), now: Instant) {
        self.stats = stats
        var rng = SystemRandomNumberGenerator()
        core = SecureHost(staticKey: staticKey, trusted: trust?.keysIfChanged() ?? trusted,
                          configuration: configuration, now: now, random: &rng)
        self.trust = trust
        self.desk = desk
    }

    /// Opens a pairing window for `psk` (see `PairingCode.psk`).
    public mutating func openPairing(psk: [UInt8], until: Instant) { core.openPairing(psk: psk, until: until) }

    public mutating func inbound(_ datagram: UnsafeRawBufferPointer, from: SocketAddress, now: Instant) -> InboundFrame {
        if now - lastTick >= .seconds(1) {
            lastTick = now
            core.tick(now: now, random: &random)
        }
        if datagram.count > 2, datagram[2] == DatagramKind.handshakeInitiation.rawValue {
            if let keys = trust?.keysIfChanged() { core.setTrusted(keys) }
            if let desk { for (id, accept) in desk.takeDecisions() { core.decidePairing(id, accept: accept) } }
        }
        let result = core.inbound(datagram, from: from, now: now, random: &random)
        if let desk { for request in core.takePairingRequests() { desk.post(request) } }
        if datagram.count > 2, datagram[2] != DatagramKind.transport.rawValue || !isMessage(result) { publish() }
        switch result {
        case let .message(m, session): return .message(m, session: session)
        case let .reply(bytes): return .reply(bytes)
        case let .drop(reason): return .drop(reason)
        }
    }

    public mutating func outbound(_ message: Message, session: SessionID, to: SocketAddress, now: Instant) -> [UInt8]? {
        core.outbound(message, session: session, now: now)
    }

    public mutating func sessionClosed(_ session: SessionID) {
        core.sessionClosed(session)
        publish()
    }

    private func isMessage(_ r: SecureInbound) -> Bool { if case .message = r { true } else { false } }

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
