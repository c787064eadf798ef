import RemotionProtocol
import RemotionNetwork
import Testing

/// The drivers' status cadence as a value: a report at most every 100 ms while controllers are
/// open, at once after one opened or closed, and the timer's wake-up the earliest of the three.
@Suite struct ReportCadenceTests {
    func at(_ ms: Int64) -> Instant { Instant.zero + .milliseconds(ms) }
    /// Whether a report is due at `ms` (and taken), outside `#expect`, which cannot mutate.
    func take(_ cadence: inout ReportCadence, _ ms: Int64) -> Bool { cadence.takeReport(now: at(ms)) }

    @Test func aReportEveryIntervalAndNoSooner() {
        var cadence = ReportCadence()
        let due1 = take(&cadence, 100); #expect(due1)
        let due2 = take(&cadence, 150); #expect(!due2)
        let due3 = take(&cadence, 199); #expect(!due3)
        let due4 = take(&cadence, 200); #expect(due4)
    }

    @Test func aControllerComingOrGoingIsReportedAtOnceAndOnlyOnce() {
        var cadence = ReportCadence()
        let due5 = take(&cadence, 100); #expect(due5)
        cadence.membershipDidChange()
        let due6 = take(&cadence, 101); #expect(due6)
        let due7 = take(&cadence, 102); #expect(!due7)
        let due8 = take(&cadence, 201); #expect(due8)
    }

    @Test func theWakeUpIsTheEarliestOfPeerReportAndEngine() {
        var cadence = ReportCadence()
        let due9 = take(&cadence, 1_000); #expect(due9)
        // Nothing open: no report tick; only the deadlines.
        #expect(cadence.nextWakeUp(peer: nil, engine: nil, open: false) == nil)
        #expect(cadence.nextWakeUp(peer: at(5_000), engine: at(3_000), open: false) == at(3_000))
        // Controllers open: the next report (100 ms after the last) unless a deadline comes first.
        #expect(cadence.nextWakeUp(peer: at(5_000), engine: nil, open: true) == at(1_100))
        #expect(cadence.nextWakeUp(peer: at(1_050), engine: at(1_200), open: true) == at(1_050))
        #expect(cadence.nextWakeUp(peer: nil, engine: at(1_020), open: true) == at(1_020))
    }
}
