import NIOCore
import RemotionCore
import RemotionNoise
import RemotionSecureSession
import RemotionSession
import RemotionTransport
import RemotionWire

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

    public init(staticKey: KeyPair, trusted: Set<[UInt8]>, trust: (any TrustSource)? = nil, desk: PairingDesk? = nil,
                configuration: SecureHost<SocketAddress>.Configuration = .init(), now: Instant) {
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
        switch result {
        case let .message(m, session): return .message(m, session: session)
        case let .reply(bytes): return .reply(bytes)
        case let .drop(reason): return .drop(reason)
        }
    }

    public mutating func outbound(_ message: Message, session: SessionID, to: SocketAddress, now: Instant) -> [UInt8]? {
        core.outbound(message, session: session, now: now)
    }

    public mutating func sessionClosed(_ session: SessionID) { core.sessionClosed(session) }
}
