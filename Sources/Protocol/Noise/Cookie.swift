import Crypto

/// Responder side of the cookie mechanism (docs/NOISE.md §5). The secret
/// rotates every two minutes; the caller supplies fresh random secrets and the
/// current time, so everything here is deterministic.
public struct CookieChecker: Sendable {
    public static let secretLifetime: Duration = .seconds(120)
    public static let secretLength = 32
    public static let cookieLength = 16

    public let mac1Key: [UInt8]
    public let cookieKey: [UInt8]
    private var secret: [UInt8]
    public private(set) var secretCreatedAt: Instant

    /// - Parameters:
    ///   - responderStatic: the host's static public key.
    ///   - secret: 32 random bytes; `now`: when it was drawn.
    public init(responderStatic: [UInt8], secret: [UInt8], now: Instant) throws(NoiseError) {
        guard secret.count == Self.secretLength else {
            throw .badLength(what: "cookie secret", expected: Self.secretLength, actual: secret.count)
        }
        mac1Key = DoSMacs.mac1Key(responderStatic: responderStatic)
        cookieKey = DoSMacs.cookieKey(responderStatic: responderStatic)
        self.secret = secret
        secretCreatedAt = now
    }

    /// True once the secret is two minutes old; then call `rotate`.
    public func secretIsDue(now: Instant) -> Bool { now - secretCreatedAt >= Self.secretLifetime }

    public mutating func rotate(secret newSecret: [UInt8], now: Instant) throws(NoiseError) {
        guard newSecret.count == Self.secretLength else {
            throw .badLength(what: "cookie secret", expected: Self.secretLength, actual: newSecret.count)
        }
        secret = newSecret
        secretCreatedAt = now
    }

    /// Rotates with `random(32)` if the secret is due. Returns true if it rotated.
    @discardableResult
    public mutating func rotateIfDue(now: Instant, random: (Int) -> [UInt8]) throws(NoiseError) -> Bool {
        guard secretIsDue(now: now) else { return false }
        try rotate(secret: random(Self.secretLength), now: now)
        return true
    }

    /// cookie = HMAC-SHA256(secret, source address bytes)[0..<16]. The address
    /// bytes are the IP address (4 or 16 bytes) followed by the UDP port, big-endian.
    public func cookie(sourceAddress: [UInt8]) -> [UInt8] {
        DoSMacs.mac(key: secret, sourceAddress)
    }

    public func verifyMac1(_ datagram: [UInt8]) -> Bool { DoSMacs.verifyMac1(datagram, mac1Key: mac1Key) }

    public func verifyMac2(_ datagram: [UInt8], sourceAddress: [UInt8]) -> Bool {
        DoSMacs.verifyMac2(datagram, cookie: cookie(sourceAddress: sourceAddress))
    }

    /// Builds the cookie reply (kind 0x04) to a handshake datagram whose mac1
    /// verified. `nonce` must be 12 fresh random bytes.
    public func cookieReply(to datagram: [UInt8], sourceAddress: [UInt8], nonce: [UInt8]) throws(NoiseError) -> [UInt8] {
        let parsed = try HandshakeDatagram.decode(datagram)
        return try CookieReply.seal(receiverIndex: parsed.senderIndex, cookie: cookie(sourceAddress: sourceAddress),
                                    cookieKey: cookieKey, answeredMac1: try HandshakeDatagram.mac1(of: datagram),
                                    nonce: nonce)
    }
}

/// Cookie reply datagram (kind 0x04), docs/NOISE.md §4.3:
/// header(8, session = the answered datagram's sender index) | nonce(12) |
/// ChaChaPoly(cookieKey, nonce, ad: answered mac1, cookie(16)) incl. tag(16).
/// swift-crypto has no XChaChaPoly, so the 12-byte nonce is random and sent along.
public enum CookieReply {
    public static let nonceLength = 12
    public static let length = datagramHeaderSize + nonceLength + CookieChecker.cookieLength + CipherState.tagLength

    public static func seal(receiverIndex: UInt32, cookie: [UInt8], cookieKey: [UInt8], answeredMac1: [UInt8],
                            nonce: [UInt8]) throws(NoiseError) -> [UInt8] {
        guard nonce.count == nonceLength else { throw .badLength(what: "cookie nonce", expected: nonceLength, actual: nonce.count) }
        var out: [UInt8] = []
        out.reserveCapacity(length)
        TransportLayout.appendHeader(kind: .cookieReply, session: receiverIndex, to: &out)
        out += nonce
        do {
            let box = try ChaChaPoly.seal(cookie, using: SymmetricKey(data: cookieKey),
                                          nonce: try ChaChaPoly.Nonce(data: nonce), authenticating: answeredMac1)
            out += Array(box.ciphertext) + Array(box.tag)
        } catch {
            throw .authenticationFailed
        }
        return out
    }

    /// Opens a cookie reply; `answeredMac1` is the mac1 of the datagram we sent.
    /// Returns the receiver index and the 16-byte cookie.
    public static func open(_ datagram: [UInt8], cookieKey: [UInt8],
                            answeredMac1: [UInt8]) throws(NoiseError) -> (receiverIndex: UInt32, cookie: [UInt8]) {
        guard datagram.count == length else { throw .malformedDatagram("cookie reply has length \(datagram.count)") }
        let receiver = try withBytes(datagram) { (b) throws(NoiseError) in
            try TransportLayout.readHeader(b, expecting: .cookieReply)
        }
        let n = datagramHeaderSize
        let c = n + nonceLength
        let t = c + CookieChecker.cookieLength
        do {
            let box = try ChaChaPoly.SealedBox(nonce: try ChaChaPoly.Nonce(data: datagram[n..<c]),
                                               ciphertext: datagram[c..<t], tag: datagram[t...])
            let cookie = try ChaChaPoly.open(box, using: SymmetricKey(data: cookieKey), authenticating: answeredMac1)
            return (receiver, Array(cookie))
        } catch {
            throw .authenticationFailed
        }
    }
}

/// Initiator side: remembers the latest cookie for mac2. A cookie is used for
/// 120 s minus 5 s of slack after it arrived (WireGuard's rule).
public struct CookieJar: Sendable {
    public static let usableFor: Duration = .seconds(115)
    public let cookieKey: [UInt8]
    public private(set) var cookie: [UInt8]?
    public private(set) var receivedAt: Instant?

    public init(responderStatic: [UInt8]) {
        cookieKey = DoSMacs.cookieKey(responderStatic: responderStatic)
    }

    /// Stores the cookie from a reply to the handshake datagram we sent last
    /// (`sentMac1` = its mac1). A forged reply throws and changes nothing.
    public mutating func receive(reply: [UInt8], sentMac1: [UInt8], now: Instant) throws(NoiseError) {
        let (_, c) = try CookieReply.open(reply, cookieKey: cookieKey, answeredMac1: sentMac1)
        cookie = c
        receivedAt = now
    }

    /// The cookie to key mac2 with, or nil if none or too old.
    public func currentCookie(now: Instant) -> [UInt8]? {
        guard let cookie, let receivedAt, now - receivedAt < Self.usableFor else { return nil }
        return cookie
    }
}
