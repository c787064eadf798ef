import Crypto

/// Noise `HASH` / `HMAC-HASH` / `HKDF` for SHA256 (spec §4.3, §12.5).
public enum NoiseHash {
    public static let length = 32

    public static func hash(_ parts: [UInt8]...) -> [UInt8] {
        var h = SHA256()
        for p in parts { h.update(data: p) }
        return Array(h.finalize())
    }

    public static func hmac(key: [UInt8], _ parts: [UInt8]...) -> [UInt8] {
        var m = HMAC<SHA256>(key: SymmetricKey(data: key))
        for p in parts { m.update(data: p) }
        return Array(m.finalize())
    }

    /// Noise HKDF(chaining_key, input_key_material, num_outputs) for 2 or 3 outputs.
    public static func hkdf(chainingKey: [UInt8], inputKeyMaterial: [UInt8],
                            outputs: Int) -> (first: [UInt8], second: [UInt8], third: [UInt8]?) {
        let temp = hmac(key: chainingKey, inputKeyMaterial)
        let out1 = hmac(key: temp, [0x01])
        let out2 = hmac(key: temp, out1, [0x02])
        guard outputs == 3 else { return (out1, out2, nil) }
        let out3 = hmac(key: temp, out2, [0x03])
        return (out1, out2, out3)
    }
}

/// Noise `SymmetricState` (spec §5.2): chaining key `ck`, handshake hash `h` and
/// the handshake `CipherState`.
public struct SymmetricState: Sendable {
    public private(set) var chainingKey: [UInt8]
    public private(set) var handshakeHash: [UInt8]
    public private(set) var cipher = CipherState()

    /// Noise `InitializeSymmetric(protocol_name)`.
    public init(protocolName: String) {
        let name = Array(protocolName.utf8)
        if name.count <= NoiseHash.length {
            handshakeHash = name + [UInt8](repeating: 0, count: NoiseHash.length - name.count)
        } else {
            handshakeHash = NoiseHash.hash(name)
        }
        chainingKey = handshakeHash
    }

    public mutating func mixKey(_ inputKeyMaterial: [UInt8]) {
        let (ck, tempK, _) = NoiseHash.hkdf(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial, outputs: 2)
        chainingKey = ck
        // HASHLEN is 32, so temp_k needs no truncation.
        cipher = CipherState(hkdfOutput: tempK)
    }

    public mutating func mixHash(_ data: [UInt8]) {
        handshakeHash = NoiseHash.hash(handshakeHash, data)
    }

    public mutating func mixKeyAndHash(_ inputKeyMaterial: [UInt8]) {
        let (ck, tempH, tempK) = NoiseHash.hkdf(chainingKey: chainingKey, inputKeyMaterial: inputKeyMaterial, outputs: 3)
        chainingKey = ck
        mixHash(tempH)
        cipher = CipherState(hkdfOutput: tempK ?? [])
    }

    public mutating func encryptAndHash(_ plaintext: [UInt8]) throws(NoiseError) -> [UInt8] {
        let ciphertext = try cipher.encryptWithAd(handshakeHash, plaintext)
        mixHash(ciphertext)
        return ciphertext
    }

    public mutating func decryptAndHash(_ ciphertext: [UInt8]) throws(NoiseError) -> [UInt8] {
        let plaintext = try cipher.decryptWithAd(handshakeHash, ciphertext)
        mixHash(ciphertext)
        return plaintext
    }

    /// Noise `Split()`: the initiator-to-responder and responder-to-initiator ciphers.
    public func split() -> (initiatorToResponder: CipherState, responderToInitiator: CipherState) {
        let (k1, k2, _) = NoiseHash.hkdf(chainingKey: chainingKey, inputKeyMaterial: [], outputs: 2)
        return (CipherState(hkdfOutput: k1), CipherState(hkdfOutput: k2))
    }
}
