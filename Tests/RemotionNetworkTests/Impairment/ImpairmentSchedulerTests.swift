import Testing
import RemotionProtocol
import RemotionTestSupport

/// Submits `count` datagrams (payload = big-endian index) one millisecond apart and drains
/// everything; returns the indices in delivery order.
private func run(
    _ profile: ImpairmentProfile, seed: UInt64, count: Int, spacing: Duration = .milliseconds(1)
) -> (order: [Int], deliveries: [ScheduledDelivery], scheduler: ImpairmentScheduler) {
    var s = ImpairmentScheduler(clientToHost: profile, hostToClient: .none, seed: seed, maxQueued: 1_000_000)
    var now = Instant.zero
    var out: [ScheduledDelivery] = []
    for i in 0..<count {
        _ = s.submit(index(i), direction: .clientToHost, now: now)
        out += s.deliverable(now: now)
        now = now + spacing
    }
    while let d = s.nextDeadline { out += s.deliverable(now: d) }
    return (out.map { value($0.datagram) }, out, s)
}

private func index(_ i: Int) -> [UInt8] { [UInt8(i >> 24 & 0xFF), UInt8(i >> 16 & 0xFF), UInt8(i >> 8 & 0xFF), UInt8(i & 0xFF)] }
private func value(_ b: [UInt8]) -> Int { b.reduce(0) { $0 << 8 | Int($1) } }

@Suite struct ImpairmentSchedulerTests {
    @Test func splitMix64MatchesTheReferenceSequence() {
        // Reference values of SplitMix64 seeded with 0 (from the published C implementation).
        var r = SplitMix64(seed: 0)
        #expect(r.next() == 0xE220_A839_7B1D_CDAF)
        #expect(r.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(r.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func cleanProfileDeliversEverythingInOrderAtOnce() {
        var s = ImpairmentScheduler(clientToHost: .none, hostToClient: .none, seed: 1)
        let now = Instant.milliseconds(5)
        let queued = s.submit([1, 2, 3], direction: .hostToClient, flow: 7, now: now)
        #expect(queued.count == 1)
        #expect(s.nextDeadline == now)
        let out = s.deliverable(now: now)
        #expect(out.map(\.datagram) == [[1, 2, 3]])
        #expect(out.first?.flow == 7)
        #expect(out.first?.direction == .hostToClient)
        #expect(s.stats.hostToClient.delivered == 1)
        #expect(s.nextDeadline == nil)
    }

    @Test func lossRateIsWithinToleranceOver10000Datagrams() {
        let (_, _, s) = run(ImpairmentProfile(lossPercent: 30), seed: 42, count: 10_000)
        let c = s.stats.clientToHost
        #expect(c.received == 10_000)
        // Binomial(10000, 0.3): sd ≈ 46; allow ±4 sd.
        #expect((2_816...3_184).contains(c.dropped), "dropped \(c.dropped)")
        #expect(c.delivered == 10_000 - c.dropped)
        #expect(s.stats.hostToClient == ImpairmentCounters())
    }

    @Test func duplicatesProduceTwoCopies() {
        let (order, deliveries, s) = run(ImpairmentProfile(duplicatePercent: 20), seed: 7, count: 10_000)
        let c = s.stats.clientToHost
        #expect((1_840...2_160).contains(c.duplicated), "duplicated \(c.duplicated)")
        #expect(order.count == 10_000 + c.duplicated)
        #expect(deliveries.filter(\.isDuplicate).count == c.duplicated)
        #expect(Set(order).count == 10_000)
        #expect(c.delivered == order.count)
    }

    @Test func reorderProducesOutOfOrderDelivery() {
        let profile = ImpairmentProfile(reorderPercent: 10, reorderExtraDelay: .milliseconds(5))
        let (order, deliveries, s) = run(profile, seed: 3, count: 1_000)
        let c = s.stats.clientToHost
        #expect((50...150).contains(c.reordered))
        #expect(order.count == 1_000)
        #expect(order.sorted() == Array(0..<1_000))
        let inversions = zip(order, order.dropFirst()).filter { $0 > $1 }.count
        #expect(inversions > 0)
        // Each held-back datagram (5 ms gap, 1 ms spacing) is overtaken by a later one,
        // unless it was among the last few submitted.
        var highestSoFar = -1
        for d in deliveries {
            let k = value(d.datagram)
            if d.isReordered && k < 995 { #expect(highestSoFar > k, "datagram \(k) was not overtaken") }
            highestSoFar = max(highestSoFar, k)
        }
    }

    @Test func delayAndJitterAreRespected() {
        let profile = ImpairmentProfile(delay: .milliseconds(20), jitter: .milliseconds(5))
        var s = ImpairmentScheduler(clientToHost: profile, hostToClient: .none, seed: 9)
        let now = Instant.milliseconds(100)
        var due: [Instant] = []
        for i in 0..<500 { due += s.submit(index(i), direction: .clientToHost, now: now).map(\.deliverAt) }
        #expect(s.deliverable(now: now + .milliseconds(14)).isEmpty)
        for d in due { #expect(d >= now + .milliseconds(15) && d <= now + .milliseconds(25)) }
        #expect(Set(due).count > 100, "jitter spreads the delivery instants")
        #expect(s.nextDeadline == due.min())
        #expect(s.deliverable(now: now + .milliseconds(25)).count == 500)
    }

    @Test func sameSeedSameDecisionsOtherSeedOtherDecisions() {
        let profile = try! ImpairmentProfile(parsing: "loss=30,dup=5,reorder=10,delay=5ms,jitter=2ms")
        let a = run(profile, seed: 1234, count: 2_000)
        let b = run(profile, seed: 1234, count: 2_000)
        let c = run(profile, seed: 1235, count: 2_000)
        #expect(a.deliveries == b.deliveries)
        #expect(a.scheduler.stats == b.scheduler.stats)
        #expect(a.order != c.order)
    }

    @Test func directionsDrawIndependently() {
        let lossy = ImpairmentProfile(lossPercent: 50)
        var alone = ImpairmentScheduler(clientToHost: lossy, hostToClient: lossy, seed: 5)
        var mixed = ImpairmentScheduler(clientToHost: lossy, hostToClient: lossy, seed: 5)
        var keptAlone: [Bool] = [], keptMixed: [Bool] = []
        for i in 0..<200 {
            keptAlone.append(!alone.submit(index(i), direction: .clientToHost, now: .zero).isEmpty)
            _ = mixed.submit(index(i), direction: .hostToClient, now: .zero)
            keptMixed.append(!mixed.submit(index(i), direction: .clientToHost, now: .zero).isEmpty)
        }
        #expect(keptAlone == keptMixed)
    }

    @Test func queueIsBoundedAndCountersBalance() {
        let profile = try! ImpairmentProfile(parsing: "loss=10,dup=20,delay=1s")
        var s = ImpairmentScheduler(clientToHost: profile, hostToClient: profile, seed: 11, maxQueued: 100)
        for i in 0..<300 {
            _ = s.submit(index(i), direction: i % 3 == 0 ? .hostToClient : .clientToHost, now: .zero)
        }
        #expect(s.queuedCount == 100)
        _ = s.deliverable(now: .milliseconds(999))
        #expect(s.queuedCount == 100)
        _ = s.deliverable(now: .seconds(1))
        #expect(s.queuedCount == 0)
        for d in ImpairmentDirection.allCases {
            let c = s.stats[d]
            #expect(c.overflowed > 0)
            #expect(c.received + c.duplicated == c.dropped + c.overflowed + c.delivered + s.queuedCount(d))
        }
    }
}
