/// A TAI64N timestamp (12 bytes, big-endian): 8-byte TAI64 label
/// 2^62 + 10 + Unix seconds (the constant WireGuard uses) and 4-byte nanoseconds.
/// Carried as the first 12 bytes of the IK initiation payload (docs/NOISE.md §6).
public struct TAI64N: Hashable, Comparable, Sendable {
    public static let length = 12
    public static let labelOffset: UInt64 = (1 << 62) + 10

    public var label: UInt64
    public var nanoseconds: UInt32

    public init(label: UInt64, nanoseconds: UInt32) {
        self.label = label
        self.nanoseconds = nanoseconds
    }

    /// From wall-clock time, which the caller reads (the core reads no clock).
    public init(unixSeconds: Int64, nanoseconds: UInt32) {
        label = UInt64(bitPattern: Int64(bitPattern: Self.labelOffset) &+ unixSeconds)
        self.nanoseconds = min(nanoseconds, 999_999_999)
    }

    public init(bytes: some Collection<UInt8>) throws(NoiseError) {
        guard bytes.count == Self.length else { throw .badLength(what: "TAI64N", expected: Self.length, actual: bytes.count) }
        var l: UInt64 = 0
        var n: UInt32 = 0
        for (i, b) in bytes.enumerated() {
            if i < 8 { l = l << 8 | UInt64(b) } else { n = n << 8 | UInt32(b) }
        }
        guard n <= 999_999_999 else { throw .malformedMessage("TAI64N nanoseconds out of range") }
        label = l
        nanoseconds = n
    }

    public var bytes: [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: label >> (56 - 8 * $0)) }
            + (0..<4).map { UInt8(truncatingIfNeeded: nanoseconds >> (24 - 8 * $0)) }
    }

    public static func < (a: TAI64N, b: TAI64N) -> Bool {
        (a.label, a.nanoseconds) < (b.label, b.nanoseconds)
    }
}

/// Replay guard for IK initiations (WireGuard's rule): per initiator static
/// key, remember the greatest timestamp accepted and reject any initiation whose
/// timestamp is not strictly greater. Call `accept` only after the initiation
/// decrypted (the timestamp is then authenticated by the initiator's static key),
/// and only for static keys of paired controllers, which bounds the memory.
public struct InitiationReplayGuard: Sendable {
    private var latest: [[UInt8]: TAI64N] = [:]

    public init() {}

    /// The greatest timestamp accepted from this initiator so far.
    public func latestTimestamp(for initiatorStatic: [UInt8]) -> TAI64N? { latest[initiatorStatic] }

    /// True if `timestamp` is newer than everything accepted from this key. Pure.
    public func check(_ timestamp: TAI64N, from initiatorStatic: [UInt8]) -> Bool {
        guard let last = latest[initiatorStatic] else { return true }
        return timestamp > last
    }

    /// Records the timestamp, or throws `staleTimestamp` and changes nothing.
    public mutating func accept(_ timestamp: TAI64N, from initiatorStatic: [UInt8]) throws(NoiseError) {
        guard check(timestamp, from: initiatorStatic) else { throw .staleTimestamp }
        latest[initiatorStatic] = timestamp
    }

    /// Forgets a controller (e.g. when it is unpaired).
    public mutating func forget(_ initiatorStatic: [UInt8]) { latest[initiatorStatic] = nil }

    /// Splits an IK initiation payload into its timestamp and application part.
    public static func splitPayload(_ payload: [UInt8]) throws(NoiseError) -> (timestamp: TAI64N, rest: [UInt8]) {
        guard payload.count >= TAI64N.length else { throw .malformedMessage("IK payload lacks the TAI64N timestamp") }
        return (try TAI64N(bytes: payload.prefix(TAI64N.length)), Array(payload.dropFirst(TAI64N.length)))
    }
}
