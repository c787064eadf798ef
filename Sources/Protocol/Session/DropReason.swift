
/// Why the host dropped a datagram. Counted, logged in aggregate, never injected.
public enum DropReason: Hashable, Sendable, CustomStringConvertible {
    case malformed(WireError)
    /// A datagram kind this host does not accept (e.g. plain when encryption is required).
    case unsupportedKind
    /// A message for a session that does not exist (only a ping opens one).
    case unknownSession
    /// A known session id from another address.
    case addressMismatch
    case tooManySessions
    /// A motion packet older than the newest one seen.
    case staleMotion
    /// A message only the other side sends (a pong or an ack sent to the host).
    case unexpectedMessage
    /// Decryption or authentication failed (security layer).
    case authenticationFailed
    /// Rate limit or cookie required (security layer).
    case rateLimited
    case replayed

    public var description: String {
        switch self {
        case .malformed(let e): "malformed:\(e)"
        case .unsupportedKind: "unsupported-kind"
        case .unknownSession: "unknown-session"
        case .addressMismatch: "address-mismatch"
        case .tooManySessions: "too-many-sessions"
        case .staleMotion: "stale-motion"
        case .unexpectedMessage: "unexpected-message"
        case .authenticationFailed: "authentication-failed"
        case .rateLimited: "rate-limited"
        case .replayed: "replayed"
        }
    }
}

/// Drop counts by reason.
public struct DropCounters: Sendable, Equatable {
    public private(set) var counts: [DropReason: Int] = [:]
    public init() {}
    public mutating func count(_ reason: DropReason) { counts[reason, default: 0] += 1 }
    public var total: Int { counts.values.reduce(0, +) }
    public subscript(_ reason: DropReason) -> Int { counts[reason] ?? 0 }
    /// "reason=count" pairs, largest first, for logs and summaries.
    public var summary: String {
        counts.sorted { $0.value > $1.value || ($0.value == $1.value && "\($0.key)" < "\($1.key)") }
            .map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}
