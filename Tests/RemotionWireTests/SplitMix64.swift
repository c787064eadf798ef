/// A tiny seeded PRNG (Steele, Lea & Flood's SplitMix64) so every property test is
/// deterministic: the same seed gives the same inputs on every machine and run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &self) < p }
    mutating func byte() -> UInt8 { UInt8.random(in: .min ... .max, using: &self) }
    mutating func bytes(_ n: Int) -> [UInt8] { (0..<n).map { _ in byte() } }
}

/// Hex helpers for the golden tests ("52 01 01 00" or "52010100" both parse).
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { b in
        let s = String(b, radix: 16)
        return b < 16 ? "0" + s : s
    }.joined(separator: " ")
}

func bytes(hex: String) -> [UInt8] {
    let digits = hex.filter { !$0.isWhitespace }
    precondition(digits.count % 2 == 0, "odd hex string")
    var out: [UInt8] = []
    var i = digits.startIndex
    while i < digits.endIndex {
        let j = digits.index(i, offsetBy: 2)
        out.append(UInt8(digits[i..<j], radix: 16)!)
        i = j
    }
    return out
}
