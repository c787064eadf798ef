import Crypto

/// Curve25519 byte lengths and the Noise DH function.
public enum X25519 {
    public static let keyLength = 32

    /// Noise `DH(key_pair, public_key)`: the raw 32-byte X25519 shared secret.
    /// Throws `invalidPublicKey` for malformed or low-order peer keys.
    public static func dh(_ privateKey: Curve25519.KeyAgreement.PrivateKey,
                          _ publicKey: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard publicKey.count == keyLength else {
            throw .badLength(what: "X25519 public key", expected: keyLength, actual: publicKey.count)
        }
        let secret: [UInt8]
        do {
            let peer = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicKey)
            let shared = try privateKey.sharedSecretFromKeyAgreement(with: peer)
            secret = shared.withUnsafeBytes { Array($0) }
        } catch {
            throw .invalidPublicKey
        }
        // A low-order peer key gives the all-zero secret; reject it as WireGuard does,
        // so neither side can force a known key (contributory behaviour).
        guard secret.contains(where: { $0 != 0 }) else { throw .invalidPublicKey }
        return secret
    }
}

/// A Curve25519 key pair with its public key cached as bytes.
///
/// Generate keys in the adapter (`KeyPair(Curve25519.KeyAgreement.PrivateKey())`)
/// and pass them in; the core never draws randomness itself.
public struct KeyPair: Sendable {
    public let privateKey: Curve25519.KeyAgreement.PrivateKey
    /// The 32-byte public key.
    public let publicKey: [UInt8]

    public init(_ privateKey: Curve25519.KeyAgreement.PrivateKey) {
        self.privateKey = privateKey
        self.publicKey = Array(privateKey.publicKey.rawRepresentation)
    }

    /// Restores a key pair from its 32-byte private scalar (clamped by X25519).
    public init(privateKeyBytes: [UInt8]) throws(NoiseError) {
        guard privateKeyBytes.count == X25519.keyLength else {
            throw .badLength(what: "X25519 private key", expected: X25519.keyLength, actual: privateKeyBytes.count)
        }
        do {
            self.init(try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKeyBytes))
        } catch {
            throw .badLength(what: "X25519 private key", expected: X25519.keyLength, actual: privateKeyBytes.count)
        }
    }

    /// The 32-byte private scalar, for storage in a key file.
    public var privateKeyBytes: [UInt8] { Array(privateKey.rawRepresentation) }
}
