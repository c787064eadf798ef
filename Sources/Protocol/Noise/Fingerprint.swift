/// Human-checkable identifiers for pairing (docs/NOISE.md §7).
public enum KeyFingerprint {
    /// The first 15 bytes (120 bits) of SHA256(public key) in base32, as six
    /// groups of four: "MFRG-GZDF-MZTW-Q2LK-NNWG-23TP".
    public static func fingerprint(of publicKey: [UInt8]) -> String {
        // 15 bytes are exactly 24 base32 characters: no padding bits.
        let chars = Array(Base32.encode(Array(NoiseHash.hash(publicKey).prefix(15))))
        return stride(from: 0, to: chars.count, by: 4).map { String(chars[$0..<($0 + 4)]) }.joined(separator: "-")
    }
}

/// Numeric-comparison pairing over Noise XX (docs/NOISE.md §7.2).
///
/// The initiator commits to a random nonce Na in message 0, the responder sends
/// Nb in message 1, the initiator reveals Na in message 2. Both display
/// `code(transcriptHash: h1, ...)` where h1 is the handshake hash right after
/// message 1. A man in the middle has to fix Nb (towards the initiator) before
/// seeing Na, and its own commitment (towards the responder) before seeing Nb,
/// so it cannot grind the codes into agreement: they match by chance with 10^-6.
public enum ComparisonCode {
    public static let nonceLength = 32
    static let commitLabel = Array("remotion commit v1".utf8)
    static let codeLabel = Array("remotion code v1".utf8)

    /// SHA256("remotion commit v1" || Na): sent by the initiator in message 0.
    public static func commitment(to initiatorNonce: [UInt8]) -> [UInt8] {
        NoiseHash.hash(commitLabel, initiatorNonce)
    }

    /// Checks the revealed nonce against the commitment (responder side).
    public static func verify(commitment: [UInt8], initiatorNonce: [UInt8]) throws(NoiseError) {
        guard initiatorNonce.count == nonceLength,
              DoSMacs.constantTimeEqual(Self.commitment(to: initiatorNonce), commitment[...])
        else { throw .commitmentMismatch }
    }

    /// The 6-digit code: the first 8 bytes of
    /// SHA256("remotion code v1" || h1 || Na || Nb) as a big-endian integer,
    /// modulo 10^6, zero-padded.
    public static func code(transcriptHash: [UInt8], initiatorNonce: [UInt8], responderNonce: [UInt8]) -> String {
        let d = NoiseHash.hash(codeLabel, transcriptHash, initiatorNonce, responderNonce)
        let v = d.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) } % 1_000_000
        let s = String(v)
        return String(repeating: "0", count: 6 - s.count) + s
    }
}
