import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// A flooding DSU source costs the host one sample per slot per read batch, and no
/// button edge is lost.
@Suite struct DSUEventBatchTests {
    typealias Event = DSUSourceStateMachine.Event

    func sample(_ slot: UInt8, _ t: UInt64, _ buttons: ButtonSet = .none) -> Event {
        .sample(slot: slot, MotionSample(timestampMicros: t, gyro: Vector3(x: 0, y: 0, z: Float(t)), buttons: buttons))
    }

    @Test func samplesWithTheSameButtonsMergeToTheNewest() {
        var batch = DSUEventBatch()
        for t in 1...100 as ClosedRange<UInt64> { batch.append(sample(0, t)) }
        #expect(batch.drain() == [sample(0, 100)])
        #expect(batch.merged == 99)
        #expect(batch.drain().isEmpty)
    }

    @Test func everyButtonEdgeSurvivesInOrder() {
        var batch = DSUEventBatch()
        let a = ButtonSet([.a])
        batch.append(contentsOf: [sample(0, 1), sample(0, 2), sample(0, 3, a), sample(0, 4, a), sample(0, 5), sample(0, 6)])
        #expect(batch.drain() == [sample(0, 2), sample(0, 4, a), sample(0, 6)])
    }

    @Test func slotsAreMergedSeparately() {
        var batch = DSUEventBatch()
        for t in 1...10 as ClosedRange<UInt64> {
            for s in 0..<4 as Range<UInt8> { batch.append(sample(s, t * 10 + UInt64(s))) }
        }
        let out = batch.drain()
        #expect(out.count == 4)
        #expect(Set(out) == Set((0..<4 as Range<UInt8>).map { sample($0, 100 + UInt64($0)) }))
    }

    @Test func neverMergedAcrossConnectOrDisconnect() {
        var batch = DSUEventBatch()
        batch.append(contentsOf: [sample(1, 1), .slotDisconnected(1, timedOut: false), .slotConnected(1), sample(1, 2), sample(1, 3)])
        #expect(batch.drain() == [sample(1, 1), .slotDisconnected(1, timedOut: false), .slotConnected(1), sample(1, 3)])
        // After a drain nothing is replaceable: the next batch starts fresh.
        batch.append(sample(1, 4))
        #expect(batch.drain() == [sample(1, 4)])
    }

    @Test func latencyOnlyWhenTheClocksAreShared() {
        let now = Instant.seconds(100)
        #expect(DSUSampleLatency.micros(timestampMicros: 99_999_250, now: now, fromLoopback: true) == 750)
        #expect(DSUSampleLatency.micros(timestampMicros: 99_999_250, now: now, fromLoopback: false) == nil)
        // A phone's clock: far from ours, or ahead of it.
        #expect(DSUSampleLatency.micros(timestampMicros: 1_700_000_000_000_000, now: now, fromLoopback: true) == nil)
        #expect(DSUSampleLatency.micros(timestampMicros: 100_000_001, now: now, fromLoopback: true) == nil)
        #expect(DSUSampleLatency.micros(timestampMicros: 99_100_000, now: now, fromLoopback: true) == 900_000)
        #expect(DSUSampleLatency.micros(timestampMicros: 98_000_000, now: now, fromLoopback: true) == nil,
                "2 s on loopback: a server with its own clock (the guest once printed 6,200 ms)")
        #expect(DSUSampleLatency.micros(timestampMicros: 93_800_000, now: now, fromLoopback: true) == nil)
        #expect(DSUSampleLatency.micros(timestampMicros: 80_000_000, now: now, fromLoopback: true) == nil, "20 s: not a latency")
        #expect(DSUSampleLatency.micros(timestampMicros: .max, now: now, fromLoopback: true) == nil)
    }
}
