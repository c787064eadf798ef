#if os(Linux)
@testable import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import RemotionSystem
import Testing

/// The reader's notices on their way to a loop that may fall behind: one drain queued at a
/// time, the backlog bounded, what opens and closes pads never dropped.
@Suite struct LocalPadInboxTests {
    static func read(_ key: String, _ n: Int) -> LocalPadNotice {
        .events(key: key, Array(repeating: .button(.a, isDown: true), count: n))
    }

    @Test func oneDrainIsQueuedUntilTheLoopTakesTheNotices() {
        let inbox = LocalPadInbox()
        #expect(inbox.post(.opened(key: "a", name: "A")))
        #expect(!inbox.post(Self.read("a", 3)))
        #expect(!inbox.post(.say("x")))
        let (notices, dropped) = inbox.take()
        #expect(notices.count == 3 && dropped.isEmpty)
        #expect(inbox.post(Self.read("a", 1)))          // the next drain
        #expect(inbox.take().notices.count == 1)
        #expect(inbox.take().notices.isEmpty)
    }

    @Test func aLoopFarBehindLosesTheOldestReadsNotThePadsComingAndGoing() {
        let inbox = LocalPadInbox()
        _ = inbox.post(.opened(key: "a", name: "A"))
        let reads = LocalPadInbox.limit / 64 + 10
        for _ in 0..<reads { _ = inbox.post(Self.read("a", 64)) }
        _ = inbox.post(.closed(key: "a", why: "unplugged"))
        let (notices, dropped) = inbox.take()
        let kept = notices.filter(\.isEvents).count
        #expect(kept * 64 <= LocalPadInbox.limit && kept == LocalPadInbox.limit / 64)
        #expect(dropped == ["a": (reads - kept) * 64])
        guard case .opened = notices.first, case .closed = notices.last else {
            Issue.record("the pad's opening and closing were dropped: \(notices.count) notices"); return
        }
    }

    /// The session's drops name them, and the stop line counts them.
    @Test func whatTheHostDroppedBehindIsCounted() throws {
        let rig = DSURig()
        let said = RecordingLog()
        let sessions = LocalPadSessions(pipeline: rig.pipeline, logger: said.logger) { _, _ in }
        sessions.handle(.opened(key: "/dev/input/event4", name: "DualSense"), now: rig.now)
        sessions.hostBehind(["/dev/input/event4": 128])
        sessions.hostBehind(["/dev/input/event4": 64])
        #expect(sessions.dropCounts == ["host-behind": 192])
        #expect(said.lines.filter { $0.contains("fell behind") }
            == ["warning: local pads: the host fell behind DualSense and dropped 128 of its events (motion too late to play)"])
    }
}
#endif
