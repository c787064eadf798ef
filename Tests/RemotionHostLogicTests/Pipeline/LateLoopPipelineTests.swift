import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The loop falls 3 s behind a pad at 66.7 reports/s: its backlog is merged as the origin's
/// reader merges it (a local pad's `LateMotion`, a DSU source's `DSUEventBatch`) and goes
/// through the whole pipeline at one `now` — the sample clock (`SampleTimeline`), the mapper
/// (fusion's and the gyro mouse's dt) and the pad's gyro stick. The pointer, and the gyro
/// stick's integral over the pad's own sensor clock, come out as the same pad's handled on
/// time, within 1%: the integrators see the controller's own steps.
@Suite struct LateLoopPipelineTests {
    static let id = SessionID(1)
    static let start = Instant.seconds(10)

    /// FPS mode made linear (the pointer's counts are the rotation's), no bias subtracted, and
    /// the gyro on the pad's right stick (360 °/s full: the rates below stay in its linear part).
    static func profile() -> MappingProfile {
        var p = MappingProfile()
        p.settings.mode = .fps
        p.settings.fps.fastSensitivity = p.settings.fps.slowSensitivity
        p.settings.fps.tightening = 0
        p.settings.fps.smoothThreshold = 0
        p.settings.sensors.calibrationMode = .off
        p.settings.sensors.restGate = false
        p.settings.gyroStick.target = .right
        return p
    }

    /// One session through a `PipelineCore`: the pointer's counts and the gyro stick's
    /// integral (each report's stick × the step of the pad's sensor clock it covers).
    struct Run {
        var core = PipelineCore(profile: LateLoopPipelineTests.profile(), pads: VirtualPadSettings())
        var counts = 0
        var stick = 0.0
        var padTime: Instant?
        var opened = false
        let clock: SampleTimeline.Clock

        init(clock: SampleTimeline.Clock) { self.clock = clock }

        mutating func handle(_ samples: [MotionSample], now: Instant) {
            if !opened {
                var out: [PipelineOutput] = []
                core.open(LateLoopPipelineTests.id, address: "pad", identity: "pad", sampleClock: clock, now: now, into: &out)
                opened = true
            }
            for s in samples {
                let m = core.motion(LateLoopPipelineTests.id, s, latencyMicros: nil, screen: fullHD, now: now)
                if case let .moveBy(dx, _)? = m.pointer { counts += dx }
                guard let state = m.pad else { continue }
                if let t = padTime { stick += Double(state.rightStick.x) * Double(state.motion.time.nanoseconds - t.nanoseconds) / 1e9 }
                padTime = state.motion.time
            }
        }
    }

    /// Turning at 30 … 150 °/s and back (so a merge that kept one rate, or one step of it,
    /// would not come out right).
    static func yaw(_ i: Int) -> Double { 30 + 120 * Double(i % 200) / 200 }

    /// A gamepad on this computer at 66.7 reports/s, three samples a report 5 ms apart (a
    /// Switch Pro Controller through hid-nintendo), its times on the host's clock; `seconds`
    /// long; while the loop is stalled (`stall`, in seconds from the start) its reports wait.
    static func localPad(seconds: Int, stall: Range<Int>) -> (onTime: Run, late: Run) {
        var onTime = Run(clock: .host), late = Run(clock: .host)
        var backlog: [LateMotion.Event] = []
        for r in 0..<(seconds * 1000 / 15) {
            let samples = (0..<3).map { k in
                gyroSample(UInt64(start.microseconds) + UInt64(r * 15 + k * 5) * 1_000, yawRate: yaw(r * 3 + k))
            }
            let due = start + .milliseconds(Int64(r * 15 + 12))
            onTime.handle(samples, now: due)
            backlog += samples.map { .sample($0) }
            if stall.contains(r * 15 / 1000) { continue }
            // The reader hands the pad's backlog over at once, merged (`LocalPadInbox`).
            let events = LateMotion.merge(backlog).events
            backlog = []
            late.handle(events.compactMap { if case let .sample(s) = $0 { s } else { nil } }, now: due)
        }
        return (onTime, late)
    }

    /// A DSU server at 66.7 Hz on its own clock; the host reads up to 128 datagrams at a time
    /// and merges each read (`DSUEventBatch`); while the loop is stalled they wait.
    static func dsu(seconds: Int, stall: Range<Int>) -> (onTime: Run, late: Run) {
        var onTime = Run(clock: .own), late = Run(clock: .own)
        var backlog: [DSUSourceStateMachine.Event] = []
        var batch = DSUEventBatch()
        for r in 0..<(seconds * 1000 / 15) {
            let s = gyroSample(7_000_000 + UInt64(r) * 15_000, yawRate: yaw(r))
            let due = start + .milliseconds(Int64(r * 15 + 2))
            onTime.handle([s], now: due)
            backlog.append(.sample(slot: 0, s))
            if stall.contains(r * 15 / 1000) { continue }
            for chunk in stride(from: 0, to: backlog.count, by: 128) {
                batch.append(contentsOf: Array(backlog[chunk..<min(chunk + 128, backlog.count)]))
                late.handle(batch.drain().compactMap { if case let .sample(_, m) = $0 { m } else { nil } }, now: due)
            }
            backlog = []
        }
        return (onTime, late)
    }

    static func expectSameTurn(_ runs: (onTime: Run, late: Run), _ what: String) {
        let (a, b) = runs
        #expect(abs(a.counts) > 1_000 && abs(a.stick) > 0.5, "\(what): the turn is a turn (\(a.counts), \(a.stick))")
        #expect(abs(b.counts - a.counts) <= abs(a.counts) / 100, "\(what): the pointer moved \(b.counts) of \(a.counts)")
        #expect(abs(b.stick - a.stick) <= abs(a.stick) / 100, "\(what): the gyro stick's integral \(b.stick) of \(a.stick)")
    }

    @Test func aLoopThreeSecondsBehindALocalPadStillMovesTheWholeTurn() {
        Self.expectSameTurn(Self.localPad(seconds: 5, stall: 1..<4), "local pad")
    }

    @Test func aLoopThreeSecondsBehindADSUSourceStillMovesTheWholeTurn() {
        Self.expectSameTurn(Self.dsu(seconds: 5, stall: 1..<4), "DSU source")
    }

    /// Past the 30 s lag bound: the backlog's first step was pulled 10 s long, which the pad's
    /// state took as 10 s of the gyro stick's deflection (its sensor clock caps a step at 1 s).
    @Test func aLoopFortySecondsBehindADSUSourceStillMovesTheWholeTurn() {
        Self.expectSameTurn(Self.dsu(seconds: 42, stall: 1..<41), "DSU source, 40 s behind")
    }

    /// The controller arrives while the loop is stalled: its first sample is handled 3 s late,
    /// with the whole backlog after it at the same `now`.
    @Test func aControllerThatArrivesDuringTheStallStillMovesTheWholeTurn() {
        Self.expectSameTurn(Self.dsu(seconds: 5, stall: 0..<3), "DSU source, first sample 3 s late")
        Self.expectSameTurn(Self.localPad(seconds: 5, stall: 0..<3), "local pad, first sample 3 s late")
    }
}
