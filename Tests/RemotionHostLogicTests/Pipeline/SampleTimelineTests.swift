import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// A controller's sample clock onto the host's (`SampleTimeline`): the rules in its comment
/// and docs/SECURITY.md, each with the numbers.
@Suite struct SampleTimelineTests {
    static let start = Instant(nanoseconds: 5_000_000_000)   // the host's clock at 5 s

    @Test func theFirstSampleIsAnchoredAtTheHostsClockAndStepsAreTheControllers() {
        var t = SampleTimeline()
        #expect(t.map(123_456_789, now: Self.start) == 5_000_000)
        // 4 ms steps of the controller, arriving with jitter: the controller's steps count.
        #expect(t.map(123_460_789, now: Self.start + .microseconds(4_700)) == 5_004_000)
        #expect(t.map(123_464_789, now: Self.start + .microseconds(7_900)) == 5_008_000)
        #expect(t.discontinuities == 0 && t.reanchors == 0)
    }

    @Test func aRepeatAStepBackAndAJumpRestartAtTheHostsClock() {
        var t = SampleTimeline()
        _ = t.map(1_000, now: Self.start)
        // Repeated: a discontinuity, but the mapped time still moves on (no dt = 0).
        #expect(t.map(1_000, now: Self.start) == 5_000_001)
        // Backwards: restarts at the host's now.
        #expect(t.map(500, now: Self.start + .milliseconds(10)) == 5_010_000)
        // A jump past a second (the 4e15 µs that trapped a host with a pad): at the host's now.
        #expect(t.map(4_000_000_000_000_500, now: Self.start + .milliseconds(14)) == 5_014_000)
        // And the controller's steps count again from there.
        #expect(t.map(4_000_000_000_004_500, now: Self.start + .milliseconds(18)) == 5_018_000)
        #expect(t.discontinuities == 3)
    }

    @Test func extremesNeverTrapAndTheMappedTimeOnlyMovesOn() {
        var t = SampleTimeline()
        var previous: UInt64 = 0
        var now = Self.start
        for sample: UInt64 in [0, .max, 0, .max, .max - 1, 1 << 63, 1, .max, 1_000_000, 2_000_000] {
            let mapped = t.map(sample, now: now)
            #expect(mapped > previous)
            #expect(Int64(mapped) <= now.microseconds + SampleTimeline.hardLead + 10)
            previous = mapped
            now = now + .microseconds(100)
        }
    }

    /// A controller whose clock lies fast (1 s steps every 100 ms of the host's): the mapped
    /// time never gets more than 30 s ahead of the host's. One that barely moves (1 µs steps)
    /// is drawn forward once 30 s behind by 1 µs a step, never in one long step (a pull is a
    /// step every integrator takes as motion). Past the bounds every step counts as re-timed.
    @Test func aFastOrSlowClockIsHeldNearTheHostsClock() {
        var fast = SampleTimeline(), slow = SampleTimeline()
        var now = Self.start
        var lastSlow: UInt64 = 0
        for k in 0..<1_000 as Range<UInt64> {
            let f = fast.map(k * 1_000_000, now: now), s = slow.map(k, now: now)
            #expect(Int64(f) <= now.microseconds + SampleTimeline.hardLead + 1_000)
            if k > 0 { #expect(s - lastSlow <= 2, "a slow clock's step stays its own, 1 µs (+1 µs drawn forward)") }
            lastSlow = s
            now = now + .milliseconds(100)
        }
        #expect(fast.reanchors > 900 && slow.reanchors > 600)
    }

    /// A stall longer than the 30 s lag bound: the backlog keeps the controller's own steps
    /// (within 0.1 %, drawn toward the host's clock), where a pull made its first step 10 s
    /// long — a step the pad's sensor clock and every integrator take as motion.
    @Test func aBacklogPastTheLagBoundKeepsItsSteps() {
        var timeline = SampleTimeline()
        var previous = timeline.map(1_000_000, now: Self.start)
        for k in 1...10_000 as ClosedRange<UInt64> {
            let mapped = timeline.map(1_000_000 + k * 4_000, now: Self.start + .seconds(40))
            #expect(mapped - previous >= 4_000 && mapped - previous <= 4_004, "step \(k): \(mapped - previous)")
            previous = mapped
        }
        #expect(timeline.discontinuities == 0)
    }

    /// A stall: the host's clock moves on 2.5 s while the controller's samples queue, then
    /// 100 of them (4 ms apart by the controller's clock) arrive at once. Each keeps its own
    /// 4 ms step; with a 1 s lag bound the first of them jumped 1.5 s, which a gyro mouse
    /// integrates as motion.
    @Test func aBacklogAfterAStallKeepsTheControllersOwnSteps() {
        var timeline = SampleTimeline()
        var now = Self.start
        var previous = timeline.map(1_000_000, now: now)
        for k in 1...50 as ClosedRange<UInt64> {
            now = now + .milliseconds(4)
            previous = timeline.map(1_000_000 + k * 4_000, now: now)
        }
        now = now + .milliseconds(2_500)
        for k in 51...150 as ClosedRange<UInt64> {
            let mapped = timeline.map(1_000_000 + k * 4_000, now: now)
            #expect(mapped - previous == 4_000)
            previous = mapped
        }
        #expect(timeline.reanchors == 0 && timeline.discontinuities == 0)
    }

    /// A first sample that came 300 ms late, then samples on time: the controller's own 4 ms
    /// steps go on unchanged (the mapped time runs 300 ms ahead, within the 1 s lead). A clock
    /// more than 1 s ahead is drawn back by 0.1 % of a step per sample, never collapsed.
    @Test func aLateFirstSampleKeepsTheControllersSteps() {
        var t = SampleTimeline()
        let first = t.map(0, now: Self.start + .milliseconds(300))
        var previous = first
        for k in 1...100 as ClosedRange<UInt64> {
            let mapped = t.map(k * 4_000, now: Self.start + .milliseconds(Int64(k) * 4 + 1))
            #expect(mapped - previous == 4_000)
            previous = mapped
        }
        var ahead = SampleTimeline()
        _ = ahead.map(0, now: Self.start + .milliseconds(1_500))
        var last = ahead.map(4_000, now: Self.start)
        for k in 2...10 as ClosedRange<UInt64> {
            let mapped = ahead.map(k * 4_000, now: Self.start)
            #expect(mapped - last == 3_996, "dt shortened by 0.1 % while it converges")
            last = mapped
        }
        #expect(t.reanchors == 0 && ahead.reanchors > 0)
    }

    /// A gamepad on this computer (its times already the host's: the kernel's event time, then
    /// the pad's steps) whose first sample is handled 2.5 s late — the host busy making its
    /// virtual twin in a starved guest — and then the backlog at once, then samples on time.
    /// Anchored at the sample's own time, every 10 ms step is kept (a loaded guest saw the
    /// pointer fall 31 % short when it was anchored at the late `now` and then slowed); on the
    /// controller's own clock it is anchored late and runs 2.5 s ahead, drawn back by 0.1 % of
    /// each step: its steps are still the controller's within 0.1 %.
    @Test func aHostClockSampleIsAnchoredAtItsOwnTimeHoweverLateItIsHandled() {
        let made = Self.start.microseconds          // the kernel's time of the first frame
        var host = SampleTimeline(clock: .host), own = SampleTimeline(clock: .own)
        let late = Self.start + .milliseconds(2_500)
        #expect(host.map(UInt64(made), now: late) == UInt64(made))
        _ = own.map(UInt64(made), now: late)
        var previous = UInt64(made), ownSteps: UInt64 = 0, ownPrevious = UInt64(late.microseconds)
        for k in 1...400 as ClosedRange<Int64> {
            let t = UInt64(made + k * 10_000)
            let now = k <= 250 ? late : Self.start + .milliseconds(k * 10 + 1)   // the backlog, then on time
            let mapped = host.map(t, now: now)
            #expect(mapped - previous == 10_000)
            previous = mapped
            let o = own.map(t, now: now)
            ownSteps += o - ownPrevious
            ownPrevious = o
        }
        #expect(host.reanchors == 0 && host.discontinuities == 0)
        #expect(own.reanchors > 0 && ownSteps >= 4_000_000 - 4_000 && ownSteps < 4_000_000)
        // Never ahead of the host's now, never more than maxLag behind it.
        var ahead = SampleTimeline(clock: .host)
        #expect(ahead.map(UInt64(made + 9_000_000), now: Self.start) == UInt64(made))
        var behind = SampleTimeline(clock: .host)
        #expect(behind.map(0, now: Self.start + .seconds(60)) == UInt64((Self.start + .seconds(60)).microseconds - SampleTimeline.maxLag))
    }

    /// The stop line's totals: an ended session's re-anchors and restarts are kept.
    @Test func endedSessionsLeaveTheirClockTotals() {
        var core = PipelineCore(profile: MappingProfile())
        var out: [PipelineOutput] = []
        let id = SessionID(7)
        core.open(id, address: "a", identity: "a", now: Self.start, into: &out)
        let screen = ScreenGeometry(width: 100, height: 100)
        for t: UInt64 in [1_000, 1_000, 500] {
            _ = core.motion(id, MotionSample(timestampMicros: t, gyro: Vector3(x: 0, y: 0, z: 0)), latencyMicros: nil,
                            screen: screen, now: Self.start)
        }
        #expect(core.sampleClockTotals().restarts == 2)
        core.close(id, reason: .timedOut, now: Self.start, into: &out)
        #expect(core.sessions.isEmpty && core.sampleClockTotals().restarts == 2)
    }

    /// Every consumer reads the mapped time: the pipeline hands it on (the DSU server's
    /// observer) while the status keeps the controller's own.
    @Test func thePipelineMapsBeforeAnythingReadsTheTime() {
        var core = PipelineCore(profile: MappingProfile(),
                                pads: VirtualPadSettings(forEvery: true))
        var out: [PipelineOutput] = []
        let id = SessionID(1)
        core.open(id, address: "a", identity: "a", now: Self.start, into: &out)
        let sample = MotionSample(timestampMicros: 9_000_000_000_000_000, gyro: Vector3(x: 0, y: 0, z: 1))
        let m = core.motion(id, sample, latencyMicros: nil, screen: ScreenGeometry(width: 100, height: 100), now: Self.start)
        #expect(m.sample?.timestampMicros == 5_000_000)
        #expect(m.pad?.motion.time == Instant(nanoseconds: 5_000_000_000))
        #expect(core.sessions[id]?.telemetry.lastSampleMicros == 9_000_000_000_000_000)
    }
}
