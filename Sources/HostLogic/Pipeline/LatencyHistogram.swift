/// A latency distribution in microseconds with a fixed, small set of log-linear buckets:
/// exact below 64 µs, then 32 buckets per power of two (at most 3.1% above the true
/// value) up to about 67 s; larger values count in the last bucket. Recording is a few
/// integer operations with no allocation; a percentile or a range count scans 736
/// counters, so a status snapshot of many controllers stays cheap (the HDR histograms it
/// replaced, through generic code, cost 8–15 ms per snapshot with 64 sessions).
package struct LatencyHistogram: Sendable, Equatable {
    static let linear: UInt64 = 64
    static let subBuckets = 32
    static let octaves = 21            // 2^6 ... 2^26 µs (about 67 s)
    static let bucketCount = Int(linear) + octaves * subBuckets

    private var counts: [UInt32]
    package private(set) var totalCount: UInt64 = 0
    package private(set) var max: UInt64 = 0
    package private(set) var min: UInt64 = .max

    package init() { counts = [UInt32](repeating: 0, count: Self.bucketCount) }

    static func index(of value: UInt64) -> Int {
        guard value >= linear else { return Int(value) }
        let octave = 63 - value.leadingZeroBitCount            // 6 ...
        guard octave - 6 < octaves else { return bucketCount - 1 }
        let sub = Int((value >> UInt64(octave - 5)) & 31)
        return Int(linear) + (octave - 6) * subBuckets + sub
    }

    /// The largest value that lands in bucket `index`.
    static func highestValue(in index: Int) -> UInt64 {
        guard index >= Int(linear) else { return UInt64(index) }
        let octave = (index - Int(linear)) / subBuckets + 6
        let sub = UInt64((index - Int(linear)) % subBuckets)
        let width = UInt64(1) << UInt64(octave - 5)
        return (UInt64(32) + sub) * width + width - 1
    }

    static func lowestValue(in index: Int) -> UInt64 {
        guard index >= Int(linear) else { return UInt64(index) }
        let octave = (index - Int(linear)) / subBuckets + 6
        let sub = UInt64((index - Int(linear)) % subBuckets)
        return (UInt64(32) + sub) << UInt64(octave - 5)
    }

    @discardableResult
    package mutating func record(_ value: UInt64) -> Bool {
        counts[Self.index(of: value)] &+= 1
        totalCount += 1
        if value > max { max = value }
        if value < min { min = value }
        return true
    }

    /// The value at or below which `percentile` % of the recorded values fall (the top of
    /// that bucket, never above the largest value recorded); 0 when empty.
    package func valueAtPercentile(_ percentile: Double) -> UInt64 {
        guard totalCount > 0 else { return 0 }
        let wanted = Swift.max(1, UInt64((Double(totalCount) * Swift.min(100, percentile) / 100).rounded(.up)))
        var seen: UInt64 = 0
        for i in counts.indices {
            seen += UInt64(counts[i])
            // The last bucket also holds everything beyond the range: its top is the largest value.
            if seen >= wanted { return i == Self.bucketCount - 1 ? max : Swift.min(Self.highestValue(in: i), max) }
        }
        return max
    }

    /// How many recorded values fall in the buckets whose lowest value is in `range`
    /// (so adjacent ranges never count a bucket twice).
    package func count(within range: ClosedRange<UInt64>) -> UInt64 {
        let low = Self.index(of: range.lowerBound), high = Self.index(of: range.upperBound)
        var n: UInt64 = 0
        for i in low...high where range.contains(Self.lowestValue(in: i)) { n += UInt64(counts[i]) }
        return n
    }

    package mutating func add(_ other: LatencyHistogram) {
        for i in counts.indices { counts[i] &+= other.counts[i] }
        totalCount += other.totalCount
        max = Swift.max(max, other.max)
        min = Swift.min(min, other.min)
    }
}
