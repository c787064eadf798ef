/// Everything that can go wrong in the Noise core, the transport framing and the
/// DoS helpers. Bad or hostile input always ends in one of these, never in a trap.
public enum NoiseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The protocol name is not `Noise_<pattern>_25519_ChaChaPoly_SHA256`.
    case unsupportedProtocol(String)
    /// The handshake pattern name is unknown or a psk modifier is malformed.
    case unknownPattern(String)
    /// A key, nonce, psk or similar field does not have the required length.
    case badLength(what: String, expected: Int, actual: Int)
    /// A pattern needs a key (local static, remote static, psk) that was not given.
    case missingKey(String)
    /// AEAD tag check failed: the data was forged, corrupted or uses the wrong key.
    case authenticationFailed
    /// A Diffie-Hellman with a peer public key failed (e.g. a low-order point).
    case invalidPublicKey
    /// writeMessage/readMessage called out of turn or after the handshake finished.
    case wrongTurn
    /// The handshake is not finished yet, so there are no transport keys.
    case handshakeNotComplete
    /// A message is too short or too long for the step it claims to be.
    case malformedMessage(String)
    /// The nonce counter reached the limit; a new handshake is required.
    case nonceExhausted
    /// The counter is below the replay window or was already accepted.
    case replayed(counter: UInt64)
    /// An IK initiation carries a timestamp not newer than the last accepted one.
    case staleTimestamp
    /// mac1 (or mac2) of a handshake datagram does not verify.
    case badMac
    /// The datagram header or a fixed field is not what this layer expects.
    case malformedDatagram(String)
    /// A comparison commitment does not match the revealed nonce.
    case commitmentMismatch

    public var description: String {
        switch self {
        case .unsupportedProtocol(let n): "unsupported Noise protocol name '\(n)'"
        case .unknownPattern(let n): "unknown Noise handshake pattern '\(n)'"
        case let .badLength(what, expected, actual): "\(what) must be \(expected) bytes, got \(actual)"
        case .missingKey(let k): "handshake pattern needs \(k), which was not provided"
        case .authenticationFailed: "authentication tag check failed"
        case .invalidPublicKey: "peer public key is invalid (Diffie-Hellman failed)"
        case .wrongTurn: "handshake message sent or read out of turn"
        case .handshakeNotComplete: "handshake is not complete"
        case .malformedMessage(let m): "malformed handshake message: \(m)"
        case .nonceExhausted: "nonce counter exhausted; start a new handshake"
        case .replayed(let c): "counter \(c) is replayed or too old"
        case .staleTimestamp: "initiation timestamp is not newer than the last accepted one"
        case .badMac: "mac1/mac2 check failed"
        case .malformedDatagram(let m): "malformed datagram: \(m)"
        case .commitmentMismatch: "pairing commitment does not match the revealed nonce"
        }
    }
}

/// `Array.withUnsafeBytes` with a body that throws `NoiseError` (the standard
/// library version only rethrows untyped errors).
@inline(__always)
func withBytes<R>(_ a: [UInt8], _ body: (UnsafeRawBufferPointer) throws(NoiseError) -> R) throws(NoiseError) -> R {
    let result: Result<R, NoiseError> = a.withUnsafeBytes { p in
        do throws(NoiseError) { return .success(try body(p)) } catch { return .failure(error) }
    }
    return try result.get()
}
