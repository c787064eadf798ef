import Crypto
import Foundation
import RemotionProtocol

package enum WebPairingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The secret was never issued, has expired, or was already used (not told apart,
    /// so a guesser learns nothing). The 403 body of POST /api/pair.
    case unknownSecret

    package var description: String {
        switch self {
        case .unknownSecret: "this pairing link is unknown, expired or already used; show a new QR code on the host and scan it again"
        }
    }
}

/// What a successful pairing gives: the record to store, and the credential to send to
/// the phone once (in the POST /api/pair response) and then forget.
package struct WebPairing: Sendable, Hashable {
    package var device: WebDevice
    package var credential: String
    /// Which link was used (`WebPairingDesk.Opened.link`): `remotion pair --web` answers the
    /// phone that used the link it showed, not whichever phone asked first.
    package var link: String = ""
}

/// One-time pairing secrets for the web controller (sans-IO: the time is a parameter).
///
/// `open` makes a secret of 128 random bits (base64url, 22 characters) valid for `window`
/// seconds; the host puts it in the QR code's `#pair=`. `redeem` accepts each secret once:
/// success consumes it, a wrong secret consumes nothing. Only SHA-256 digests of the open
/// secrets are kept, and a presented secret is compared with every one of them in constant time.
package struct WebPairingDesk: Sendable {
    package static let defaultWindow: TimeInterval = 300
    package static let secretLength = 16
    /// At most this many secrets are open at once; opening another drops the oldest.
    package static let maxOpen = 8

    struct OpenSecret: Sendable, Hashable {
        var digest: [UInt8]
        var expires: Date
        var link: String
    }

    /// A new link: its secret (for the URL's `#pair=`) and a name for it that is no secret
    /// (16 hex digits), which the request its phone makes carries.
    package struct Opened: Sendable, Hashable {
        package var secret: String
        package var link: String
    }

    package let window: TimeInterval
    private(set) var openSecrets: [OpenSecret] = []

    package init(window: TimeInterval = WebPairingDesk.defaultWindow) {
        self.window = window
    }

    /// How many secrets can still be redeemed at `now`.
    package func openCount(now: Date) -> Int { openSecrets.filter { now < $0.expires }.count }

    /// When the next open secret expires (for a UI countdown or a timer), nil if none.
    package func nextDeadline(now: Date) -> Date? { openSecrets.map(\.expires).filter { now < $0 }.min() }

    /// Makes a new secret, valid until `now + window`.
    package mutating func open(now: Date) -> String {
        var rng = SecureRandom()
        return open(now: now, using: &rng)
    }

    package mutating func open(now: Date, using rng: inout some RandomNumberGenerator) -> String {
        openLink(now: now, using: &rng).secret
    }

    /// Makes a new secret and names its link.
    package mutating func openLink(now: Date, using rng: inout some RandomNumberGenerator) -> Opened {
        expire(now: now)
        let secret = Self.randomBytes(Self.secretLength, using: &rng)
        let link = Hex.encode(Self.randomBytes(8, using: &rng))
        openSecrets.append(OpenSecret(digest: Array(SHA256.hash(data: secret)), expires: now + window, link: link))
        if openSecrets.count > Self.maxOpen { openSecrets.removeFirst(openSecrets.count - Self.maxOpen) }
        return Opened(secret: Base64URL.encode(secret), link: link)
    }

    /// Withdraws every open secret (pairing cancelled).
    package mutating func closeAll() { openSecrets.removeAll() }

    /// Forgets secrets that expired at or before `now`.
    package mutating func expire(now: Date) { openSecrets.removeAll { now >= $0.expires } }

    /// Redeems `secret` for a new device named `name` (cleaned: see `WebDevice.cleanName`).
    package mutating func redeem(secret: String, name: String, now: Date) throws(WebPairingError) -> WebPairing {
        var rng = SecureRandom()
        return try redeem(secret: secret, name: name, now: now, using: &rng)
    }

    package mutating func redeem(
        secret: String, name: String, now: Date, using rng: inout some RandomNumberGenerator
    ) throws(WebPairingError) -> WebPairing {
        expire(now: now)
        guard let bytes = Base64URL.decode(secret), bytes.count == Self.secretLength else { throw .unknownSecret }
        let digest = Array(SHA256.hash(data: bytes))
        // Compare with every open secret, without stopping at a match.
        var match: Int?
        for (i, candidate) in openSecrets.enumerated() where ConstantTime.equal(candidate.digest, digest) {
            match = i
        }
        guard let index = match else { throw .unknownSecret }
        let link = openSecrets.remove(at: index).link

        let credential = Self.randomBytes(WebDevice.credentialLength, using: &rng)
        let device = WebDevice(
            id: Hex.encode(Self.randomBytes(8, using: &rng)),
            name: WebDevice.cleanName(name),
            credentialHash: WebDevice.hash(credential: credential),
            created: now
        )
        return WebPairing(device: device, credential: Base64URL.encode(credential), link: link)
    }

    package static func randomBytes(_ count: Int, using rng: inout some RandomNumberGenerator) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count + 8)
        while out.count < count {
            withUnsafeBytes(of: rng.next() as UInt64) { out += $0 }
        }
        return Array(out.prefix(count))
    }
}
