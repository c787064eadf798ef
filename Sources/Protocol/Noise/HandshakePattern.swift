/// One token of a Noise message pattern (spec §7.1, §9).
public enum NoiseToken: String, Hashable, Sendable {
    case e, s, ee, es, se, ss, psk
}

/// A Noise handshake pattern: pre-messages plus the message patterns, which
/// alternate initiator → responder, responder → initiator, ... (spec §7).
public struct HandshakePattern: Hashable, Sendable {
    /// The name as it appears in a protocol name, modifiers included ("XXpsk3").
    public let name: String
    public let initiatorPreMessage: [NoiseToken]
    public let responderPreMessage: [NoiseToken]
    /// messages[0] is sent by the initiator, messages[1] by the responder, ...
    public let messages: [[NoiseToken]]

    public init(name: String, initiatorPreMessage: [NoiseToken], responderPreMessage: [NoiseToken],
                messages: [[NoiseToken]]) {
        self.name = name
        self.initiatorPreMessage = initiatorPreMessage
        self.responderPreMessage = responderPreMessage
        self.messages = messages
    }

    /// One-way patterns (N, K, X): after the handshake only the initiator sends.
    public var isOneWay: Bool { messages.count == 1 }
    /// True if a psk modifier is present (then `e` also calls MixKey, spec §9.2).
    public var usesPSK: Bool { messages.contains { $0.contains(.psk) } }
    /// How many psks the pattern consumes, in order of appearance.
    public var pskCount: Int { messages.reduce(0) { $0 + $1.filter { $0 == .psk }.count } }

    /// The patterns Remotion uses (docs/NOISE.md). `try!` is safe: the names are
    /// constants in `basePatterns`, and the tests parse every pattern.
    public static let XX = try! named("XX")
    public static let IK = try! named("IK")
    public static let XXpsk3 = try! named("XXpsk3")

    /// Parses a pattern name such as "IK", "X1K1" or "NNpsk0+psk2".
    public static func named(_ fullName: String) throws(NoiseError) -> HandshakePattern {
        let base: Substring
        var modifiers: [Substring] = []
        if let r = fullName.firstRange(of: "psk") {
            base = fullName[..<r.lowerBound]
            modifiers = fullName[r.lowerBound...].split(separator: "+", omittingEmptySubsequences: false)
        } else {
            base = Substring(fullName)
        }
        guard let spec = basePatterns[String(base)] else { throw .unknownPattern(fullName) }
        var messages = spec.messages.map { $0.split(separator: ",").map { NoiseToken(rawValue: $0.trimmed)! } }
        for modifier in modifiers {
            guard modifier.hasPrefix("psk"), let n = Int(modifier.dropFirst(3)), n >= 0, n <= messages.count
            else { throw .unknownPattern(fullName) }
            if n == 0 { messages[0].insert(.psk, at: 0) } else { messages[n - 1].append(.psk) }
        }
        func tokens(_ s: String) -> [NoiseToken] {
            s.split(separator: ",").map { NoiseToken(rawValue: $0.trimmed)! }
        }
        return HandshakePattern(name: fullName, initiatorPreMessage: tokens(spec.initiatorPre),
                                responderPreMessage: tokens(spec.responderPre), messages: messages)
    }

    /// The fundamental and deferred patterns of Noise revision 34 (§7.4–§7.6),
    /// as (initiator pre-message, responder pre-message, messages).
    static let basePatterns: [String: (initiatorPre: String, responderPre: String, messages: [String])] = [
        // one-way
        "N": ("", "s", ["e, es"]),
        "K": ("s", "s", ["e, es, ss"]),
        "X": ("", "s", ["e, es, s, ss"]),
        // interactive, fundamental
        "NN": ("", "", ["e", "e, ee"]),
        "NK": ("", "s", ["e, es", "e, ee"]),
        "NX": ("", "", ["e", "e, ee, s, es"]),
        "KN": ("s", "", ["e", "e, ee, se"]),
        "KK": ("s", "s", ["e, es, ss", "e, ee, se"]),
        "KX": ("s", "", ["e", "e, ee, se, s, es"]),
        "XN": ("", "", ["e", "e, ee", "s, se"]),
        "XK": ("", "s", ["e, es", "e, ee", "s, se"]),
        "XX": ("", "", ["e", "e, ee, s, es", "s, se"]),
        "IN": ("", "", ["e, s", "e, ee, se"]),
        "IK": ("", "s", ["e, es, s, ss", "e, ee, se"]),
        "IX": ("", "", ["e, s", "e, ee, se, s, es"]),
        // interactive, deferred
        "NK1": ("", "s", ["e", "e, ee, es"]),
        "NX1": ("", "", ["e", "e, ee, s", "es"]),
        "X1N": ("", "", ["e", "e, ee", "s", "se"]),
        "X1K": ("", "s", ["e, es", "e, ee", "s", "se"]),
        "XK1": ("", "s", ["e", "e, ee, es", "s, se"]),
        "X1K1": ("", "s", ["e", "e, ee, es", "s", "se"]),
        "X1X": ("", "", ["e", "e, ee, s, es", "s", "se"]),
        "XX1": ("", "", ["e", "e, ee, s", "es, s, se"]),
        "X1X1": ("", "", ["e", "e, ee, s", "es, s", "se"]),
        "K1N": ("s", "", ["e", "e, ee", "se"]),
        "K1K": ("s", "s", ["e, es", "e, ee", "se"]),
        "KK1": ("s", "s", ["e", "e, ee, se, es"]),
        "K1K1": ("s", "s", ["e", "e, ee, es", "se"]),
        "K1X": ("s", "", ["e", "e, ee, s, es", "se"]),
        "KX1": ("s", "", ["e", "e, ee, se, s", "es"]),
        "K1X1": ("s", "", ["e", "e, ee, s", "se, es"]),
        "I1N": ("", "", ["e, s", "e, ee", "se"]),
        "I1K": ("", "s", ["e, es, s", "e, ee", "se"]),
        "IK1": ("", "s", ["e, s", "e, ee, se, es"]),
        "I1K1": ("", "s", ["e, s", "e, ee, es", "se"]),
        "I1X": ("", "", ["e, s", "e, ee, s, es", "se"]),
        "IX1": ("", "", ["e, s", "e, ee, se, s", "es"]),
        "I1X1": ("", "", ["e, s", "e, ee, s", "se, es"]),
    ]
}

/// A full protocol name `Noise_<pattern>_25519_ChaChaPoly_SHA256`; the only
/// DH/cipher/hash combination this target implements.
public struct NoiseProtocol: Hashable, Sendable {
    public let name: String
    public let pattern: HandshakePattern

    public init(pattern: HandshakePattern) {
        self.pattern = pattern
        self.name = "Noise_\(pattern.name)_25519_ChaChaPoly_SHA256"
    }

    public init(name: String) throws(NoiseError) {
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[0] == "Noise", parts[2] == "25519", parts[3] == "ChaChaPoly",
              parts[4] == "SHA256" else { throw .unsupportedProtocol(name) }
        self.pattern = try HandshakePattern.named(String(parts[1]))
        self.name = name
    }

    public static let XX = NoiseProtocol(pattern: .XX)
    public static let IK = NoiseProtocol(pattern: .IK)
    public static let XXpsk3 = NoiseProtocol(pattern: .XXpsk3)
}

extension Substring {
    var trimmed: String { String(self.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
