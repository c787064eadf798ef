
/// An address the host can key rate limits on and bind cookies to. `cookieBytes` are
/// the IP address (4 or 16 bytes) followed by the UDP port, big-endian (docs/NOISE.md §5).
public protocol SourceAddress: Hashable, Sendable {
    var cookieBytes: [UInt8] { get }
}

extension RandomNumberGenerator {
    /// `count` random bytes (the adapters pass `SecureRandom`, the system's CSPRNG).
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count + 8)
        while out.count < count {
            withUnsafeBytes(of: next()) { out.append(contentsOf: $0) }
        }
        return Array(out.prefix(count))
    }

    /// A fresh X25519 key pair (ephemeral keys, new static keys).
    public mutating func keyPair() -> KeyPair {
        // 32 random bytes are always a valid X25519 scalar (it is clamped), so this cannot fail.
        while true {
            if let pair = try? KeyPair(privateKeyBytes: bytes(X25519.keyLength)) { return pair }
        }
    }

    /// A random non-zero index not in `taken`.
    mutating func index(avoiding taken: (UInt32) -> Bool) -> UInt32 {
        while true {
            let i = UInt32.random(in: 1...UInt32.max, using: &self)
            if !taken(i) { return i }
        }
    }
}

/// One direction pair of transport keys from one handshake.
struct SessionKeys: Sendable {
    var sender: TransportSender
    var receiver: TransportReceiver
    let createdAt: Instant
    var localIndex: UInt32 { receiver.localIndex }
}

extension NoiseError {
    /// The drop reason a failed open/read maps to.
    var dropReason: DropReason {
        switch self {
        case .replayed, .staleTimestamp: .replayed
        case .malformedDatagram, .malformedMessage, .badLength: .malformed(.truncated)
        default: .authenticationFailed
        }
    }
}

/// Payloads carried inside handshake messages (docs/SECURITY.md §4).
enum SecurePayload {
    /// IK message 0: TAI64N || client session id (u32 LE) — the host keeps one
    /// session per (client key, client session), so a re-initiation with the same
    /// session id is a rekey and a new id is a new connection.
    static func initiation(_ timestamp: TAI64N, clientSession: SessionID) -> [UInt8] {
        var w = ByteWriter(capacity: 16)
        w.raw(timestamp.bytes)
        w.u32(clientSession.rawValue)
        return w.bytes
    }

    static func clientSession(from rest: [UInt8]) -> SessionID? {
        guard rest.count == 4 else { return nil }
        let v = UInt32(rest[0]) | UInt32(rest[1]) << 8 | UInt32(rest[2]) << 16 | UInt32(rest[3]) << 24
        return v == 0 ? nil : SessionID(v)
    }

    /// Transport plaintext the host sends on a pairing session once the user decided.
    static let pairingAccepted: [UInt8] = Array("remotion paired".utf8)
    static let pairingRejected: [UInt8] = Array("remotion refused".utf8)
    /// Longest controller name carried in XXpsk3 message 2.
    static let maxNameLength = 64
}

/// Message bodies inside transport datagrams.
enum SealedMessage {
    static func encode(_ message: Message) -> [UInt8] { MessageCodec.encode(message) }
    static func decode(_ bytes: [UInt8]) -> Result<Message, WireError> {
        do throws(WireError) { return .success(try MessageCodec.decode(bytes)) } catch { return .failure(error) }
    }
}

/// Reads the 8-byte header's kind and receiver index without allocating.
enum DatagramPeek {
    static func kind(_ d: UnsafeRawBufferPointer) -> DatagramKind? {
        guard d.count >= datagramHeaderSize, d[0] == wireMagic, d[1] == wireVersion, d[3] == 0 else { return nil }
        return DatagramKind(rawValue: d[2])
    }
}
