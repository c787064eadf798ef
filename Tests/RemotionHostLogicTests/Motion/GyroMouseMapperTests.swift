import Testing
import RemotionProtocol
@testable import RemotionHostLogic

@Suite struct GyroMouseMapperTests {
    @Test func slowMotionAccumulatesInTheRemainder() {
        // Defaults: 30° per screen width (64 px/°), tightening 1 °/s, smoothing on.
        var rig = GyroRig(FPSSettings())
        let moves = rig.run(yawRate: 0.5, seconds: 10)
        // 0.5 °/s is tightened by 0.5/1: 2.5° in 10 s = 160 px, every frame < 1 px.
        #expect(moves.allSatisfy { abs($0.dx) <= 1 && $0.dy == 0 })
        #expect(moves.filter { $0.dx == 0 }.count > moves.count / 2)
        #expect(abs(sum(moves).dx - -160) <= 1)
    }

    @Test func directionsFollowTheController() {
        var rig = GyroRig(plainFPS())
        let left = sum(rig.run(yawRate: 30, seconds: 0.5))      // yaw rate > 0 turns left
        #expect(left.dx < 0 && left.dy == 0)
        let up = sum(rig.run(pitchRate: 30, seconds: 0.5))      // tilting up
        #expect(up.dy < 0 && up.dx == 0)
        #expect(abs(up.dy - left.dx) <= 1)                       // same gain on both axes
    }

    @Test func fastFlicksAreNotSmoothed() {
        var s = plainFPS()
        s.smoothThreshold = 8                                    // tier: 4 … 8 °/s
        s.smoothWindow = 0.1
        for rate in [200.0, 400.0] {
            var rig = GyroRig(s)
            _ = rig.run(seconds: 0.2)                            // at rest: zeros in the window
            let flick = rig.run(yawRate: rate, seconds: 0.05)
            let perFrame = rate / 120 * 64
            // From the very first frame the output is the full, proportional motion.
            #expect(flick.allSatisfy { abs(Double(-$0.dx) - perFrame) <= 1 })
            #expect(abs(sum(flick).dx + Int((rate * 0.05 * 64).rounded())) <= 1)
        }
    }

    @Test func slowMotionIsSmoothedBelowTheTier() {
        var s = plainFPS()
        s.smoothThreshold = 8
        var smoothed = GyroRig(s)
        _ = smoothed.run(seconds: 0.2)
        var direct = GyroRig(plainFPS())
        _ = direct.run(seconds: 0.2)
        // 3 °/s is below the tier: the first frames are averaged with the rest before.
        let a = sum(smoothed.run(yawRate: 3, seconds: 0.025)).dx
        let b = sum(direct.run(yawRate: 3, seconds: 0.025)).dx
        #expect(b == -4)                                         // 3 frames of 1.6 px
        #expect(abs(a) <= 1)
    }

    @Test func tighteningScalesTinyMotionSmoothly() {
        var s = plainFPS()
        s.tightening = 10
        func total(_ rate: Double) -> Int {
            var rig = GyroRig(s)
            return sum(rig.run(yawRate: rate, seconds: 1)).dx
        }
        #expect(abs(total(5) - -160) <= 1)       // 5 °/s · 5/10 = 2.5° = 160 px
        #expect(abs(total(1) - -6) <= 1)         // 0.1°: still moves, no hard dead zone
        #expect(abs(total(10) - -640) <= 1)      // at the threshold: unchanged
        #expect(abs(total(20) - -1280) <= 1)     // above: unchanged
    }

    @Test func accelerationBlendsSlowAndFastSensitivity() {
        var s = plainFPS()
        s.slowSensitivity = 1
        s.fastSensitivity = 3
        s.slowThreshold = 20
        s.fastThreshold = 120
        func total(_ rate: Double, _ seconds: Double) -> Int {
            var rig = GyroRig(s)
            return sum(rig.run(yawRate: rate, seconds: seconds)).dx
        }
        #expect(abs(total(10, 1) - -640) <= 1)       // slow: ×1
        #expect(abs(total(70, 0.5) - -4480) <= 1)    // halfway: ×2
        #expect(abs(total(200, 0.25) - -9600) <= 1)  // fast: ×3
        var sensitive = GyroRig(s, sensitivity: 2)
        #expect(abs(sum(sensitive.run(yawRate: 10, seconds: 1)).dx - -1280) <= 1)
    }

    @Test func oneScreenWidthOfRotationMovesOneScreenWidth() {
        var rig = GyroRig(plainFPS(degreesPerScreen: 30))
        #expect(abs(sum(rig.run(yawRate: -90, seconds: 1.0 / 3)).dx - 1920) <= 1)
        var wide = GyroRig(plainFPS(degreesPerScreen: 45))
        wide.screen = ScreenGeometry(width: 2560, height: 1440)
        #expect(abs(sum(wide.run(yawRate: 45, seconds: 0.5, hz: 200)).dx - -1280) <= 1)
    }

    @Test func countsPer360Calibration() {
        var s = plainFPS()
        s.calibration = .counts
        s.countsPer360 = 3600
        var rig = GyroRig(s)
        #expect(abs(sum(rig.run(yawRate: 180, seconds: 2)).dx - -3600) <= 1)
    }

    @Test func attitudeDeltasAcrossThePiSeam() {
        var m = GyroMouseMapper(settings: plainFPS(degreesPerScreen: 30))
        var yaw = Double.pi - 0.2, pitch = 0.0
        var total = (dx: 0, dy: 0)
        for k in 0...40 {
            let a = attitude(pitch: pitch, yaw: MotionMath.wrap(yaw))
            let d = m.update(MotionSample(timestampMicros: UInt64(k) * 8333, attitude: a), attitude: a, screen: fullHD)
            total.dx += d.dx; total.dy += d.dy
            #expect(abs(d.dx) < 60)                              // never a jump at the seam
            yaw += deg(30) / 40
            pitch += deg(15) / 40
        }
        #expect(abs(total.dx - -1920) <= 1)
        #expect(abs(total.dy - -960) <= 1)
    }

    @Test func absurdTimeStepsAreClamped() {
        var rig = GyroRig(plainFPS())
        var m = rig.mapper
        // A 2 s gap: resynchronise, no motion.
        #expect(m.update(gyroSample(3_000_000, yawRate: 100), attitude: nil, screen: fullHD) == (0, 0))
        // Time going backwards: no motion.
        #expect(m.update(gyroSample(2_000_000, yawRate: 100), attitude: nil, screen: fullHD) == (0, 0))
        // A repeated timestamp: no motion.
        #expect(m.update(gyroSample(2_000_000, yawRate: 100), attitude: nil, screen: fullHD) == (0, 0))
        // 0.3 s since the last sample: only 0.1 s of the rate is integrated.
        let d = m.update(gyroSample(2_300_000, yawRate: 100), attitude: nil, screen: fullHD)
        #expect(abs(d.dx - -640) <= 1)
        rig.mapper = m
        #expect(abs(sum(rig.run(yawRate: 0, seconds: 0.1)).dx) == 0)
    }
}
