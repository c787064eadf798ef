import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Noise `CipherState` (spec §5.1) for ChaChaPoly: a 32-byte key and a 64-bit
/// counter. The AEAD nonce is 32 zero bits followed by the counter little-endian.
///
/// Two ways to use it:
/// - `encryptWithAd` / `decryptWithAd` use and advance the implicit counter
///   (handshake and in-order channels, as the spec says);
/// - `seal(nonce:...)` / `open(nonce:...)` take an explicit counter and change no
///   state at all — the UDP transport (`TransportSender`/`TransportReceiver`)
///   sends the counter in the clear and uses these.
public struct CipherState: Sendable {
    public static let keyLength = 32
    public static let tagLength = 16
    /// 2^64-1 is reserved by Noise (it is the rekey nonce); no message may use it.
    public static let reservedNonce = UInt64.max

    private var key: SymmetricKey?
    /// The next implicit nonce (`n` in the spec).
    public private(set) var nonce: UInt64 = 0

    /// An empty cipher state: `encryptWithAd` returns the plaintext unchanged.
    public init() {}

    public init(key: [UInt8]) throws(NoiseError) {
        guard key.count == Self.keyLength else {
            throw .badLength(what: "cipher key", expected: Self.keyLength, actual: key.count)
        }
        self.key = SymmetricKey(data: key)
    }

    /// For HKDF outputs, which are always 32 bytes (HASHLEN of SHA256).
    init(hkdfOutput key: [UInt8]) {
        assert(key.count == Self.keyLength)
        self.key = SymmetricKey(data: key)
    }

    public var hasKey: Bool { key != nil }

    /// Noise `SetNonce`.
    public mutating func setNonce(_ n: UInt64) { nonce = n }

    /// Noise `EncryptWithAd`: seals with the implicit counter, then increments it.
    public mutating func encryptWithAd(_ ad: [UInt8], _ plaintext: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard hasKey else { return plaintext }
        guard nonce != Self.reservedNonce else { throw .nonceExhausted }
        var out: [UInt8] = []
        out.reserveCapacity(plaintext.count + Self.tagLength)
        try withBytes(ad) { (a) throws(NoiseError) in
            try withBytes(plaintext) { (p) throws(NoiseError) in
                try seal(nonce: nonce, ad: a, plaintext: p, appendingTo: &out)
            }
        }
        nonce += 1
        return out
    }

    /// Noise `DecryptWithAd`: opens with the implicit counter. On failure nothing
    /// changes (the counter is only incremented after the tag verified).
    public mutating func decryptWithAd(_ ad: [UInt8], _ ciphertext: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard hasKey else { return ciphertext }
        guard nonce != Self.reservedNonce else { throw .nonceExhausted }
        var out: [UInt8] = []
        out.reserveCapacity(max(0, ciphertext.count - Self.tagLength))
        try withBytes(ad) { (a) throws(NoiseError) in
            try withBytes(ciphertext) { (c) throws(NoiseError) in
                try open(nonce: nonce, ad: a, ciphertext: c, appendingTo: &out)
            }
        }
        nonce += 1
        return out
    }

    /// ENCRYPT(k, n, ad, plaintext) with an explicit nonce; appends ciphertext||tag
    /// to `out`. Changes no state. Without a key it appends the plaintext.
    public func seal(nonce n: UInt64, ad: UnsafeRawBufferPointer, plaintext: UnsafeRawBufferPointer,
                     appendingTo out: inout [UInt8]) throws(NoiseError) {
        guard let key else { out.append(contentsOf: plaintext); return }
        guard n != Self.reservedNonce else { throw .nonceExhausted }
        try Self.sealRaw(key: key, nonce: n, ad: ad, plaintext: plaintext, appendingTo: &out)
    }

    /// DECRYPT(k, n, ad, ciphertext||tag) with an explicit nonce; appends the
    /// plaintext to `out`. Changes no state; on a bad tag `out` is left untouched.
    public func open(nonce n: UInt64, ad: UnsafeRawBufferPointer, ciphertext: UnsafeRawBufferPointer,
                     appendingTo out: inout [UInt8]) throws(NoiseError) {
        guard let key else { out.append(contentsOf: ciphertext); return }
        guard n != Self.reservedNonce else { throw .nonceExhausted }
        guard ciphertext.count >= Self.tagLength else { throw .authenticationFailed }
        let split = ciphertext.count - Self.tagLength
        let plain: Data
        do {
            let box = try ChaChaPoly.SealedBox(
                nonce: try Self.chachaNonce(n),
                ciphertext: UnsafeRawBufferPointer(rebasing: ciphertext[..<split]),
                tag: UnsafeRawBufferPointer(rebasing: ciphertext[split...]))
            plain = try ChaChaPoly.open(box, using: key, authenticating: ad)
        } catch {
            throw .authenticationFailed
        }
        plain.withUnsafeBytes { out.append(contentsOf: $0) }
    }

    /// Noise `Rekey`: k = ENCRYPT(k, 2^64-1, empty, 32 zero bytes)[0..<32].
    /// The counter is not reset (spec §11.3).
    public mutating func rekey() {
        guard let key else { return }
        let zeros = [UInt8](repeating: 0, count: Self.keyLength)
        var out: [UInt8] = []
        zeros.withUnsafeBytes { z in
            // Cannot fail: the key is 32 bytes and the nonce is well formed.
            try? Self.sealRaw(key: key, nonce: Self.reservedNonce, ad: UnsafeRawBufferPointer(start: nil, count: 0),
                              plaintext: z, appendingTo: &out)
        }
        self.key = SymmetricKey(data: out.prefix(Self.keyLength))
    }

    private static func sealRaw(key: SymmetricKey, nonce n: UInt64, ad: UnsafeRawBufferPointer,
                                plaintext: UnsafeRawBufferPointer, appendingTo out: inout [UInt8]) throws(NoiseError) {
        do {
            let box = try ChaChaPoly.seal(plaintext, using: key, nonce: try chachaNonce(n), authenticating: ad)
            box.ciphertext.withUnsafeBytes { out.append(contentsOf: $0) }
            box.tag.withUnsafeBytes { out.append(contentsOf: $0) }
        } catch {
            throw .authenticationFailed
        }
    }

    /// 4 zero bytes then the counter as 8 little-endian bytes (Noise §12.3).
    /// Built on the stack: 12 bytes fit in Data's inline storage, so no heap use.
    @inline(__always)
    static func chachaNonce(_ n: UInt64) throws -> ChaChaPoly.Nonce {
        var words: (UInt32, UInt32, UInt32) = (0, UInt32(truncatingIfNeeded: n).littleEndian,
                                               UInt32(truncatingIfNeeded: n >> 32).littleEndian)
        return try withUnsafeBytes(of: &words) { try ChaChaPoly.Nonce(data: $0) }
    }
}
