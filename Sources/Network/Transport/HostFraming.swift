import NIOCore
import RemotionProtocol

/// What the framing layer made of one received datagram.
public enum InboundFrame {
    /// A message for a session (authenticated, when the framing encrypts).
    case message(Message, session: SessionID)
    /// Handshake traffic the framing answered itself (bytes to send back).
    case reply([UInt8])
    /// Consumed by the framing with nothing to send (a pairing message waiting for the
    /// user's decision). Not a drop.
    case handled
    case drop(DropReason)
}

/// The seam between the UDP socket and the protocol engine: plain datagrams today, the
/// Noise transport (docs/SECURITY.md) when security is on. One owner: the host's loop.
public protocol HostFraming: SendableMetatype {
    mutating func inbound(_ datagram: UnsafeRawBufferPointer, from: SocketAddress, now: Instant) -> InboundFrame
    /// Frames a message for a session; nil if the session has no keys (it is dropped).
    mutating func outbound(_ message: Message, session: SessionID, to: SocketAddress, now: Instant) -> [UInt8]?
    /// A session ended: forget its keys.
    mutating func sessionClosed(_ session: SessionID)
    /// Housekeeping on the host's tick (at most every `HostChannelHandler.framingTickInterval`,
    /// never per datagram): key expiry, trust reloads, statistics. Returns the sessions
    /// whose controller is no longer trusted; the host closes them with `.revoked`.
    mutating func tick(now: Instant) -> [SessionID]
    /// The static key the session's controller authenticated with (Noise), nil for plain
    /// datagrams: what names a controller across its sessions.
    func peerKey(of session: SessionID) -> [UInt8]?
}

extension HostFraming {
    public mutating func tick(now: Instant) -> [SessionID] { [] }
    public func peerKey(of session: SessionID) -> [UInt8]? { nil }
}

/// Unencrypted v1 datagrams (docs/PROTOCOL.md §2). Anyone who can send a datagram can
/// drive a plain host: use it only on loopback or with `--insecure`.
public struct PlainFraming: HostFraming {
    public init() {}

    public func inbound(_ datagram: UnsafeRawBufferPointer, from: SocketAddress, now: Instant) -> InboundFrame {
        do {
            let d = try PlainDatagram.decode(datagram)
            return .message(d.message, session: d.session)
        } catch {
            return .drop(.malformed(error))
        }
    }

    public func outbound(_ message: Message, session: SessionID, to: SocketAddress, now: Instant) -> [UInt8]? {
        PlainDatagram(session: session, message: message).encode()
    }

    public func sessionClosed(_ session: SessionID) {}
}

/// The client's side of the same seam.
public protocol ClientFraming: SendableMetatype {
    mutating func inbound(_ datagram: UnsafeRawBufferPointer, now: Instant) -> InboundFrame
    mutating func outbound(_ message: Message, session: SessionID, now: Instant) -> [UInt8]?
    /// Bytes to send before the session's first message (a handshake), if any.
    mutating func start(session: SessionID, now: Instant) -> [UInt8]?
}

public struct PlainClientFraming: ClientFraming {
    public init() {}
    public func inbound(_ datagram: UnsafeRawBufferPointer, now: Instant) -> InboundFrame {
        do {
            let d = try PlainDatagram.decode(datagram)
            return .message(d.message, session: d.session)
        } catch {
            return .drop(.malformed(error))
        }
    }
    public func outbound(_ message: Message, session: SessionID, now: Instant) -> [UInt8]? {
        PlainDatagram(session: session, message: message).encode()
    }
    public func start(session: SessionID, now: Instant) -> [UInt8]? { nil }
}
