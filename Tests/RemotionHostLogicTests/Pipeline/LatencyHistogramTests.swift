import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The fixed-bucket latency histogram and the pointer trail ring that replaced the
/// per-controller HDR histograms and [[x, y]] lists in the host's status snapshots.
@Suite struct LatencyHistogramTests {
    @Test func percentilesAreWithinOneBucketOfTheTruth() {
        var h = LatencyHistogram()
        for v in 1...10_000 { h.record(UInt64(v)) }
        #expect(h.totalCount == 10_000)
        #expect(h.max == 10_000 && h.min == 1)
        for (p, truth) in [(50.0, 5_000.0), (99.0, 9_900.0), (100.0, 10_000.0)] {
            let got = Double(h.valueAtPercentile(p))
            #expect(got >= truth && got <= truth * 1.032, "p\(p): \(got) vs \(truth)")
        }
    }

    @Test func smallValuesAreExactAndHugeOnesLandInTheLastBucket() {
        var h = LatencyHistogram()
        for v: UInt64 in [0, 1, 63] { h.record(v) }
        #expect(h.valueAtPercentile(34) == 1)
        #expect(h.valueAtPercentile(100) == 63)
        h.record(UInt64.max)
        #expect(h.valueAtPercentile(100) == UInt64.max)
        #expect(h.count(within: 0...63) == 3)
    }

    @Test func adjacentRangesNeverCountABucketTwice() {
        var h = LatencyHistogram()
        for v in stride(from: 0, to: 70_000, by: 7) { h.record(UInt64(v)) }
        let edges: [UInt64] = [0, 250, 500, 1_000, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000]
        let counted = edges.indices.reduce(UInt64(0)) { sum, i in
            sum + h.count(within: edges[i]...(i + 1 < edges.count ? edges[i + 1] - 1 : h.max))
        }
        #expect(counted == h.totalCount)
    }

    @Test func bucketBoundsAreConsistent() {
        for i in 0..<LatencyHistogram.bucketCount - 1 {
            let low = LatencyHistogram.lowestValue(in: i), high = LatencyHistogram.highestValue(in: i)
            #expect(LatencyHistogram.index(of: low) == i && LatencyHistogram.index(of: high) == i)
            #expect(LatencyHistogram.lowestValue(in: i + 1) == high + 1)
        }
    }

    @Test func mergingAddsCounts() {
        var a = LatencyHistogram(), b = LatencyHistogram()
        for v in 0..<100 { a.record(UInt64(v)) }
        for v in 100..<300 { b.record(UInt64(v)) }
        a.add(b)
        #expect(a.totalCount == 300 && a.max == 299 && a.min == 0)
        #expect(Double(a.valueAtPercentile(50)) >= 149 && Double(a.valueAtPercentile(50)) <= 149 * 1.032)
    }
}

@Suite struct PointerTrailTests {
    @Test func keepsTheNewestPointsOldestFirst() {
        var t = PointerTrail(capacity: 4)
        #expect(t.points.isEmpty)
        for i in 1...3 { t.append(x: i, y: -i) }
        #expect(t.points == [ScreenPoint(x: 1, y: -1), ScreenPoint(x: 2, y: -2), ScreenPoint(x: 3, y: -3)])
        for i in 4...10 { t.append(x: i, y: -i) }
        #expect(t.points == (7...10).map { ScreenPoint(x: $0, y: -$0) })
        #expect(t.count == 4)
    }
}
