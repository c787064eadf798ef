import Testing
import RemotionHostFuzzChecks
import RemotionProtocol
@testable import RemotionHostLogic

/// FuzzHost's properties (`HostProperties`, shared with the libFuzzer target) in the normal
/// suite: the streams that once stopped a host with a pad, and seeded random scripts of every
/// origin (docs/FUZZING.md). Nothing traps, every output stays in range, and every input and
/// pad a session held is released when it ends.
@Suite struct HostFuzzPropertyTests {
    /// A gyro sample at `time` µs turning right.
    static func sample(_ time: UInt64) -> MotionSample {
        MotionSample(timestampMicros: time, gyro: Vector3(x: 0, y: 0, z: -1), acceleration: Vector3(x: 0, y: 0, z: 1))
    }

    /// The stream from the issue: timestamps 0 … t at 250 Hz, then t + 4e15 µs, into a host
    /// with a pad and the DSU server on (`DualSenseSensorClock` trapped on it), then the
    /// controller leaves (the pad's rest report at close).
    @Test func aFarFutureTimestampLeavesAHostWithAPadUp() {
        let id = SessionID(0)
        var steps: [HostStep] = [.open(id)]
        for k in 0..<50 {
            steps.append(.motion(id, Self.sample(UInt64(k) * 4_000)))
            steps.append(.advance(.milliseconds(4)))
        }
        steps.append(.motion(id, Self.sample(49 * 4_000 + 4_000_000_000_000_000)))
        steps.append(.button(id, .a, isDown: true))
        for t: UInt64 in [.max, 0, .max - 1, 1 << 63] { steps.append(.motion(id, Self.sample(t))) }
        steps.append(.close(id))
        let (violation, seen) = HostProperties.run(steps: steps)
        #expect(violation == nil, "\(violation.map(String.init(describing:)) ?? "")")
        #expect(seen.padReports >= 55 && seen.padsClosed == 1 && seen.dsuPackets >= 55)
    }

    /// The same through each origin's own encoder and decoder: a UDP controller, a page, a DSU
    /// source and a local pad (whose MSC_TIMESTAMP is 32 bits: the jump wraps it).
    @Test func eachOriginSurvivesTheJump() {
        let before = (0..<50).map { UInt64($0) * 4_000 + 4_000 }
        let after: [UInt64] = [196_000 + 4_000_000_000_000_000, .max, 0, 1 << 63, .max - 4_000]
        for origin in HostScript.Origin.allCases {
            let id = SessionID(2)
            var steps: [HostStep] = [.open(id)]
            for s in HostScript.samples(origin, times: before) { steps += [.motion(id, s), .advance(.milliseconds(4))] }
            steps.append(.button(id, .b, isDown: true))
            steps += HostScript.samples(origin, times: after).map { .motion(id, $0) }
            steps.append(.close(id))
            let (violation, seen) = HostProperties.run(steps: steps)
            #expect(violation == nil, "\(origin): \(violation.map(String.init(describing:)) ?? "")")
            #expect(seen.padReports >= 45 && seen.padsClosed == 1 && seen.dsuPackets >= 45, "\(origin) reached the pad and DSU: \(seen)")
        }
    }

    /// Seeded random scripts, 0–600 bytes: the libFuzzer target's properties on every run.
    @Test func randomScriptsKeepEveryProperty() {
        var g = SplitMix64(seed: 0x4057_0036)
        var total = HostProperties.Seen()
        for _ in 0..<1_500 {
            let bytes = (0..<Int(g.next() % 600)).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            let (violation, seen) = HostProperties.run(steps: HostScript.steps(bytes), input: bytes)
            #expect(violation == nil, "\(violation.map(String.init(describing:)) ?? "")")
            total.padReports += seen.padReports; total.dsuPackets += seen.dsuPackets
            total.presses += seen.presses; total.padsClosed += seen.padsClosed
        }
        // The scripts reached every output, not only the decoders.
        #expect(total.padReports > 1_000 && total.dsuPackets > 1_000 && total.presses > 100 && total.padsClosed > 100)
    }
}
