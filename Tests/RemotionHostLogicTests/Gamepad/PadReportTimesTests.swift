import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The benchmark stand-in pad's record (`--gamepad-sink null`): counts, receipt → written
/// in nanoseconds, and the stop line's text that scripts/bench-gamepad.sh reads.
@Suite struct PadReportTimesTests {
    @Test func writtenReportsAreTimedFailedOnesOnlyCounted() {
        var t = PadReportTimes()
        #expect(t.summary == "pad sink null (stand-in for /dev/uhid): 0 reports written, 0 failed; receipt→report not timed")
        let at = Instant(nanoseconds: 5_000_000)
        for ns in [1_000, 1_200, 1_250, 40_000] as [Int64] {
            t.record(received: at, done: Instant(nanoseconds: at.nanoseconds + ns), ok: true)
        }
        t.record(received: at, done: at + .microseconds(3), ok: false)
        t.recordUntimed(ok: true)       // a closing pad's rest state
        #expect(t.written == 5 && t.failed == 1)
        #expect(t.latency.totalCount == 4)
        #expect(t.latency.valueAtPercentile(50) >= 1_200 && t.latency.valueAtPercentile(50) <= 1_200 * 1_032 / 1_000)
        #expect(t.latency.max == 40_000)
        #expect(t.summary.hasPrefix("pad sink null (stand-in for /dev/uhid): 5 reports written, 1 failed; receipt→report p50 1.2"))
        #expect(t.summary.hasSuffix(", p99 40.00 µs"))
    }

    @Test func aClockThatWentBackwardsCountsAsZero() {
        var t = PadReportTimes()
        t.record(received: Instant(nanoseconds: 10), done: Instant(nanoseconds: 5), ok: true)
        #expect(t.latency.max == 0 && t.written == 1)
    }

    @Test func microsHaveTwoDecimalsRounded() {
        #expect(PadReportTimes.micros(0) == "0.00")
        #expect(PadReportTimes.micros(1_004) == "1.00")
        #expect(PadReportTimes.micros(1_005) == "1.01")
        #expect(PadReportTimes.micros(12_340) == "12.34")
        #expect(PadReportTimes.micros(99_996) == "100.00")
    }
}
