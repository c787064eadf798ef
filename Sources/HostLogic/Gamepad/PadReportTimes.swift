import RemotionProtocol

/// What the benchmark's stand-in pad device (`remotion host --gamepad-sink null`, hidden;
/// scripts/bench-gamepad.sh) counts: the reports it wrote and, for each, the time from the
/// host's receipt of the event behind it (the instant the host's loop read the datagram,
/// the `now` the pipeline hands its outputs) to the report written. A bounded
/// `LatencyHistogram` in nanoseconds (its buckets are unit-free: exact below 64, at most
/// 3.1% above; past about 67 ms everything counts in the last bucket), so a host left
/// running with it keeps a fixed size. Production pads (/dev/uhid) record nothing.
package struct PadReportTimes: Sendable, Equatable {
    /// Reports written whole.
    package private(set) var written = 0
    /// Reports whose write failed or was short.
    package private(set) var failed = 0
    /// Receipt → written, nanoseconds, of the reports written.
    package private(set) var latency = LatencyHistogram()

    package init() {}

    /// One report for an event the host received at `received`, written (or not) at `done`.
    package mutating func record(received: Instant, done: Instant, ok: Bool) {
        guard ok else { failed += 1; return }
        written += 1
        latency.record(UInt64(max(0, (done - received).nanoseconds)))
    }

    /// A report written outside an event (a pad's rest state when it closes): counted, not timed.
    package mutating func recordUntimed(ok: Bool) {
        if ok { written += 1 } else { failed += 1 }
    }

    /// For the host's stop line, which scripts/bench-gamepad.sh reads:
    /// "pad sink null (stand-in for /dev/uhid): 4000 reports written, 0 failed; receipt→report p50 1.25 µs, p99 9.40 µs".
    package var summary: String {
        let times = latency.totalCount == 0 ? "not timed"
            : "p50 \(Self.micros(latency.valueAtPercentile(50))) µs, p99 \(Self.micros(latency.valueAtPercentile(99))) µs"
        return "pad sink null (stand-in for /dev/uhid): \(written) reports written, \(failed) failed; receipt→report \(times)"
    }

    /// Nanoseconds as microseconds with two decimals ("1.25").
    static func micros(_ ns: UInt64) -> String {
        let hundredths = (ns + 5) / 10
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}
