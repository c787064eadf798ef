#if os(Linux)
@testable import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import RemotionSystem
import Testing

/// The reader posts every read to its own buffer (`LocalPadInbox`) while the host's loop is
/// busy elsewhere; when the loop comes back it takes the whole backlog at once. However late
/// the loop, the pointer moves the whole turn (virtual time, the real pipeline and mapper).
@Suite struct LocalPadLateLoopTests {
    typealias T = LocalPadSessionsTests

    /// A pad at 66.7 reports/s with three samples a report 5 ms apart (as hid-nintendo sends a
    /// Switch Pro Controller's), turning right at 90 °/s for `seconds`, every read posted
    /// while the loop takes nothing; then the loop takes the backlog. The counts it moved.
    func run(loopLate seconds: Int, pressAt press: Int? = nil) throws -> (moved: Int, rig: DSURig, sessions: LocalPadSessions) {
        let rig = DSURig()
        let sessions = T().open(rig)
        var pad = try T.dualSense()
        let inbox = LocalPadInbox()
        var queued = 0
        for report in 0..<(seconds * 1000 / 15) {
            var read: [LocalPad.Event] = []
            for k in 0..<3 { read += pad.motionEvents(T.frame(UInt32(report * 15_000 + k * 5_000), yaw: 90)) }
            if report == press { read += [.button(.a, isDown: true), .button(.a, isDown: false)] }
            if inbox.post(.events(key: T.key, read)) { queued += 1 }
        }
        #expect(queued == 1, "one drain queued for the whole backlog")
        // The host's clock moves on meanwhile; the pad's keep-alives stand for the backstop's
        // stall clock (`ExternalControllers.stallAllowance`), which keeps a pad open whose
        // loop did not run, so the session is still there when the backlog comes.
        for _ in 0..<seconds {
            rig.advance(by: .seconds(1))
            sessions.handle(.alive([T.key: LocalPadCounters()]), now: rig.now)
        }
        let batch = inbox.take()
        sessions.hostBehind(merged: batch.merged, dropped: batch.dropped)
        for notice in batch.notices { sessions.handle(notice, now: rig.now) }
        return (rig.log.movedX, rig, sessions)
    }

    /// 90 °/s × 16/3 counts per degree, over the pad's time.
    static func turn(seconds: Int) -> Double { 90 * (Double(seconds * 1000 / 15) * 0.015 - 0.005) * 16 / 3 }

    @Test(arguments: [3, 12]) func aLoopLateForAPadStillMovesTheWholeTurn(seconds: Int) throws {
        let (moved, _, _) = try run(loopLate: seconds)
        let want = Self.turn(seconds: seconds)
        #expect(abs(Double(moved) - want) <= want / 100, "moved \(moved) of \(Int(want)) counts, the loop \(seconds) s late")
    }

    @Test func aClickInsideTheBacklogClicksOnceWhereTheHandWas() throws {
        let (_, rig, _) = try run(loopLate: 3, pressAt: 100)
        let clicks = rig.log.lines.filter { $0.contains("\"kind\":\"button\"") }
        #expect(clicks.count == 2 && clicks.first?.contains("\"down\"") == true && clicks.last?.contains("\"up\"") == true,
                "\(clicks)")
        // The pointer had moved what the pad turned up to the click's report (1.51 s).
        guard let down = rig.log.lines.firstIndex(where: { $0.contains("\"kind\":\"button\"") }) else { return }
        let before = LineLog()
        before.lines = Array(rig.log.lines[..<down])
        let want = 90 * 1.51 * 16 / 3
        #expect(abs(Double(before.movedX) - want) <= want / 100 + 1, "moved \(before.movedX) of \(want) before the click")
    }

    @Test func theStopLineSaysHowMuchWasMerged() throws {
        let (_, _, sessions) = try run(loopLate: 3)
        #expect(sessions.summary.contains("late ones merged into them"), "\(sessions.summary)")
        #expect(!sessions.summary.contains(" 0 late ones"), "\(sessions.summary)")
        #expect(sessions.dropCounts.isEmpty, "\(sessions.dropCounts)")
    }
}
#endif
