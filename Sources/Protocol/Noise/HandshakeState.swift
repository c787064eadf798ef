import Crypto

/// Noise `HandshakeState` (spec §5.3): a general interpreter for the message
/// patterns of `HandshakePattern` with the tokens e, s, ee, es, se, ss, psk.
///
/// Pure: the local ephemeral key is a parameter (generate it in the adapter with
/// `KeyPair(Curve25519.KeyAgreement.PrivateKey())`). `readMessage` is
/// transactional: if a message fails to parse or authenticate, the state is
/// exactly what it was before, so a forged datagram cannot kill a handshake.
public struct HandshakeState: Sendable {
    public let noiseProtocol: NoiseProtocol
    public let isInitiator: Bool
    private var symmetric: SymmetricState
    private let s: KeyPair?
    private let e: KeyPair?
    /// The remote static public key, once known (pre-message or received `s`).
    public private(set) var remoteStatic: [UInt8]?
    /// The remote ephemeral public key, once known.
    public private(set) var remoteEphemeral: [UInt8]?
    private var psks: [[UInt8]]
    private var messageIndex = 0

    public static let pskLength = 32

    /// Noise `Initialize`. `ephemeral` is the one ephemeral key this party uses;
    /// it may be nil only if the pattern never sends `e`. psks are consumed in order.
    public init(protocol proto: NoiseProtocol, initiator: Bool, prologue: [UInt8] = [],
                localStatic: KeyPair? = nil, localEphemeral: KeyPair? = nil,
                remoteStatic: [UInt8]? = nil, remoteEphemeral: [UInt8]? = nil,
                psks: [[UInt8]] = []) throws(NoiseError) {
        let pattern = proto.pattern
        noiseProtocol = proto
        isInitiator = initiator
        s = localStatic
        e = localEphemeral
        for key in [remoteStatic, remoteEphemeral] {
            if let key, key.count != X25519.keyLength {
                throw .badLength(what: "remote public key", expected: X25519.keyLength, actual: key.count)
            }
        }
        self.remoteStatic = remoteStatic
        self.remoteEphemeral = remoteEphemeral
        for p in psks where p.count != Self.pskLength {
            throw .badLength(what: "psk", expected: Self.pskLength, actual: p.count)
        }
        guard psks.count >= pattern.pskCount else { throw .missingKey("\(pattern.pskCount) psk(s)") }
        self.psks = psks

        // Check up front that every key the pattern needs is present.
        let myPre = initiator ? pattern.initiatorPreMessage : pattern.responderPreMessage
        let theirPre = initiator ? pattern.responderPreMessage : pattern.initiatorPreMessage
        let mine = pattern.messages.enumerated().filter { ($0.offset % 2 == 0) == initiator }.flatMap(\.element)
        if (myPre.contains(.s) || mine.contains(.s)) && s == nil { throw .missingKey("the local static key") }
        if (myPre.contains(.e) || mine.contains(.e)) && e == nil { throw .missingKey("the local ephemeral key") }
        if theirPre.contains(.s) && remoteStatic == nil { throw .missingKey("the remote static key") }
        if theirPre.contains(.e) && remoteEphemeral == nil { throw .missingKey("the remote ephemeral key") }

        symmetric = SymmetricState(protocolName: proto.name)
        symmetric.mixHash(prologue)
        // Pre-messages: initiator's first, then responder's (spec §7.1).
        for (owner, tokens) in [(true, pattern.initiatorPreMessage), (false, pattern.responderPreMessage)] {
            let local = owner == initiator
            for token in tokens {
                switch token {
                case .e:
                    let key = local ? e!.publicKey : remoteEphemeral!
                    symmetric.mixHash(key)
                    if pattern.usesPSK { symmetric.mixKey(key) }
                case .s:
                    symmetric.mixHash(local ? s!.publicKey : self.remoteStatic!)
                default:
                    throw .unknownPattern(pattern.name)
                }
            }
        }
    }

    /// True once every message pattern has been written or read.
    public var isComplete: Bool { messageIndex >= noiseProtocol.pattern.messages.count }
    /// True if the next handshake message is ours to write.
    public var isMyTurn: Bool { !isComplete && (messageIndex % 2 == 0) == isInitiator }
    /// The handshake hash `h` (the channel binding once complete).
    public var handshakeHash: [UInt8] { symmetric.handshakeHash }
    /// Index of the next message pattern (0 = first initiator message).
    public var nextMessageIndex: Int { messageIndex }

    /// Noise `WriteMessage`: returns the handshake message carrying `payload`.
    public mutating func writeMessage(payload: [UInt8] = []) throws(NoiseError) -> [UInt8] {
        guard isMyTurn else { throw .wrongTurn }
        var next = self
        var out: [UInt8] = []
        for token in noiseProtocol.pattern.messages[messageIndex] {
            switch token {
            case .e:
                out += next.e!.publicKey
                next.symmetric.mixHash(next.e!.publicKey)
                if noiseProtocol.pattern.usesPSK { next.symmetric.mixKey(next.e!.publicKey) }
            case .s:
                out += try next.symmetric.encryptAndHash(next.s!.publicKey)
            default:
                try next.mix(token)
            }
        }
        out += try next.symmetric.encryptAndHash(payload)
        next.messageIndex += 1
        self = next
        return out
    }

    /// Noise `ReadMessage`: consumes a handshake message and returns its payload.
    /// On any error the state is unchanged.
    public mutating func readMessage(_ message: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard !isComplete, !isMyTurn else { throw .wrongTurn }
        var next = self
        var rest = message[...]
        func take(_ n: Int) throws(NoiseError) -> [UInt8] {
            guard rest.count >= n else { throw .malformedMessage("message \(messageIndex) is too short") }
            defer { rest = rest.dropFirst(n) }
            return Array(rest.prefix(n))
        }
        for token in noiseProtocol.pattern.messages[messageIndex] {
            switch token {
            case .e:
                let re = try take(X25519.keyLength)
                next.remoteEphemeral = re
                next.symmetric.mixHash(re)
                if noiseProtocol.pattern.usesPSK { next.symmetric.mixKey(re) }
            case .s:
                let len = X25519.keyLength + (next.symmetric.cipher.hasKey ? CipherState.tagLength : 0)
                next.remoteStatic = try next.symmetric.decryptAndHash(try take(len))
            default:
                try next.mix(token)
            }
        }
        let payload = try next.symmetric.decryptAndHash(Array(rest))
        next.messageIndex += 1
        self = next
        return payload
    }

    /// Noise `Split()`; only valid once the handshake is complete.
    public func split() throws(NoiseError) -> (initiatorToResponder: CipherState, responderToInitiator: CipherState) {
        guard isComplete else { throw .handshakeNotComplete }
        return symmetric.split()
    }

    /// The DH and psk tokens (spec §5.3).
    private mutating func mix(_ token: NoiseToken) throws(NoiseError) {
        func need<T>(_ v: T?, _ what: String) throws(NoiseError) -> T {
            guard let v else { throw .missingKey(what) }
            return v
        }
        switch token {
        case .ee:
            symmetric.mixKey(try X25519.dh(try need(e, "local e").privateKey, try need(remoteEphemeral, "remote e")))
        case .es:
            let secret = isInitiator
                ? try X25519.dh(try need(e, "local e").privateKey, try need(remoteStatic, "remote s"))
                : try X25519.dh(try need(s, "local s").privateKey, try need(remoteEphemeral, "remote e"))
            symmetric.mixKey(secret)
        case .se:
            let secret = isInitiator
                ? try X25519.dh(try need(s, "local s").privateKey, try need(remoteEphemeral, "remote e"))
                : try X25519.dh(try need(e, "local e").privateKey, try need(remoteStatic, "remote s"))
            symmetric.mixKey(secret)
        case .ss:
            symmetric.mixKey(try X25519.dh(try need(s, "local s").privateKey, try need(remoteStatic, "remote s")))
        case .psk:
            guard !psks.isEmpty else { throw .missingKey("psk") }
            symmetric.mixKeyAndHash(psks.removeFirst())
        case .e, .s:
            break // handled by the caller
        }
    }
}
