
/// The string a host shows for pairing: its static public key, a one-time 128-bit
/// secret and where to reach it.
/// `remotion-pair:v1:<base32 host key>:<base32 secret>@<address>:<port>`.
/// Whoever holds it can pair while the window is open (the user still confirms the
/// controller's fingerprint on the host), so show it only to the controller's owner.
public struct PairingCode: Sendable, Equatable, CustomStringConvertible {
    public static let prefix = "remotion-pair:v1:"
    public static let secretLength = 16

    public var hostKey: [UInt8]
    public var secret: [UInt8]
    /// "127.0.0.1:7474" or "[::1]:7474" (parsed by the adapter).
    public var address: String

    public init(hostKey: [UInt8], secret: [UInt8], address: String) {
        self.hostKey = hostKey; self.secret = secret; self.address = address
    }

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    public var description: String {
        "\(Self.prefix)\(Base32.encode(hostKey)):\(Base32.encode(secret))@\(address)"
    }

    public static func parse(_ text: String) throws(ParseError) -> PairingCode {
        let trimmed = text.trimmingWhitespace
        guard trimmed.hasPrefix(prefix) else {
            throw ParseError(description: "a pairing code starts with '\(prefix)'")
        }
        let body = trimmed.dropFirst(prefix.count)
        guard let at = body.firstIndex(of: "@") else { throw ParseError(description: "the pairing code has no '@address:port'") }
        let keys = body[..<at].split(separator: ":", omittingEmptySubsequences: false)
        guard keys.count == 2, let key = Base32.decode(keys[0]), key.count == X25519.keyLength,
              let secret = Base32.decode(keys[1]), secret.count == secretLength else {
            throw ParseError(description: "the pairing code's key or secret is damaged (copy it again)")
        }
        let address = String(body[body.index(after: at)...])
        guard !address.isEmpty else { throw ParseError(description: "the pairing code has an empty address") }
        return PairingCode(hostKey: key, secret: secret, address: address)
    }

    /// The 32-byte XXpsk3 psk: SHA256("remotion pairing psk v1" || secret).
    public var psk: [UInt8] { Self.psk(secret: secret) }

    public static func psk(secret: [UInt8]) -> [UInt8] {
        NoiseHash.hash(Array("remotion pairing psk v1".utf8) + secret)
    }
}

extension String {
    var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
