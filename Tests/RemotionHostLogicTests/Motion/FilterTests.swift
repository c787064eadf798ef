import Testing
import RemotionProtocol
@testable import RemotionHostLogic

@Suite struct OneEuroFilterTests {
    @Test func matchesReferenceGroundTruthAtEverySample() throws {
        let rows = try loadOneEuroGroundTruth()
        #expect(rows.count == 1200)
        var filter = OneEuroFilter(minCutoff: 1.0, beta: 0.1, dCutoff: 1.0, frequency: 120)
        var worst = 0.0
        var failures: [Int] = []
        for (i, row) in rows.enumerated() {
            let y = filter.filter(row.noisy, at: row.timestamp)
            let err = abs(y - row.filtered)
            worst = max(worst, err)
            if err > 1e-4 { failures.append(i) }
        }
        #expect(failures.isEmpty, "samples off by more than 1e-4: \(failures.prefix(10)) (worst \(worst))")
        #expect(worst < 1e-4)
    }

    @Test func firstSamplePassesThroughAndConstantStaysConstant() {
        var f = OneEuroFilter(minCutoff: 1, beta: 0.1, dCutoff: 1)
        #expect(f.filter(3.5, at: Instant.seconds(1)) == 3.5)
        for i in 2...100 { #expect(abs(f.filter(3.5, at: Double(i) / 60) - 3.5) < 1e-12) }
        f.reset()
        #expect(f.filter(-2, at: 10) == -2)
    }

    @Test func fasterMotionIsFollowedMoreClosely() {
        // Same step, but the beta filter speeds up with the derivative.
        var slow = OneEuroFilter(minCutoff: 1, beta: 0, dCutoff: 1)
        var fast = OneEuroFilter(minCutoff: 1, beta: 1, dCutoff: 1)
        _ = slow.filter(0, at: 0); _ = fast.filter(0, at: 0)
        var ys = 0.0, yf = 0.0
        for i in 1...10 { ys = slow.filter(1, at: Double(i) / 120); yf = fast.filter(1, at: Double(i) / 120) }
        #expect(yf > ys)
        #expect(ys > 0 && yf < 1)
    }

    @Test func attitudeFilterFiltersYawAcrossThePiSeam() {
        var f = AttitudeOneEuroFilter(minCutoff: 1, beta: 0.1, dCutoff: 1)
        // Yaw rotating steadily through +π into -π.
        var yaw = Double.pi - 0.2
        for i in 0..<40 {
            let out = f.filter(attitude(yaw: MotionMath.wrap(yaw)), at: Double(i) / 120)
            // Never averaged across the seam towards 0: always within 0.3 rad of ±π.
            #expect(abs(MotionMath.wrap(out.yaw - .pi)) < 0.3, "sample \(i): \(out.yaw)")
            yaw += 0.01
        }
    }

    @Test func attitudeFilterKeepsTrackingThroughManyTurns() {
        var f = AttitudeOneEuroFilter(minCutoff: 1, beta: 0.1, dCutoff: 1)
        // 6000 steps of 0.1 rad: ~95 full turns, past the unwrapped-yaw rebase.
        var lags: [Double] = []
        for i in 0..<6000 {
            let raw = MotionMath.wrap(Double(i) * 0.1)
            let out = f.filter(attitude(yaw: raw), at: Double(i) / 120)
            if i > 600 { lags.append(abs(MotionMath.wrap(raw - out.yaw))) }
        }
        // Steady rotation: a constant small lag, no glitch at the rebase.
        let spread = lags.max()! - lags.min()!
        #expect(lags.max()! < 0.5)
        #expect(spread < 1e-6)
    }
}

@Suite struct SeedLowPassFilterTests {
    @Test func blendsWithTheFilteringFactor() {
        var f = SeedLowPassFilter(factor: 0.25)
        #expect(f.filter(attitude(roll: 1, pitch: 2, yaw: 0.4)) == attitude(roll: 1, pitch: 2, yaw: 0.4))
        let out = f.filter(attitude(roll: 0, pitch: 0, yaw: 0))
        #expect(abs(out.roll - 0.75) < 1e-12)
        #expect(abs(out.pitch - 1.5) < 1e-12)
        #expect(abs(out.yaw - 0.3) < 1e-12)
    }

    @Test func yawJumpOverPiResetsInsteadOfFiltering() {
        var f = SeedLowPassFilter(factor: 0.1)
        _ = f.filter(attitude(yaw: 3.1))
        let out = f.filter(attitude(yaw: -3.1))      // jumped 6.2 rad: the seam
        #expect(out.yaw == -3.1)
        let next = f.filter(attitude(yaw: -3.0))     // normal filtering resumes
        #expect(abs(next.yaw - (-3.0 * 0.1 + -3.1 * 0.9)) < 1e-12)
    }

    @Test func hostFilterChoiceIsApplied() {
        var none = AttitudeFilter(.none)
        #expect(none.filter(attitude(yaw: 1), at: 0) == attitude(yaw: 1))
        var lp = AttitudeFilter(.lowPass(factor: 0.5))
        _ = lp.filter(attitude(yaw: 0), at: 0)
        #expect(lp.filter(attitude(yaw: 1), at: 0.01).yaw == 0.5)
        var euro = AttitudeFilter(.oneEuro(minCutoff: 1, beta: 0, dCutoff: 1))
        _ = euro.filter(attitude(yaw: 0), at: 0)
        let y = euro.filter(attitude(yaw: 1), at: 1.0 / 120).yaw
        #expect(y > 0 && y < 0.1)
    }
}
