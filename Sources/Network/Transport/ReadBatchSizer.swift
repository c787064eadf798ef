/// How many datagrams the host's socket asks for per recvmmsg. NIO prepares every slot
/// of the vector (a message header and a 2 KiB buffer slice each) on every read, so
/// 64 slots cost a controller at 250 Hz, whose datagrams arrive one per wake-up, as
/// much as a saturated link. The host records each read batch and, on its report
/// tick, picks the smallest power of two with room to spare for the largest batch
/// seen (8 at least, 64 at most); a burst that fills the vector raises it at once on
/// the next tick, and nothing is lost meanwhile: the rest waits for the next read.
struct ReadBatchSizer {
    static let smallest = 8
    static let largest = 64
    private(set) var current = largest
    private var largestBatch = 0

    /// A read batch of `count` datagrams ended.
    mutating func batchRead(_ count: Int) { largestBatch = max(largestBatch, count) }

    /// On the tick: the vector size to use from now on, if it should change.
    mutating func resize() -> Int? {
        defer { largestBatch = 0 }
        var wanted = Self.smallest
        while wanted < Self.largest && wanted < 2 * largestBatch { wanted *= 2 }
        guard wanted != current else { return nil }
        current = wanted
        return wanted
    }
}
