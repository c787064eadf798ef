/// Why a datagram could not be decoded. Every case is a counted drop reason on the
/// host; none of them ever reaches an injector.
public enum WireError: Error, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case truncated
    case badMagic
    case unsupportedVersion
    case unknownKind
    case reservedNotZero
    case zeroSession
    case unknownMessageType
    case trailingBytes
    case invalidButton
    case invalidButtonState
    case invalidBatchCount
    case invalidFields
    case nonFiniteValue
    case invalidReason
    /// A stick axis of -32768: the range is ±32767, so each value has one encoding.
    case invalidAnalog

    public var description: String {
        switch self {
        case .truncated: "truncated"
        case .badMagic: "bad-magic"
        case .unsupportedVersion: "unsupported-version"
        case .unknownKind: "unknown-kind"
        case .reservedNotZero: "reserved-not-zero"
        case .zeroSession: "zero-session"
        case .unknownMessageType: "unknown-message-type"
        case .trailingBytes: "trailing-bytes"
        case .invalidButton: "invalid-button"
        case .invalidButtonState: "invalid-button-state"
        case .invalidBatchCount: "invalid-batch-count"
        case .invalidFields: "invalid-fields"
        case .nonFiniteValue: "non-finite-value"
        case .invalidReason: "invalid-reason"
        case .invalidAnalog: "invalid-analog"
        }
    }
}
