import RemotionHostLogic
import RemotionProtocol
import Testing

/// Newest wins for a stream that stalls or reorders (docs/WEB-CONTROLLER.md, "Newest wins"):
/// a burst of old frames injects once, stale frames are counted, buttons stay exactly once
/// and in order, and the FPS rotation of merged frames is kept.
@Suite struct NewestWinsIntakeTests {
    static let interval: UInt64 = 16_667          // 60 Hz, µs on the page's clock
    static let delay: Int64 = 3_000               // one-way delay on a quiet link, µs

    static func frame(_ i: Int, gyro: Vector3? = Vector3(x: 0.1, y: 0, z: 1), buttons: ButtonSet = .none) -> NewestWinsIntake.Frame {
        let t = 1_000_000 + UInt64(i) * interval
        let a = Attitude(roll: 0, pitch: Double(i) * 0.001, yaw: Double(i) * 0.01)
        return .init(sequence: UInt32(i), sample: MotionSample(timestampMicros: t, attitude: a, gyro: gyro, buttons: buttons))
    }
    /// When frame i arrives on a quiet link (host clock, µs; the clocks differ by 5 s).
    static func onTime(_ i: Int) -> Instant {
        Instant(nanoseconds: (5_000_000 + 1_000_000 + Int64(i) * Int64(interval) + delay) * 1000)
    }
    static func motions(_ out: [NewestWinsIntake.Output]) -> [(MotionSample, Int)] {
        out.compactMap { if case let .motion(s, _, n) = $0 { (s, n) } else { nil } }
    }

    @Test func aQuietStreamPassesThroughUnchanged() {
        var intake = NewestWinsIntake()
        for i in 0..<200 {
            let f = Self.frame(i)
            let jitter = Instant(nanoseconds: Int64((i * 7919) % 9000) * 1000)   // 0…9 ms
            #expect(intake.motion(f, now: Self.onTime(i) + (jitter - .zero)) == [.motion(f.sample, latencyMicros: nil, frames: 1)])
        }
        #expect(intake.counters == .init())
    }

    @Test func aOneSecondStallInjectsOneSamplePerMapperStepWithTheRealRateAndTime() {
        var intake = NewestWinsIntake()
        var out: [NewestWinsIntake.Output] = []
        for i in 0..<10 { out += intake.motion(Self.frame(i), now: Self.onTime(i)) }
        // Frames 10…69 are sent during a 1 s outage; TCP delivers them together (each 20 µs
        // after the previous) when frame 69 would have arrived, then frame 70 comes on time.
        var burst: [NewestWinsIntake.Output] = []
        for i in 10..<70 {
            burst += intake.motion(Self.frame(i), now: Self.onTime(69) + .microseconds(20 * (i - 10)))
        }
        let merged = Self.motions(burst + intake.motion(Self.frame(70), now: Self.onTime(70)))
        // Five frames (83 ms) a sample: a sixth would make it more than the mapper's 0.1 s step.
        #expect(merged.map(\.1) == Array(repeating: 5, count: 12) + [1], "\(merged.map(\.1))")
        #expect(merged.last?.0.attitude == Self.frame(70).sample.attitude)
        // Each is its newest frame's time and the rate the phone measured (z = 1 rad/s):
        // the mapper turns every frame's rotation (61 × 1/60 s) and a pad reads the real rate.
        var last = Self.frame(9).sample.timestampMicros, turned = 0.0
        for (sample, _) in merged {
            #expect((sample.timestampMicros - 1_000_000) % Self.interval == 0)
            let step = Double(sample.timestampMicros - last) / 1e6
            #expect(step <= GyroMouseMapper.maxStep)
            #expect(abs(Double(sample.gyro!.z) - 1) < 1e-5 && abs(Double(sample.gyro!.x) - 0.1) < 1e-5)
            turned += Double(sample.gyro!.z) * step
            last = sample.timestampMicros
        }
        #expect(last == Self.frame(70).sample.timestampMicros)
        #expect(abs(turned - 61 * Double(Self.interval) / 1e6) < 1e-5)
        #expect(intake.counters.merged == 48 && intake.counters.bursts == 12 && intake.counters.stale == 0)
        for i in 71..<80 {
            #expect(Self.motions(intake.motion(Self.frame(i), now: Self.onTime(i))).map(\.1) == [1])
        }
    }

    /// A stream that arrives in bursts for as long as it lasts (a host too slow to read it at
    /// the sender's pace: ten frames every 167 ms): every sample sent carries the rate the
    /// phone measured, never more (a pad's gyro once read 5/3 of it), on the phone's clock.
    @Test func aStreamThatKeepsArrivingInBurstsKeepsItsRealRate() {
        var intake = NewestWinsIntake()
        for i in 0..<10 { _ = intake.motion(Self.frame(i), now: Self.onTime(i)) }
        var sent: [(MotionSample, Int)] = []
        for i in 10..<310 {
            let batchEnd = (i / 10) * 10 + 9           // arrives with the last frame of its ten
            let at = Self.onTime(batchEnd) + .microseconds(20 * (i % 10))
            if i % 10 == 0 { sent += Self.motions(intake.expire(now: at)) }
            sent += Self.motions(intake.motion(Self.frame(i), now: at))
        }
        sent += Self.motions(intake.expire(now: Self.onTime(400)))
        #expect(sent.map(\.1).reduce(0, +) == 300)
        #expect(sent.count < 300 / 2, "\(sent.count) samples: a replay")
        for (sample, _) in sent {
            #expect(abs(Double(sample.gyro!.z) - 1) < 1e-5, "\(sample.gyro!)")
        }
        #expect(zip(sent, sent.dropFirst()).allSatisfy { $0.0.timestampMicros < $1.0.timestampMicros })
    }

    /// The reader was descheduled for 12 ms in the middle of a backlog: one frame looks like
    /// it came at the sender's pace. That sends what is held, but the rest still merges.
    @Test func aPauseInTheMiddleOfABacklogDoesNotTurnTheRestIntoAReplay() {
        var intake = NewestWinsIntake()
        for i in 0..<10 { _ = intake.motion(Self.frame(i), now: Self.onTime(i)) }
        var counts: [Int] = []
        var t = Self.onTime(69) - .milliseconds(20)
        for i in 10...70 {
            t = i == 41 ? t + .milliseconds(12) : i == 70 ? Self.onTime(70) : t + .microseconds(20)
            counts += Self.motions(intake.motion(Self.frame(i), now: t)).map(\.1)
        }
        // Five frames a sample (one mapper step) on both sides of the pause; a replay: ones.
        #expect(counts.reduce(0, +) == 61 && counts.count <= 14 && counts.filter { $0 == 1 }.count <= 2, "\(counts)")
    }

    /// Whatever time a client writes into a frame (finite: the decoder refuses the rest),
    /// decoding, the sample and the intake never trap.
    @Test func extremeFrameTimesNeverTrap() throws {
        var intake = NewestWinsIntake()
        var rng = SplitMix64(seed: 3)
        let times: [Double] = [1e300, -1e300, 0, 1.7e16, 1.8e16, 1.8e19, -1, .greatestFiniteMagnitude]
        for i in 0..<2000 {
            var bytes = [UInt8](repeating: 0, count: 52)
            bytes[0] = 0x01
            bytes[1] = 0x03
            withUnsafeBytes(of: UInt32(i).littleEndian) { bytes.replaceSubrange(4..<8, with: $0) }
            let t = i < times.count ? times[i] : times.randomElement(using: &rng)! * Double.random(in: 0...1, using: &rng)
            withUnsafeBytes(of: t.bitPattern.littleEndian) { bytes.replaceSubrange(8..<16, with: $0) }
            withUnsafeBytes(of: Float.random(in: -1e38...1e38, using: &rng).bitPattern.littleEndian) { bytes.replaceSubrange(36..<40, with: $0) }
            guard case let .motion(m) = try WebFrame.decode(bytes) else { Issue.record("not motion"); return }
            let now = Instant(nanoseconds: Int64.random(in: 0...Int64.max / 2, using: &rng))
            for case let .motion(s, _, _) in intake.motion(.init(sequence: m.sequence, sample: m.sample), now: now) {
                #expect(s.gyro?.isFinite ?? true)
            }
            _ = intake.expire(now: now)
        }
    }

    @Test func framesOlderThanTheNewestTakenAreStaleDrops() {
        var intake = NewestWinsIntake()
        _ = intake.motion(Self.frame(5), now: Self.onTime(5))
        #expect(intake.motion(Self.frame(7), now: Self.onTime(7)).count == 1)
        #expect(intake.motion(Self.frame(6), now: Self.onTime(7)) == [])       // out of order
        #expect(intake.motion(Self.frame(7), now: Self.onTime(7)) == [])       // duplicate
        #expect(intake.counters.stale == 2)
        // Sequence numbers wrap: 0 follows UInt32.max.
        var wrap = NewestWinsIntake()
        var f = Self.frame(1); f.sequence = .max
        _ = wrap.motion(f, now: Self.onTime(1))
        var g = Self.frame(2); g.sequence = 0
        #expect(wrap.motion(g, now: Self.onTime(2)).count == 1 && wrap.counters.stale == 0)
    }

    @Test func aHeldBurstIsSentWhenNothingNewerComes() {
        var intake = NewestWinsIntake()
        for i in 0..<5 { _ = intake.motion(Self.frame(i), now: Self.onTime(i)) }
        let late = Self.onTime(40)
        #expect(intake.motion(Self.frame(5), now: late) == [])
        #expect(intake.motion(Self.frame(6), now: late + .microseconds(30)) == [])
        #expect(intake.deadline == late + .microseconds(30) + intake.tailWait)
        #expect(intake.expire(now: late + .milliseconds(1)) == [])
        let out = Self.motions(intake.expire(now: intake.deadline!))
        #expect(out.count == 1 && out[0].1 == 2 && out[0].0.attitude == Self.frame(6).sample.attitude)
        #expect(intake.deadline == nil)
    }

    @Test func aSlowlyDrainingBacklogIsSentAtTheHoldLimit() {
        var intake = NewestWinsIntake()
        for i in 0..<5 { _ = intake.motion(Self.frame(i), now: Self.onTime(i)) }
        let start = Self.onTime(80)
        var sent: [Int] = []
        for i in 5..<40 {   // one frame every 5 ms: catching up, but slowly
            sent += Self.motions(intake.motion(Self.frame(i), now: start + .milliseconds(5 * (i - 5)))).map(\.1)
        }
        // Frames 5…9 and 10…14 (one mapper step each: a sixth would pass 0.1 s of the page's
        // time), then frame 15 alone: it came 50 ms after the first, the hold limit.
        #expect(Array(sent.prefix(3)) == [5, 5, 1], "\(sent)")
        #expect(intake.counters.bursts >= 3)
    }

    @Test func aLinkThatSettlesAtAHigherDelayCostsOneMergeThenPassesThrough() {
        var intake = NewestWinsIntake()
        for i in 0..<10 { _ = intake.motion(Self.frame(i), now: Self.onTime(i)) }
        var counts: [Int] = []
        for i in 10..<60 {   // from now on 120 ms later, at the sender's pace
            counts += Self.motions(intake.motion(Self.frame(i), now: Self.onTime(i) + .milliseconds(120))).map(\.1)
        }
        #expect(counts.first == 2 && counts.dropFirst().allSatisfy { $0 == 1 } && counts.count == 49)
    }

    /// A touch that starts and ends inside a held burst (the Gamepad mode's touchpad): the pad
    /// sees the finger come down where it came down, then lift, in order; the rotation is kept.
    @Test func aTouchInsideABurstReachesThePadAsEdgesInOrder() {
        func touched(_ i: Int) -> NewestWinsIntake.Frame {
            var f = Self.frame(i)
            if (20..<23).contains(i) { f.sample.touch = TouchState(first: .init(id: 3, x: Float(i - 20) / 10, y: 0.5), second: nil) }
            return f
        }
        var intake = NewestWinsIntake()
        var out: [NewestWinsIntake.Output] = []
        for i in 0..<10 { out += intake.motion(touched(i), now: Self.onTime(i)) }
        for i in 10..<40 { out += intake.motion(touched(i), now: Self.onTime(39) + .microseconds(20 * (i - 10))) }
        out += intake.motion(touched(40), now: Self.onTime(40))
        let sent = Self.motions(out).map(\.0)
        let fingers = sent.map { $0.touch?.first?.id }
        let edges = zip(fingers, fingers.dropFirst()).filter { $0 != $1 }.map(\.1)
        #expect(edges == [3, nil], "down, then up: \(fingers)")
        #expect(sent.first { $0.touch != nil }?.touch?.first?.x == 0, "down where it came down")
        var last = sent[0].timestampMicros, turned = 0.0
        for s in sent.dropFirst() { turned += Double(s.gyro!.z) * Double(s.timestampMicros - last) / 1e6; last = s.timestampMicros }
        #expect(abs(turned - 40 * Double(Self.interval) / 1e6) < 1e-5)
    }

    @Test func aButtonEdgeSendsTheHeldMotionFirst() {
        var intake = NewestWinsIntake()
        for i in 0..<5 { _ = intake.motion(Self.frame(i), now: Self.onTime(i)) }
        let t = Self.onTime(30)
        #expect(intake.motion(Self.frame(5), now: t) == [])
        let out = intake.button(.a, isDown: true)
        #expect(out.count == 2)
        #expect(out.last == .button(.a, isDown: true))
        #expect(intake.button(.a, isDown: false) == [.button(.a, isDown: false)])
    }

    /// With linear FPS settings the merged sample moves the pointer as far as the replay
    /// would (GyroMouseMapper keeps the sub-pixel remainder, so within one count).
    @Test func theFPSMapperTurnsTheMergedRotationAsFarAsTheReplay() {
        var settings = FPSSettings()
        settings.fastSensitivity = settings.slowSensitivity
        settings.tightening = 0
        settings.smoothThreshold = 0
        let screen = ScreenGeometry(width: 1920, height: 1080)
        var replay = GyroMouseMapper(settings: settings), merged = GyroMouseMapper(settings: settings)
        var intake = NewestWinsIntake()
        var replayX = 0, mergedX = 0
        var rng = SplitMix64(seed: 7)
        for i in 0..<200 {
            let f = Self.frame(i, gyro: Vector3(x: 0, y: 0, z: Float.random(in: -3...3, using: &rng)))
            replayX += replay.update(f.sample, attitude: nil, screen: screen).dx
            let now = (60..<120).contains(i) ? Self.onTime(119) + .microseconds(i) : Self.onTime(i)
            for case let .motion(s, _, _) in intake.motion(f, now: now) {
                mergedX += merged.update(s, attitude: nil, screen: screen).dx
            }
        }
        #expect(intake.counters.bursts == 12)      // the 60-frame backlog, five frames (one step) a sample
        #expect(abs(replayX - mergedX) <= 1, "replay \(replayX), merged \(mergedX)")
    }
}

/// Properties over random streams: an ordered stream (a WebSocket) with random outages,
/// jitter and button edges between the frames, fed through the intake and then through
/// the host's real state machine.
@Suite struct NewestWinsIntakePropertyTests {
    enum Event { case frame(NewestWinsIntake.Frame, Instant), edge(Button, Bool, Instant) }

    /// A page at 60 Hz with random rates and button edges; the link adds 2–4 ms, random
    /// jitter, and 0–3 outages of 0.1–1.5 s after which the backlog arrives in a burst.
    static func stream(seed: UInt64) -> [Event] {
        var rng = SplitMix64(seed: seed)
        let count = Int.random(in: 50...400, using: &rng)
        var outages: [(start: Int64, end: Int64)] = []
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            let start = 8_000_000 + Int64.random(in: 0...(Int64(count) * 16_667), using: &rng)   // on the arrival clock
            outages.append((start, start + Int64.random(in: 100_000...1_500_000, using: &rng)))
        }
        var held = ButtonSet.none
        var events: [Event] = []
        var lastArrival: Int64 = 0
        func arrival(_ sent: Int64, _ rng: inout SplitMix64) -> Instant {
            var t = sent + 7_000_000 + Int64.random(in: 2_000...4_000, using: &rng)
            if Int.random(in: 0..<10, using: &rng) == 0 { t += Int64.random(in: 0...30_000, using: &rng) }
            for o in outages where (o.start..<o.end).contains(t) { t = o.end + Int64.random(in: 0...200, using: &rng) }
            lastArrival = max(lastArrival + 1, t)             // one ordered stream
            return Instant(nanoseconds: lastArrival * 1000)
        }
        for i in 0..<count {
            let sent = 1_000_000 + Int64(i) * 16_667 + Int64.random(in: 0...1500, using: &rng)
            if Int.random(in: 0..<8, using: &rng) == 0 {
                let b = Button(rawValue: UInt8.random(in: 0...3, using: &rng))!
                let down = !held.contains(b)
                held.set(b, down: down)
                events.append(.edge(b, down, arrival(sent - 100, &rng)))
            }
            let gyro = Vector3(x: .random(in: -4...4, using: &rng), y: .random(in: -4...4, using: &rng), z: .random(in: -4...4, using: &rng))
            let sample = MotionSample(timestampMicros: UInt64(sent), attitude: Attitude(roll: 0, pitch: 0, yaw: Double(i)),
                                      gyro: gyro, buttons: held)
            events.append(.frame(.init(sequence: UInt32(truncatingIfNeeded: 4_294_967_200 + i), sample: sample), arrival(sent, &rng)))
        }
        return events
    }

    static func run(_ events: [Event]) -> (outputs: [NewestWinsIntake.Output], intake: NewestWinsIntake) {
        var intake = NewestWinsIntake()
        var outputs: [NewestWinsIntake.Output] = []
        for event in events {
            switch event {
            case let .frame(f, now):
                if let d = intake.deadline, d <= now { outputs += intake.expire(now: d) }   // the adapter's timer
                outputs += intake.motion(f, now: now)
            case let .edge(b, down, now):
                if let d = intake.deadline, d <= now { outputs += intake.expire(now: d) }
                outputs += intake.button(b, isDown: down)
            }
        }
        if let d = intake.deadline { outputs += intake.expire(now: d) }
        return (outputs, intake)
    }

    @Test(arguments: 0..<300) func buttonsArriveExactlyOnceInOrderThroughTheEngine(seed: Int) {
        let events = Self.stream(seed: UInt64(seed))
        let edges = events.compactMap { if case let .edge(b, d, _) = $0 { (b, d) } else { nil } }
        let (outputs, _) = Self.run(events)
        var machine = ExternalControllers<Int>()
        var random = SplitMix64(seed: 1)
        let (id, _) = machine.open(from: .web(device: "phone", peer: nil), now: .zero, maximum: 16, datagramSessions: 0,
                                   taken: { _ in false }, random: &random)!
        var delivered: [(Button, Bool)] = []
        for out in outputs {
            let actions = switch out {
            case let .motion(s, latency, _): machine.motion(id, s, latencyMicros: latency, now: .zero)
            case let .button(b, down): machine.button(id, b, isDown: down, now: .zero)
            }
            for case let .button(_, b, down) in actions { delivered.append((b, down)) }
        }
        #expect(delivered.map(\.0) == edges.map(\.0) && delivered.map(\.1) == edges.map(\.1))
    }

    @Test(arguments: 0..<300) func theFPSRotationSumIsPreserved(seed: Int) {
        let events = Self.stream(seed: UInt64(seed))
        let frames = events.compactMap { if case let .frame(f, _) = $0 { f.sample } else { nil } }
        // What a replay integrates: rate × min(dt, maxStep), nothing across a resync gap.
        func integrate(_ samples: [MotionSample]) -> (Double, Double, Double) {
            var sum = (0.0, 0.0, 0.0)
            for (a, b) in zip(samples, samples.dropFirst()) where b.timestampMicros > a.timestampMicros {
                let dt = Double(b.timestampMicros - a.timestampMicros) / 1e6
                guard dt <= GyroMouseMapper.resyncGap, let g = b.gyro else { continue }
                let step = min(dt, GyroMouseMapper.maxStep)
                sum.0 += Double(g.x) * step; sum.1 += Double(g.y) * step; sum.2 += Double(g.z) * step
            }
            return sum
        }
        let (outputs, intake) = Self.run(events)
        let sent = outputs.compactMap { if case let .motion(s, _, _) = $0 { s } else { nil } }
        let want = integrate(frames), got = integrate(sent)
        #expect(sent.count + intake.counters.merged == frames.count && intake.counters.stale == 0)
        #expect(sent.last?.attitude == frames.last?.attitude)
        let tolerance = 1e-5 * Double(frames.count)
        #expect(abs(want.0 - got.0) < tolerance && abs(want.1 - got.1) < tolerance && abs(want.2 - got.2) < tolerance,
                "want \(want), got \(got)")
    }

    /// The streams above do exercise merging (not only pass-through).
    @Test func theRandomStreamsContainBursts() {
        var merged = 0, bursts = 0, frames = 0
        for seed in 0..<300 {
            let (_, intake) = Self.run(Self.stream(seed: UInt64(seed)))
            merged += intake.counters.merged
            bursts += intake.counters.bursts
            frames += Self.stream(seed: UInt64(seed)).count
        }
        #expect(bursts > 200 && merged > frames / 10, "bursts \(bursts), merged \(merged) of \(frames)")
    }

    @Test(arguments: 0..<100) func reorderedFramesAreStaleAndNeverInjected(seed: Int) {
        var rng = SplitMix64(seed: UInt64(seed) &+ 1000)
        var intake = NewestWinsIntake()
        var newest = -1, stale = 0
        var order = Array(0..<200)
        for i in stride(from: 0, to: order.count - 3, by: 1) where Int.random(in: 0..<5, using: &rng) == 0 {
            order.swapAt(i, i + Int.random(in: 1...3, using: &rng))
        }
        for (k, i) in order.enumerated() {
            let f = NewestWinsIntake.Frame(sequence: UInt32(i), sample: MotionSample(timestampMicros: 1_000_000 + UInt64(i) * 16_667,
                                                                                  attitude: Attitude(roll: 0, pitch: 0, yaw: Double(i))))
            let out = intake.motion(f, now: Instant(nanoseconds: (2_000_000 + Int64(k) * 16_667) * 1000))
            if i <= newest { stale += 1; #expect(out == []) } else { newest = i }
            for case let .motion(s, _, _) in out { #expect(s.attitude!.yaw <= Double(newest)) }
        }
        #expect(intake.counters.stale == stale)
    }
}
