import Testing
import RemotionProtocol
@testable import RemotionProtocol

@Suite struct RTTEstimatorTests {
    @Test func initialTimeoutBeforeAnySample() {
        let e = RTTEstimator()
        #expect(e.smoothed == nil && e.latest == nil)
        #expect(e.retransmissionTimeout == .milliseconds(250))
    }

    /// RFC 6298 §2: first sample R → SRTT = R, RTTVAR = R/2; then
    /// RTTVAR = 3/4·RTTVAR + 1/4·|SRTT − R'| (old SRTT), SRTT = 7/8·SRTT + 1/8·R';
    /// RTO = SRTT + max(G, 4·RTTVAR) with G = 1 ms.
    @Test func rfc6298Numbers() {
        var e = RTTEstimator()
        e.addSample(.milliseconds(100))
        #expect(e.smoothed == .milliseconds(100))
        #expect(e.variation == .milliseconds(50))
        #expect(e.retransmissionTimeout == .milliseconds(300))

        e.addSample(.milliseconds(200))
        #expect(e.variation == .microseconds(62_500))      // 3/4·50 + 1/4·100
        #expect(e.smoothed == .microseconds(112_500))      // 7/8·100 + 1/8·200
        #expect(e.retransmissionTimeout == .microseconds(362_500))

        e.addSample(.milliseconds(50))
        #expect(e.variation == .microseconds(62_500))      // 3/4·62.5 + 1/4·62.5
        #expect(e.smoothed == .nanoseconds(104_687_500))   // 7/8·112.5 + 1/8·50
        #expect(e.retransmissionTimeout == .nanoseconds(354_687_500))
        #expect(e.latest == .milliseconds(50))
    }

    @Test func clockGranularityTermWhenVariationVanishes() {
        var e = RTTEstimator()
        for _ in 0..<60 { e.addSample(.milliseconds(100)) }
        #expect(e.smoothed == .milliseconds(100))
        #expect(e.variation * 4 < .milliseconds(1))
        #expect(e.retransmissionTimeout == .milliseconds(101))
    }

    @Test func floorOf15Milliseconds() {
        var e = RTTEstimator()
        e.addSample(.milliseconds(1))                 // 1 + 4·0.5 = 3 ms before the floor
        #expect(e.retransmissionTimeout == .milliseconds(15))
        for _ in 0..<50 { e.addSample(.microseconds(200)) }
        #expect(e.retransmissionTimeout == .milliseconds(15))
    }

    @Test func ceilingOfOneSecond() {
        var e = RTTEstimator()
        e.addSample(.seconds(2))
        #expect(e.retransmissionTimeout == .seconds(1))
        e.addSample(.milliseconds(300))                 // still above the ceiling
        #expect(e.retransmissionTimeout == .seconds(1))
    }

    @Test func negativeSamplesAreIgnored() {
        var e = RTTEstimator()
        e.addSample(.milliseconds(-5))
        #expect(e.smoothed == nil && e.retransmissionTimeout == .milliseconds(250))
        e.addSample(.zero)
        #expect(e.smoothed == .zero && e.retransmissionTimeout == .milliseconds(15))
    }

    @Test func configurableBounds() {
        var c = RTTEstimator.Configuration()
        c.minimumRTO = .milliseconds(50); c.maximumRTO = .milliseconds(500); c.initialRTO = .milliseconds(400)
        var e = RTTEstimator(configuration: c)
        #expect(e.retransmissionTimeout == .milliseconds(400))
        e.addSample(.milliseconds(5))
        #expect(e.retransmissionTimeout == .milliseconds(50))
        e.addSample(.seconds(3))
        #expect(e.retransmissionTimeout == .milliseconds(500))
    }
}
