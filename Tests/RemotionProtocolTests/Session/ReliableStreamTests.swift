import Testing
import RemotionProtocol
@testable import RemotionProtocol

private func ms(_ v: Int64) -> Instant { .milliseconds(v) }

@Suite struct ReliableSenderTests {
    @Test func numbersFromOneAndResendsEverythingUnacknowledged() throws {
        var s = ReliableSender()
        #expect(s.lastSequence == 0)
        let b1 = try s.enqueue(.a, isDown: true, timestampMicros: 10, now: ms(0))
        #expect(b1 == [ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 10)])
        let b2 = try s.enqueue(.a, isDown: false, timestampMicros: 20, now: ms(5))
        #expect(b2.map(\.sequence) == [1, 2])
        #expect(s.lastSequence == 2 && s.unacknowledged == 2)
        s.receive(Ack(cumulative: 1), now: ms(8))
        #expect(s.unacknowledged == 1)
        let b3 = try s.enqueue(.b, isDown: true, timestampMicros: 30, now: ms(9))
        #expect(b3.map(\.sequence) == [2, 3])
    }

    @Test func batchIsCappedAt32OldestFirst() throws {
        var s = ReliableSender()
        var last: [ButtonEvent] = []
        for i in 0..<40 { last = try s.enqueue(.c, isDown: i % 2 == 0, timestampMicros: 0, now: ms(0)) }
        #expect(last.map(\.sequence) == Array(1...32))
        s.receive(Ack(cumulative: 32), now: ms(1))
        #expect(s.retransmitIfDue(now: ms(1000)).map(\.sequence) == Array(33...40))
    }

    @Test func queueFullAfter256Unacknowledged() throws {
        var s = ReliableSender()
        for _ in 0..<ReliableSender.maximumPending { _ = try s.enqueue(.a, isDown: true, timestampMicros: 0, now: ms(0)) }
        #expect(throws: ReliableSender.EnqueueError.queueFull) {
            try s.enqueue(.a, isDown: true, timestampMicros: 0, now: ms(0))
        }
        s.receive(Ack(cumulative: 1), now: ms(1))
        #expect(throws: Never.self) { try s.enqueue(.a, isDown: true, timestampMicros: 0, now: ms(1)) }
    }

    /// No RTT sample yet: 250 ms, then doubling per expiry, never above the 1 s ceiling.
    @Test func retransmissionBacksOff() throws {
        var s = ReliableSender()
        _ = try s.enqueue(.a, isDown: true, timestampMicros: 0, now: ms(0))
        #expect(s.retransmitDeadline == ms(250))
        #expect(s.retransmitIfDue(now: ms(249)).isEmpty)
        var now = ms(250)
        var gaps: [Int64] = []
        for _ in 0..<6 {
            #expect(s.retransmitIfDue(now: now).map(\.sequence) == [1])
            let next = try #require(s.retransmitDeadline)
            gaps.append((next - now).nanoseconds / 1_000_000)
            now = next
        }
        #expect(gaps == [500, 1000, 1000, 1000, 1000, 1000])
        #expect(s.retransmissions == 6)
        s.receive(Ack(cumulative: 1), now: now)
        #expect(s.retransmitDeadline == nil && s.unacknowledged == 0)
        #expect(s.retransmitIfDue(now: ms(100_000)).isEmpty)
    }

    @Test func backOffStartsFromSmoothedRTT() throws {
        var s = ReliableSender()
        s.addRTTSample(.milliseconds(20))             // RTO = 20 + 4·10 = 60 ms
        _ = try s.enqueue(.a, isDown: true, timestampMicros: 0, now: ms(0))
        #expect(s.retransmitDeadline == ms(60))
        _ = s.retransmitIfDue(now: ms(60))
        #expect(s.retransmitDeadline == ms(180))
        _ = s.retransmitIfDue(now: ms(180))
        #expect(s.retransmitDeadline == ms(420))
    }

    /// Karn's rule: only edges sent exactly once give RTT samples.
    @Test func karnsRule() throws {
        var s = ReliableSender()
        _ = try s.enqueue(.a, isDown: true, timestampMicros: 0, now: ms(0))
        _ = s.retransmitIfDue(now: ms(250))
        s.receive(Ack(cumulative: 1), now: ms(300))
        #expect(s.rtt.smoothed == nil)

        _ = try s.enqueue(.b, isDown: true, timestampMicros: 0, now: ms(400))
        s.receive(Ack(cumulative: 2), now: ms(430))
        #expect(s.rtt.smoothed == .milliseconds(30))

        // Edge 3 rides again in edge 4's batch: only edge 4 may be sampled.
        _ = try s.enqueue(.c, isDown: true, timestampMicros: 0, now: ms(500))
        _ = try s.enqueue(.d, isDown: true, timestampMicros: 0, now: ms(510))
        s.receive(Ack(cumulative: 4), now: ms(530))
        #expect(s.rtt.latest == .milliseconds(20))
    }

    @Test func selectiveAckRemovesOnlyCoveredEdges() throws {
        var s = ReliableSender()
        for _ in 1...6 { _ = try s.enqueue(.a, isDown: true, timestampMicros: 0, now: ms(0)) }
        // cumulative 1; bits 0 and 2 → 3 and 5 arrived.
        s.receive(Ack(cumulative: 1, selective: 0b101), now: ms(10))
        #expect(s.unacknowledged == 3)
        #expect(s.retransmitIfDue(now: ms(10_000)).map(\.sequence) == [2, 4, 6])
        // A stale ack changes nothing.
        s.receive(Ack(cumulative: 0), now: ms(10_001))
        #expect(s.unacknowledged == 3)
    }
}

@Suite struct ReliableReceiverTests {
    func e(_ seq: UInt32, _ b: Button = .a, _ down: Bool = true) -> ButtonEvent {
        ButtonEvent(sequence: seq, button: b, isDown: down, timestampMicros: UInt64(seq))
    }

    @Test func deliversInOrderOnceAndAcksSelectively() {
        var r = ReliableReceiver()
        #expect(r.ack == Ack(cumulative: 0))
        #expect(r.receive([e(2), e(4)]).isEmpty)
        #expect(r.ack == Ack(cumulative: 0, selective: 0b101))   // 2 → bit 0, 4 → bit 2
        #expect(r.receive([e(1)]).map(\.sequence) == [1, 2])
        #expect(r.ack == Ack(cumulative: 2, selective: 0b1))
        #expect(r.receive([e(1), e(2), e(4)]).isEmpty)
        #expect(r.duplicates == 3)
        #expect(r.receive([e(3)]).map(\.sequence) == [3, 4])
        #expect(r.ack == Ack(cumulative: 4))
    }

    @Test func selectiveBitmapCoversCumulativePlus2To65() {
        var r = ReliableReceiver()
        _ = r.receive([e(2), e(65), e(66), e(200)])
        #expect(r.ack == Ack(cumulative: 0, selective: 1 | (1 << 63)))
    }

    @Test func farAheadEdgesAreNotBuffered() {
        var r = ReliableReceiver()
        _ = r.receive([e(ReliableReceiver.window + 1)])
        _ = r.receive([e(UInt32.max)])
        let delivered = r.receive((1...ReliableReceiver.window).map { e($0) })
        #expect(delivered.count == Int(ReliableReceiver.window))
        #expect(r.delivered == ReliableReceiver.window)   // 257 was dropped, not waiting
    }

    @Test func repairsASingleLostEdgeFromMotion() {
        var r = ReliableReceiver()
        let m = MotionPacket(sequence: 1, buttonSequence: 1, sample: MotionSample(timestampMicros: 5, buttons: ButtonSet([.c] as [Button])))
        #expect(r.repair(from: m, delivered: .none) == [ButtonEvent(sequence: 1, button: .c, isDown: true, timestampMicros: 5)])
        #expect(r.delivered == 1)
        // The real edge arrives later: a duplicate, not a second press.
        #expect(r.receive([e(1, .c)]).isEmpty)
        #expect(r.duplicates == 1)
        // A release is repaired the same way.
        let up = MotionPacket(sequence: 2, buttonSequence: 2, sample: MotionSample(timestampMicros: 6))
        #expect(r.repair(from: up, delivered: ButtonSet([.c] as [Button])).map(\.isDown) == [false])
    }

    @Test func repairDeliversBufferedEdgesBehindIt() {
        var r = ReliableReceiver()
        _ = r.receive([e(2, .b)])
        let m = MotionPacket(sequence: 1, buttonSequence: 1, sample: MotionSample(timestampMicros: 5, buttons: ButtonSet([.a] as [Button])))
        #expect(r.repair(from: m, delivered: .none).map(\.sequence) == [1, 2])
    }

    @Test func noRepairWhenTwoAreMissingOrStateIsInconsistent() {
        var r = ReliableReceiver()
        let held = ButtonSet([.a] as [Button])
        // Two edges missing (the packet is at 2, nothing delivered).
        #expect(r.repair(from: MotionPacket(sequence: 1, buttonSequence: 2, sample: MotionSample(timestampMicros: 0, buttons: held)), delivered: .none).isEmpty)
        // Nothing missing.
        #expect(r.repair(from: MotionPacket(sequence: 1, buttonSequence: 0, sample: MotionSample(timestampMicros: 0, buttons: held)), delivered: .none).isEmpty)
        // One edge missing but two buttons differ: inconsistent.
        #expect(r.repair(from: MotionPacket(sequence: 1, buttonSequence: 1, sample: MotionSample(timestampMicros: 0, buttons: ButtonSet([.a, .b] as [Button]))), delivered: .none).isEmpty)
        // One edge missing but no button differs: inconsistent.
        #expect(r.repair(from: MotionPacket(sequence: 1, buttonSequence: 1, sample: MotionSample(timestampMicros: 0, buttons: held)), delivered: held).isEmpty)
        #expect(r.delivered == 0)
    }

    @Test func repairReleasesBufferedEdgesAndHappensOnce() {
        var r = ReliableReceiver()
        _ = r.receive([e(2)])
        _ = r.receive([e(3)])
        // Sequence 1 is the one missing; a packet that says 1 was sent repairs it exactly once.
        let m = MotionPacket(sequence: 1, buttonSequence: 1, sample: MotionSample(timestampMicros: 0, buttons: ButtonSet([.a] as [Button])))
        #expect(r.repair(from: m, delivered: .none).map(\.sequence) == [1, 2, 3])
        #expect(r.repair(from: m, delivered: ButtonSet([.a] as [Button])).isEmpty)
    }
}

/// Sender and receiver over a seeded channel with 30% loss both ways, duplication and
/// reordering: every edge comes out exactly once, in order.
@Suite struct ReliableStreamSimulationTests {
    @Test(arguments: [UInt64(1), 2, 3, 4, 5])
    func exactlyOnceInOrderUnderLoss(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        var sender = ReliableSender()
        var receiver = ReliableReceiver()
        var forward = SimulatedChannel<[ButtonEvent]>(loss: 0.3, duplication: 0.1, delay: 1...40)
        var backward = SimulatedChannel<Ack>(loss: 0.3, duplication: 0.1, delay: 1...40)
        var sent: [ButtonEvent] = []
        var delivered: [ButtonEvent] = []
        var held = ButtonSet.none
        var nextPress = ms(0)

        for step in 0...60_000 {                              // 60 s in 1 ms steps
            let now = ms(Int64(step))
            if step < 50_000, now >= nextPress {
                let b = Button.allCases.randomElement(using: &rng)!
                let down = !held.contains(b)
                held.set(b, down: down)
                let batch = try sender.enqueue(b, isDown: down, timestampMicros: UInt64(now.microseconds), now: now)
                sent.append(batch.last!)
                forward.send(batch, now: now, rng: &rng)
                nextPress = now + .milliseconds(Int64.random(in: 5...200, using: &rng))
            }
            let resend = sender.retransmitIfDue(now: now)
            if !resend.isEmpty { forward.send(resend, now: now, rng: &rng) }
            for batch in forward.receive(now: now) {
                delivered += receiver.receive(batch)
                backward.send(receiver.ack, now: now, rng: &rng)
            }
            for ack in backward.receive(now: now) { sender.receive(ack, now: now) }
        }
        #expect(sent.count > 400)
        #expect(delivered == sent)
        #expect(sender.unacknowledged == 0)
        #expect(sender.retransmissions > 0 && receiver.duplicates > 0)
        #expect(forward.lost > 0 && backward.lost > 0 && backward.duplicated > 0)
    }

    /// Data arrives, every ack is lost: the retransmission is a duplicate, its ack lands.
    @Test func lostAckIsRecoveredByRetransmission() throws {
        var s = ReliableSender()
        var r = ReliableReceiver()
        let batch = try s.enqueue(.e, isDown: true, timestampMicros: 0, now: ms(0))
        #expect(r.receive(batch).count == 1)
        _ = r.ack                                           // lost
        let again = s.retransmitIfDue(now: ms(250))
        #expect(again == batch)
        #expect(r.receive(again).isEmpty && r.duplicates == 1)
        s.receive(r.ack, now: ms(260))
        #expect(s.unacknowledged == 0)
    }
}
