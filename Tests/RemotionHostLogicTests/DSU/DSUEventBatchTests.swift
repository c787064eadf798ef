import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// A flooding DSU source costs the host one sample per slot per mapper step (0.1 s) of
/// the source's time, no rotation is lost, and no button edge is lost.
@Suite struct DSUEventBatchTests {
    typealias Event = DSUSourceStateMachine.Event

    func sample(_ slot: UInt8, _ t: UInt64, _ buttons: ButtonSet = .none) -> Event {
        .sample(slot: slot, MotionSample(timestampMicros: t, gyro: Vector3(x: 0, y: 0, z: Float(t)), buttons: buttons))
    }

    /// Times, buttons and gyro z of the samples.
    func shape(_ events: [Event]) -> [(UInt64, ButtonSet, Float)] {
        events.compactMap { e in
            guard case let .sample(_, s) = e else { return nil }
            return (s.timestampMicros, s.buttons, s.gyro?.z ?? .nan)
        }
    }

    @Test func samplesWithTheSameButtonsMergeToTheNewestAtTheirAverageRate() {
        var batch = DSUEventBatch()
        for t in 1...100 as ClosedRange<UInt64> { batch.append(sample(0, t)) }
        // The first has no predecessor to span from; the other 99 are one step at the
        // average of their rates (2 … 100, each over 1 µs: 51).
        let out = shape(batch.drain())
        #expect(out.map(\.0) == [1, 100] && out.map(\.2) == [1, 51])
        #expect(batch.merged == 98)
        #expect(batch.drain().isEmpty)
    }

    @Test func aMergedSampleCoversAtMostOneMapperStep() {
        var batch = DSUEventBatch()
        for i in 0...300 as ClosedRange<UInt64> { batch.append(sample(0, 1_000_000 + i * 1_000)) }
        // 0.3 s at 1 kHz: the first, then three steps of 0.1 s.
        #expect(shape(batch.drain()).map(\.0) == [1_000_000, 1_100_000, 1_200_000, 1_300_000])
    }

    @Test func everyButtonEdgeSurvivesInOrder() {
        var batch = DSUEventBatch()
        let a = ButtonSet([.a])
        batch.append(contentsOf: [sample(0, 1), sample(0, 2), sample(0, 3, a), sample(0, 4, a), sample(0, 5), sample(0, 6)])
        let out = shape(batch.drain())
        #expect(out.map(\.0) == [1, 2, 4, 6] && out.map(\.1) == [.none, .none, a, .none])
        #expect(out.map(\.2) == [1, 2, 3.5, 5.5])
    }

    /// A touch that starts and ends inside one batch reaches the pad as edges, in order: a
    /// finger coming down is a sample of its own where it came down (the later ones of the same
    /// finger merge after it), and its lift is another, as a button's press and release are.
    @Test func aTouchThatStartsAndEndsInsideABatchStaysTwoEdgesInOrder() {
        func touched(_ t: UInt64, _ finger: UInt8?, x: Float = 0) -> Event {
            var s = MotionSample(timestampMicros: t, gyro: Vector3(x: 0, y: 0, z: 1))
            s.touch = finger.map { TouchState(first: .init(id: $0, x: x, y: 0.5), second: nil) }
            return .sample(slot: 0, s)
        }
        var batch = DSUEventBatch()
        batch.append(contentsOf: [touched(1_000, nil), touched(2_000, nil), touched(3_000, nil)])
        batch.append(contentsOf: (4...7 as ClosedRange<UInt64>).map { touched($0 * 1_000, 1, x: Float($0) / 10) })
        batch.append(contentsOf: [touched(8_000, nil), touched(9_000, nil)])
        batch.append(contentsOf: (10...12 as ClosedRange<UInt64>).map { touched($0 * 1_000, 2, x: 0.9) })
        let out = batch.drain().compactMap { e -> MotionSample? in if case let .sample(_, s) = e { s } else { nil } }
        let fingers = out.map { $0.touch?.first?.id }
        let edges = zip(fingers, fingers.dropFirst()).filter { $0 != $1 }.map(\.1)
        #expect(edges == [1, nil, 2], "finger 1 down, up, finger 2 down: \(fingers)")
        #expect(out.first { $0.touch?.first?.id == 1 }?.touch?.first?.x == 0.4, "down where it came down")
        #expect(out.last { $0.touch?.first?.id == 1 }?.touch?.first?.x == 0.7, "and up from where it was last")
        // The rotation is all there: z 1 rad/s from the first sample to the last, 11 ms.
        var last: UInt64 = 1_000, turned = 0.0
        for s in out.dropFirst() { turned += Double(s.gyro!.z) * Double(s.timestampMicros - last) / 1e6; last = s.timestampMicros }
        #expect(abs(turned - 0.011) < 1e-6)
    }

    @Test func slotsAreMergedSeparately() {
        var batch = DSUEventBatch()
        for t in 1...10 as ClosedRange<UInt64> {
            for s in 0..<4 as Range<UInt8> { batch.append(sample(s, t * 10 + UInt64(s))) }
        }
        let out = batch.drain()
        #expect(out.count == 8)
        for s in 0..<4 as Range<UInt8> {
            let times = out.compactMap { e -> UInt64? in
                guard case let .sample(slot, m) = e, slot == s else { return nil }
                return m.timestampMicros
            }
            #expect(times == [10 + UInt64(s), 100 + UInt64(s)])
        }
    }

    @Test func neverMergedAcrossConnectOrDisconnect() {
        var batch = DSUEventBatch()
        batch.append(contentsOf: [sample(1, 1), .slotDisconnected(1, timedOut: false), .slotConnected(1), sample(1, 2), sample(1, 3)])
        #expect(batch.drain() == [sample(1, 1), .slotDisconnected(1, timedOut: false), .slotConnected(1), sample(1, 2), sample(1, 3)])
        // After a drain nothing is replaceable: the next batch starts with its own step.
        batch.append(sample(1, 4))
        #expect(batch.drain() == [sample(1, 4)])
    }

    @Test func aRepeatedStampIsNotAnotherStep() {
        var batch = DSUEventBatch()
        batch.append(contentsOf: [sample(0, 1), sample(0, 2), sample(0, 2), sample(0, 2)])
        #expect(shape(batch.drain()).map(\.0) == [1, 2] && batch.merged == 2)
    }

    @Test func aFloodOfBadStampsStaysOneSample() {
        var batch = DSUEventBatch()
        // Each a second after the last (the mapper starts again at each), then backwards.
        for i in 1...50 as ClosedRange<UInt64> { batch.append(sample(0, i * 1_000_000)) }
        for i in 1...50 as ClosedRange<UInt64> { batch.append(sample(0, i)) }
        #expect(shape(batch.drain()).map(\.0) == [50_000_000] && batch.merged == 99)
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

/// A host late for a DSU source reads its backlog in batches of up to 128 datagrams: each
/// batch's samples are merged, and the pointer still moves the whole turn.
@Suite struct DSULateBacklogTests {
    /// Linear FPS settings: the counts are the rotation's.
    static func mapper() -> GyroMouseMapper {
        var settings = FPSSettings()
        settings.fastSensitivity = settings.slowSensitivity
        settings.tightening = 0
        settings.smoothThreshold = 0
        return GyroMouseMapper(settings: settings)
    }

    @Test func aLoopThreeSecondsBehindAPadAt66HzStillMovesTheWholeTurn() {
        // 3 s at 66.7 reports/s, the socket read 128 datagrams at a time.
        let samples = (0..<200).map { i in
            DSUSourceStateMachine.Event.sample(slot: 0, gyroSample(1_000_000 + UInt64(i) * 15_000, yawRate: 30 + Double(i % 50) * 3))
        }
        var replay = Self.mapper(), merged = Self.mapper()
        var turn = 0, moved = 0, handed = 0
        var batch = DSUEventBatch()
        for chunk in stride(from: 0, to: samples.count, by: 128).map({ samples[$0..<min($0 + 128, samples.count)] }) {
            for case let .sample(_, s) in chunk { turn += replay.update(s, attitude: nil, screen: fullHD).dx }
            batch.append(contentsOf: Array(chunk))
            for case let .sample(_, s) in batch.drain() {
                handed += 1
                moved += merged.update(s, attitude: nil, screen: fullHD).dx
            }
        }
        #expect(abs(turn) > 1000)
        #expect(abs(moved - turn) <= abs(turn) / 100, "moved \(moved) of \(turn) in \(handed) steps")
        // One per 0.1 s of the source's time, plus each batch's part of a step and the first.
        #expect(handed <= 30 + 2 + 1 + 2, "\(handed) steps")
    }
}
