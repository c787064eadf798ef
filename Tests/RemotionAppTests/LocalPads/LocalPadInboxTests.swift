#if os(Linux)
@testable import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import RemotionSystem
import Testing

/// The reader's notices on their way to a loop that may fall behind: one drain queued at a
/// time, the backlog merged and bounded, what opens and closes pads never dropped.
@Suite struct LocalPadInboxTests {
    static func read(_ key: String, _ n: Int) -> LocalPadNotice {
        .events(key: key, Array(repeating: .button(.a, isDown: true), count: n))
    }

    @Test func oneDrainIsQueuedUntilTheLoopTakesTheNotices() {
        let inbox = LocalPadInbox()
        #expect(inbox.post(.opened(key: "a", name: "A")))
        #expect(!inbox.post(Self.read("a", 3)))
        #expect(!inbox.post(.say("x")))
        let batch = inbox.take()
        #expect(batch.notices.count == 3 && batch.dropped.isEmpty && batch.merged.isEmpty)
        #expect(inbox.post(Self.read("a", 1)))          // the next drain
        #expect(inbox.take().notices.count == 1)
        #expect(inbox.take().notices.isEmpty)
    }

    /// Merging leaves a backlog of button edges alone: past the limit only they are dropped
    /// (the next sample's buttons are the truth), the oldest first.
    @Test func aBacklogOfEdgesPastTheLimitLosesTheOldestNotThePadsComingAndGoing() {
        let inbox = LocalPadInbox()
        _ = inbox.post(.opened(key: "a", name: "A"))
        let reads = LocalPadInbox.limit / 64 + 10
        for _ in 0..<reads { _ = inbox.post(Self.read("a", 64)) }
        _ = inbox.post(.closed(key: "a", why: "unplugged"))
        let batch = inbox.take()
        let kept = batch.notices.reduce(0) { $0 + $1.eventCount }
        #expect(kept == LocalPadInbox.limit)
        #expect(batch.dropped == ["a": reads * 64 - kept])
        guard case .opened = batch.notices.first, case .closed = batch.notices.last else {
            Issue.record("the pad's opening and closing were dropped: \(batch.notices.count) notices"); return
        }
    }

    /// A loop away for a minute: the reader's buffer merges what waits and stays bounded,
    /// and nothing is dropped.
    @Test func aMinuteOfMotionWaitingStaysBounded() {
        let inbox = LocalPadInbox()
        _ = inbox.post(.opened(key: "a", name: "A"))
        for i in 0..<(60 * 200) {
            let s = MotionSample(timestampMicros: 1_000_000 + UInt64(i) * 5_000, gyro: Vector3(x: 0, y: 0, z: 1))
            _ = inbox.post(.events(key: "a", [.sample(s)]))
        }
        let batch = inbox.take()
        let kept = batch.notices.reduce(0) { $0 + $1.eventCount }
        #expect(kept <= 3 + 50 + 21, "\(kept) events")
        #expect(batch.dropped.isEmpty && batch.merged["a"] == 60 * 200 - kept)
    }

    /// The session says once per pad that it merged, counts the drops, and the stop line has both.
    @Test func whatTheHostMergedAndDroppedBehindIsCounted() throws {
        let rig = DSURig()
        let said = RecordingLog()
        let sessions = LocalPadSessions(pipeline: rig.pipeline, logger: said.logger) { _, _ in }
        sessions.handle(.opened(key: "/dev/input/event4", name: "DualSense"), now: rig.now)
        sessions.hostBehind(merged: ["/dev/input/event4": 128])
        sessions.hostBehind(merged: ["/dev/input/event4": 64], dropped: ["/dev/input/event4": 3])
        #expect(sessions.dropCounts == [.hostBehind: 3])
        #expect(sessions.summary == "local pads: 1 opened, 0 samples to the host, 192 late ones merged into them, dropped host-behind=3")
        #expect(said.lines.filter { $0.contains("fell behind") } == [
            "local pads: the host fell behind DualSense and merged 128 of its late samples into fewer steps (its motion is kept)",
            "warning: local pads: the host fell behind DualSense by more than 2048 button edges and dropped the oldest 3",
        ])
    }
}
#endif
