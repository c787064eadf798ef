/// SplitMix64 (Steele, Lea, Flood 2014): a tiny, fast, seeded PRNG with a full 2^64 period.
///
/// Deterministic across platforms and runs, so the same seed replays the same impairment
/// decisions. Not for cryptography.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in [0, 1) with 53 bits of precision.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// True with probability `percent`/100 (always false at 0, always true at 100).
    /// Consumes exactly one draw whatever the percentage, so decisions stay aligned.
    public mutating func chance(percent: Double) -> Bool {
        nextUnit() * 100 < percent
    }
}

extension SplitMix64 {
    /// True with probability `p` (0…1).
    public mutating func chance(_ p: Double) -> Bool { nextUnit() < p }
    public mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
    public mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in byte() } }
}
