
/// The first byte of every Remotion datagram ('R').
public let wireMagic: UInt8 = 0x52
/// The protocol version this build speaks.
public let wireVersion: UInt8 = 1
/// Every datagram starts with this many header bytes.
public let datagramHeaderSize = 8
/// Nothing Remotion sends is larger; the host reads no more than this.
public let maxDatagramSize = 1200
/// At most this many button events travel in one datagram.
public let maxButtonBatch = 32

/// What follows the 8-byte header. Only `plain` is defined in this file; the
/// encrypted kinds are framed by the security layer (docs/PROTOCOL.md §4), which
/// reuses the same header so a host can tell them apart from the first 4 bytes.
public enum DatagramKind: UInt8, Sendable, CaseIterable {
    case plain = 0x01
    case handshakeInitiation = 0x02
    case handshakeResponse = 0x03
    case cookieReply = 0x04
    case transport = 0x05
}

/// The 8-byte header: magic, version, kind, reserved zero, 32-bit session id.
public struct DatagramHeader: Hashable, Sendable {
    public var kind: DatagramKind
    public var session: SessionID

    public init(kind: DatagramKind, session: SessionID) { self.kind = kind; self.session = session }

    public func write(to w: inout ByteWriter) {
        w.u8(wireMagic); w.u8(wireVersion); w.u8(kind.rawValue); w.u8(0); w.u32(session.rawValue)
    }

    public static func read(from r: inout ByteReader) throws(WireError) -> DatagramHeader {
        guard try r.u8() == wireMagic else { throw .badMagic }
        guard try r.u8() == wireVersion else { throw .unsupportedVersion }
        guard let kind = DatagramKind(rawValue: try r.u8()) else { throw .unknownKind }
        guard try r.u8() == 0 else { throw .reservedNotZero }
        let session = try r.u32()
        guard session != 0 else { throw .zeroSession }
        return DatagramHeader(kind: kind, session: SessionID(session))
    }
}

/// A plain (unencrypted) datagram: header plus one message.
public struct PlainDatagram: Hashable, Sendable {
    public var session: SessionID
    public var message: Message

    public init(session: SessionID, message: Message) { self.session = session; self.message = message }

    public func encode() -> [UInt8] {
        var w = ByteWriter(capacity: 64)
        DatagramHeader(kind: .plain, session: session).write(to: &w)
        MessageCodec.encode(message, into: &w)
        return w.bytes
    }

    /// Decodes a whole datagram. Never traps: bad input throws a `WireError`.
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws(WireError) -> PlainDatagram {
        var r = ByteReader(bytes)
        let header = try DatagramHeader.read(from: &r)
        guard header.kind == .plain else { throw .unknownKind }
        let message = try MessageCodec.decode(from: &r)
        return PlainDatagram(session: header.session, message: message)
    }

    public static func decode(_ bytes: [UInt8]) throws(WireError) -> PlainDatagram {
        let result: Result<PlainDatagram, WireError> = bytes.withUnsafeBytes { buf in
            do throws(WireError) { return .success(try decode(buf)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
