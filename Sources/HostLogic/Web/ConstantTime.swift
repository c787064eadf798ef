/// Comparison whose running time depends only on the lengths, not on where the bytes differ.
package enum ConstantTime {
    /// True when `a` and `b` hold the same bytes. Every byte pair is visited and folded
    /// into one accumulator with XOR/OR, with no early exit; only a length mismatch
    /// returns at once (lengths are not secret: both sides are SHA-256 digests).
    package static func equal(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        var diff: UInt8 = 0
        for (x, y) in zip(a, b) { diff |= x ^ y }
        return diff == 0
    }
}
