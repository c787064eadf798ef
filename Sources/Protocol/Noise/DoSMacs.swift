import Crypto

/// WireGuard-style mac1/mac2 for handshake datagrams (docs/NOISE.md §5), with
/// HMAC-SHA256 truncated to 16 bytes in place of keyed BLAKE2s.
///
/// - mac1 = HMAC(SHA256("mac1----" || responder static pk), bytes before mac1)[0..<16]:
///   proves the sender knows the host's public key; checked before any DH.
/// - mac2 = HMAC(cookie, bytes before mac2)[0..<16], or 16 zero bytes without a
///   cookie: proves the sender can receive at its source address.
public enum DoSMacs {
    public static let macLength = 16

    public static func mac1Key(responderStatic: [UInt8]) -> [UInt8] {
        NoiseHash.hash(Array("mac1----".utf8), responderStatic)
    }

    public static func cookieKey(responderStatic: [UInt8]) -> [UInt8] {
        NoiseHash.hash(Array("cookie--".utf8), responderStatic)
    }

    /// HMAC-SHA256(key, data) truncated to 16 bytes.
    public static func mac(key: [UInt8], _ data: some Sequence<UInt8>) -> [UInt8] {
        var m = HMAC<SHA256>(key: SymmetricKey(data: key))
        m.update(data: Array(data))
        return Array(Array(m.finalize()).prefix(macLength))
    }

    /// Checks mac1 of an encoded handshake datagram (constant-time compare).
    public static func verifyMac1(_ datagram: [UInt8], mac1Key: [UInt8]) -> Bool {
        guard datagram.count >= HandshakeDatagram.overhead else { return false }
        let end = datagram.count - 2 * macLength
        return constantTimeEqual(mac(key: mac1Key, datagram[..<end]), datagram[end..<(end + macLength)])
    }

    /// Checks mac2 against the cookie this source address should be using.
    public static func verifyMac2(_ datagram: [UInt8], cookie: [UInt8]) -> Bool {
        guard datagram.count >= HandshakeDatagram.overhead else { return false }
        let end = datagram.count - macLength
        return constantTimeEqual(mac(key: cookie, datagram[..<end]), datagram[end...])
    }

    static func constantTimeEqual(_ a: [UInt8], _ b: ArraySlice<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for (x, y) in zip(a, b) { diff |= x ^ y }
        return diff == 0
    }
}
