import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// A game's rumble and light on their way back to the controller, on
/// virtual time: the pacer alone, a DualSense output report's change, and the pipeline
/// core that keeps one pacer per session with a pad.
@Suite struct FeedbackPacerTests {
    static func ms(_ v: Int64) -> Instant { .milliseconds(v) }
    static let full = FeedbackChange(rumble: .init(low: 255, high: 128))
    static let off = FeedbackChange(rumble: .init(low: 0, high: 0))
    static let blue = FeedbackChange(lightbar: .init(red: 0, green: 0, blue: 255))

    @Test func aChangeGoesAtOnceARepeatNeverAndASecondChangeWaitsForTheMinimumInterval() {
        var p = FeedbackPacer()
        #expect(p.update(Self.full, now: Self.ms(0)) == ControllerFeedback(rumbleLow: 255, rumbleHigh: 128))
        #expect(p.update(Self.full, now: Self.ms(1)) == nil)                       // the same again: nothing
        #expect(p.update(Self.off, now: Self.ms(10)) == nil)                       // 10 ms after the last: held back
        #expect(p.update(Self.full, now: Self.ms(20)) == nil)                      // and folded into the next
        #expect(p.update(Self.off, now: Self.ms(30)) == nil)
        #expect(p.due(now: Self.ms(49)) == nil)
        #expect(p.due(now: Self.ms(50)) == ControllerFeedback())                   // the newest, with the next sample
        #expect(p.due(now: Self.ms(60)) == nil)
        #expect(p.sent == 2 && p.coalesced == 2)
    }

    /// The deadline the host's timer wakes at: a change held back goes 50 ms after the last
    /// one sent, a running rumble's refresh 500 ms after; nothing when nothing waits.
    @Test func theNextDeadlineIsTheHeldChangeElseTheRefresh() {
        var p = FeedbackPacer()
        #expect(p.nextDeadline == nil)
        _ = p.update(Self.blue, now: Self.ms(0))
        #expect(p.nextDeadline == nil, "a colour sent, nothing held, no rumble")
        #expect(p.update(Self.full, now: Self.ms(10)) == nil)
        #expect(p.nextDeadline == Self.ms(50))
        #expect(p.due(now: Self.ms(50))?.rumbleLow == 255)
        #expect(p.nextDeadline == Self.ms(550), "running: its refresh")
        #expect(p.update(Self.off, now: Self.ms(600)) != nil)
        #expect(p.nextDeadline == nil)
    }

    @Test func aRunningRumbleIsSentAgainEveryHalfSecondAndAStoppedOneIsNot() {
        var p = FeedbackPacer()
        _ = p.update(Self.full, now: Self.ms(0))
        #expect(p.due(now: Self.ms(499)) == nil)
        #expect(p.due(now: Self.ms(500))?.rumbleLow == 255)
        #expect(p.due(now: Self.ms(999)) == nil)
        #expect(p.due(now: Self.ms(1000))?.rumbleLow == 255)
        #expect(p.update(Self.off, now: Self.ms(1200)) == ControllerFeedback())
        #expect(p.due(now: Self.ms(5000)) == nil)                                   // off: said once
        #expect(p.update(Self.blue, now: Self.ms(6000))?.lightbar == .init(red: 0, green: 0, blue: 255))
        #expect(p.due(now: Self.ms(9000)) == nil)                                   // a colour is state, not a refresh
    }

    @Test func aColourOnlyReportKeepsTheRumbleAndARumbleOnlyOneKeepsTheColour() {
        var p = FeedbackPacer()
        _ = p.update(Self.full, now: Self.ms(0))
        let both = p.update(Self.blue, now: Self.ms(100))
        #expect(both == ControllerFeedback(rumbleLow: 255, rumbleHigh: 128, lightbar: .init(red: 0, green: 0, blue: 255)))
        #expect(p.update(Self.off, now: Self.ms(200))?.lightbar == .init(red: 0, green: 0, blue: 255))
    }

    /// The kernel's output report sets the motors only with its rumble flags (valid_flag0
    /// bit 1 with bit 0, or valid_flag2 bit 2): one that sets only the lightbar (valid_flag1
    /// bit 2) leaves the rumble alone. SDL's always carry its whole rumble state.
    @Test func aDualSenseReportWithoutRumbleFlagsChangesOnlyTheLight() throws {
        var usb = [UInt8](repeating: 0, count: 63)
        usb[0] = 0x02; usb[2] = 0x04; usb[3] = 99; usb[4] = 99      // lightbar only; motor bytes not valid
        usb[1 + 44] = 10; usb[1 + 45] = 20; usb[1 + 46] = 30
        let lightOnly = try #require(DualSenseOutput.parse(usb))
        #expect(lightOnly.change == FeedbackChange(lightbar: .init(red: 10, green: 20, blue: 30)))
        usb[1 + 38] = 0x04                                          // valid_flag2: COMPATIBLE_VIBRATION2
        let rumble = try #require(DualSenseOutput.parse(usb))
        #expect(rumble.change.rumble == .init(low: 99, high: 99))
        // SDL's USB report (48 bytes) stops the rumble by clearing its flags, motors 0.
        var sdl = [UInt8](repeating: 0, count: 48)
        sdl[0] = 0x02; sdl[2] = 0x04
        #expect(try #require(DualSenseOutput.parse(sdl)).change.rumble == .init(low: 0, high: 0))
    }

    @Test func theCoreSendsFeedbackOnlyForASessionWithAPadAndRefreshesItWithSamples() {
        var rig = PipelineCoreTests.Rig(pads: VirtualPadSettings())
        let one = SessionID(1), two = SessionID(2)
        _ = rig.open(one)
        var out: [PipelineOutput] = []
        rig.core.padFeedback(one, Self.full, now: Self.ms(0), into: &out)
        #expect(out == [.feedback(ControllerFeedback(rumbleLow: 255, rumbleHigh: 128))])
        out.removeAll()
        rig.core.padFeedback(two, Self.full, now: Self.ms(0), into: &out)           // no such session
        #expect(out.isEmpty)
        rig.now = Self.ms(600)
        let refreshed = rig.motion(one, MotionSample(timestampMicros: 600_000, gyro: .zero))
        #expect(refreshed.contains(.feedback(ControllerFeedback(rumbleLow: 255, rumbleHigh: 128))))
        var plain = PipelineCoreTests.Rig()                                          // no pads: no feedback at all
        _ = plain.open(one)
        plain.core.padFeedback(one, Self.full, now: Self.ms(0), into: &out)
        #expect(out.isEmpty)
    }
}
