import Testing
@testable import RemotionProtocol

@Suite struct ReplayWindowTests {
    @Test func windowIsAtLeast2048() {
        #expect(ReplayWindow.windowSize >= 2048)
        #expect(ReplayWindow.windowSize == 4032)
    }

    @Test func acceptsEachCounterOnce() {
        var w = ReplayWindow()
        do { let ok = w.commit(0); #expect(ok) }
        do { let ok = w.commit(0); #expect(!ok) }
        do { let ok = w.commit(2); #expect(ok) }
        do { let ok = w.commit(1); #expect(ok) }
        #expect(!w.check(1) && !w.check(2))
        #expect(w.check(3))
    }

    @Test func rejectsCountersBelowTheWindow() {
        var w = ReplayWindow()
        do { let ok = w.commit(10_000); #expect(ok) }
        #expect(w.check(10_000 - 4031))
        #expect(!w.check(10_000 - 4032))
        do { let ok = w.commit(10_000 - 4031); #expect(ok) }
        do { let ok = w.commit(10_000 - 5000); #expect(!ok) }
        #expect(w.greatest == 10_000)
    }

    @Test func checkDoesNotChangeState() {
        var w = ReplayWindow()
        w.commit(5)
        let before = w
        _ = w.check(6); _ = w.check(5); _ = w.check(100_000)
        #expect(w == before)
    }

    @Test func rejectsCountersAtTheLimit() {
        var w = ReplayWindow()
        do { let ok = w.commit(ReplayWindow.rejectAfterMessages); #expect(!ok) }
        #expect(!w.check(UInt64.max))
        do { let ok = w.commit(ReplayWindow.rejectAfterMessages - 1); #expect(ok) }
    }

    /// Matches a simple set-based model on a long pseudo-random stream with
    /// duplicates, reordering and big jumps.
    @Test func matchesReferenceModel() {
        var w = ReplayWindow()
        var seen = Set<UInt64>()
        var greatest: UInt64 = 0
        var rng = TestRandom(state: 42)
        var base: UInt64 = 0
        var accepted = 0, rejected = 0
        for step in 0..<50_000 {
            let r = rng.next()
            if step % 5000 == 4999 { base += 3000 + r % 9000 } // occasional big jump
            let offset = r % 6000
            let c = offset > base ? (r >> 20) % 64 : base - offset + (r >> 40) % 200
            let modelOK = !seen.contains(c) && (c > greatest || greatest - c < ReplayWindow.windowSize)
            let ok = w.commit(c)
            #expect(ok == modelOK, "counter \(c) at step \(step)")
            if ok { seen.insert(c); greatest = max(greatest, c); accepted += 1 } else { rejected += 1 }
            if ok != modelOK { break }
            base += 1
        }
        #expect(accepted > 1000 && rejected > 1000)
    }
}
