
/// The Noise patterns a Remotion handshake datagram can carry (docs/NOISE.md §2).
public enum RemotionPattern: UInt8, Sendable, CaseIterable {
    /// Reconnect of a paired controller: the client knows the host's static key.
    case ik = 1
    /// First contact, verified by fingerprint or 6-digit numeric comparison.
    case xx = 2
    /// First contact with a 32-byte pairing secret (QR code) as psk.
    case xxpsk3 = 3

    public var noiseProtocol: NoiseProtocol {
        switch self {
        case .ik: .IK
        case .xx: .XX
        case .xxpsk3: .XXpsk3
        }
    }
}

/// A handshake datagram, kind 0x02 (initiator → responder) or 0x03
/// (responder → initiator). Layout after the 8-byte header (docs/NOISE.md §4.2):
///
///     u32 LE sender index | u8 pattern | u8 message number | u16 reserved 0
///     Noise handshake message | mac1 (16) | mac2 (16)
///
/// The header's session field is the receiver's index, or for message 0 (when
/// no receiver index exists yet) the sender's own index.
public struct HandshakeDatagram: Hashable, Sendable {
    public static let fixedLength = datagramHeaderSize + 8
    public static let macLength = 16
    public static let overhead = fixedLength + 2 * macLength

    public var receiverIndex: UInt32
    public var senderIndex: UInt32
    public var pattern: RemotionPattern
    public var messageNumber: UInt8
    public var noiseMessage: [UInt8]

    public init(receiverIndex: UInt32, senderIndex: UInt32, pattern: RemotionPattern,
                messageNumber: UInt8, noiseMessage: [UInt8]) {
        self.receiverIndex = receiverIndex
        self.senderIndex = senderIndex
        self.pattern = pattern
        self.messageNumber = messageNumber
        self.noiseMessage = noiseMessage
    }

    /// Initiator messages have even numbers (0, 2), responder messages odd (1).
    public var kind: DatagramKind { messageNumber % 2 == 0 ? .handshakeInitiation : .handshakeResponse }

    /// Encodes the datagram and appends mac1 (keyed by `mac1Key`, see
    /// `DoSMacs.mac1Key`) and mac2 (keyed by `cookie`, or 16 zero bytes if nil).
    public func encode(mac1Key: [UInt8], cookie: [UInt8]?) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.overhead + noiseMessage.count)
        TransportLayout.appendHeader(kind: kind, session: receiverIndex, to: &out)
        TransportLayout.appendLE(senderIndex, to: &out)
        out.append(pattern.rawValue)
        out.append(messageNumber)
        out.append(0); out.append(0)
        out += noiseMessage
        out += DoSMacs.mac(key: mac1Key, out)
        if let cookie {
            out += DoSMacs.mac(key: cookie, out)
        } else {
            out += [UInt8](repeating: 0, count: Self.macLength)
        }
        return out
    }

    /// Parses a handshake datagram of either kind. Does not check the macs;
    /// use `DoSMacs.verifyMac1` / `verifyMac2` on the same bytes first.
    public static func decode(_ bytes: [UInt8]) throws(NoiseError) -> HandshakeDatagram {
        guard bytes.count >= overhead, bytes.count <= maxDatagramSize else {
            throw .malformedDatagram("handshake datagram has length \(bytes.count)")
        }
        let kind: DatagramKind = bytes[2] == DatagramKind.handshakeResponse.rawValue ? .handshakeResponse : .handshakeInitiation
        let receiver = try withBytes(bytes) { (b) throws(NoiseError) in try TransportLayout.readHeader(b, expecting: kind) }
        let sender = UInt32(bytes[8]) | UInt32(bytes[9]) << 8 | UInt32(bytes[10]) << 16 | UInt32(bytes[11]) << 24
        guard let pattern = RemotionPattern(rawValue: bytes[12]) else {
            throw .malformedDatagram("unknown handshake pattern \(bytes[12])")
        }
        let number = bytes[13]
        guard Int(number) < pattern.noiseProtocol.pattern.messages.count else {
            throw .malformedDatagram("pattern \(pattern) has no message \(number)")
        }
        guard (number % 2 == 0) == (kind == .handshakeInitiation) else {
            throw .malformedDatagram("message \(number) sent with the wrong kind")
        }
        guard bytes[14] == 0, bytes[15] == 0 else { throw .malformedDatagram("reserved bytes are not zero") }
        guard sender != 0, receiver != 0 else { throw .malformedDatagram("zero index") }
        guard number != 0 || sender == receiver else {
            throw .malformedDatagram("message 0 must carry the sender index in the header")
        }
        let noise = Array(bytes[fixedLength..<(bytes.count - 2 * macLength)])
        return HandshakeDatagram(receiverIndex: receiver, senderIndex: sender, pattern: pattern,
                                 messageNumber: number, noiseMessage: noise)
    }

    /// The mac1 field of an encoded handshake datagram (the cookie reply's AD).
    public static func mac1(of bytes: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard bytes.count >= overhead else { throw .malformedDatagram("handshake datagram too short") }
        return Array(bytes[(bytes.count - 2 * macLength)..<(bytes.count - macLength)])
    }
}
