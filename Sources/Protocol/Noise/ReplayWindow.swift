/// Anti-replay sliding window for explicit transport counters (RFC 6479 style,
/// as WireGuard does it): a ring of 64 blocks of 64 bits. Counters up to
/// `windowSize` (4032) below the greatest accepted one are still accepted once,
/// so reordering by that many packets is tolerated.
///
/// Use `check` before authenticating and `commit` only after the AEAD tag
/// verified: a forged packet can then never move or poison the window.
public struct ReplayWindow: Hashable, Sendable {
    static let blockBits: UInt64 = 64
    static let blockCount = 64 // power of two
    static let totalBits = UInt64(blockCount) * blockBits
    /// Counters more than this far below the greatest accepted counter are rejected.
    public static let windowSize = totalBits - blockBits
    /// Counters at or above this are rejected outright (WireGuard's REJECT_AFTER_MESSAGES).
    public static let rejectAfterMessages: UInt64 = UInt64.max - (1 << 13)

    private var blocks = [UInt64](repeating: 0, count: blockCount)
    /// The greatest counter committed so far (0 before any).
    public private(set) var greatest: UInt64 = 0

    public init() {}

    /// True if `counter` has not been seen and is inside the window. Pure.
    public func check(_ counter: UInt64) -> Bool {
        guard counter < Self.rejectAfterMessages else { return false }
        if counter > greatest { return true }
        if greatest - counter >= Self.windowSize { return false }
        let (block, bit) = Self.position(counter)
        return blocks[block] & bit == 0
    }

    /// Records `counter` as seen. Returns false (and changes nothing) if `check`
    /// would have rejected it, so a check/commit race cannot double-accept.
    @discardableResult
    public mutating func commit(_ counter: UInt64) -> Bool {
        guard check(counter) else { return false }
        if counter > greatest {
            let current = greatest / Self.blockBits
            let target = counter / Self.blockBits
            let toClear = min(target - current, UInt64(Self.blockCount))
            var i: UInt64 = 1
            while i <= toClear {
                blocks[Int((current + i) & UInt64(Self.blockCount - 1))] = 0
                i += 1
            }
            greatest = counter
        }
        let (block, bit) = Self.position(counter)
        blocks[block] |= bit
        return true
    }

    @inline(__always)
    private static func position(_ counter: UInt64) -> (block: Int, bit: UInt64) {
        (Int((counter / blockBits) & UInt64(blockCount - 1)), 1 << (counter % blockBits))
    }
}
