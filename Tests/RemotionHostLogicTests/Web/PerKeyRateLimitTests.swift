import Foundation
import RemotionHostLogic
import Testing

/// The per-device offer rate of /api/rtc, on virtual time.
@Suite struct PerKeyRateLimitTests {
    let t0 = Date(timeIntervalSince1970: 1_000_000)

    @Test func eachKeyGetsItsLimitPerWindow() {
        var limit = PerKeyRateLimit(limit: 3, window: 30)
        var answers: [Bool] = []
        for _ in 0..<5 { answers.append(limit.allow("phone", now: t0)) }
        #expect(answers == [true, true, true, false, false])
        let tablet = limit.allow("tablet", now: t0 + 1)
        let late = limit.allow("phone", now: t0 + 29.9)
        let next = limit.allow("phone", now: t0 + 30)
        #expect(tablet, "another device has its own")
        #expect(!late)
        #expect(next, "a new window")
    }

    @Test func aStreamOfNewKeysStaysBounded() {
        var limit = PerKeyRateLimit(limit: 1, window: 30, maxKeys: 8)
        for i in 0..<1000 { _ = limit.allow("key \(i)", now: t0 + Double(i)) }
        #expect(limit.keys == 8)
    }
}
