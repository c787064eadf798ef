import Foundation
import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The world-frame heading (twist about z) of the rotation e, radians.
private func headingOf(_ e: Quaternion) -> Double { 2 * atan2(e.z, e.w) }

@Suite struct SensorFusionTests {
    /// The acceptance test: 5 s still (auto-calibration learns the bias), then 30 s of
    /// mixed rotations up to ~200 °/s. Error = angle of q_est⁻¹ ⊗ q_true, after removing
    /// the heading offset present at the end of the still period (yaw is unobservable).
    @Test(arguments: [250.0, 100, 60])
    func orientationErrorUnderTwoDegreesRMS(rate: Double) {
        var imu = SyntheticIMU(seed: 42, truth: orientation(rollDeg: -20, pitchDeg: 10, yawDeg: 30))
        imu.rate = rate
        imu.bias = radiansVector(Vec3(1, -0.7, 0.5))
        imu.gyroNoise = radians(0.3)
        imu.accelNoise = 0.01
        var pipeline = RawMotionPipeline()

        var last: RawMotionOutput?
        imu.run(seconds: 5, SyntheticIMU.still) { s, _ in last = pipeline.process(s) }
        #expect(pipeline.calibrationState == .calibrated(confidence: 1))
        let align = imu.truth * last!.orientation!.conjugate
        let offset = Quaternion(w: cos(headingOf(align) / 2), x: 0, y: 0, z: sin(headingOf(align) / 2))

        var sumSquares = 0.0, n = 0, worst = 0.0, peakRate = 0.0
        imu.run(seconds: 30, mixedRotation) { s, truth in
            let out = pipeline.process(s)
            let est = offset * out.orientation!
            let err = degrees((est.conjugate * truth).normalized.angle)
            sumSquares += err * err; n += 1; worst = max(worst, err)
            peakRate = max(peakRate, degrees(Vec3(s.gyro!).length))
        }
        let rms = (sumSquares / Double(n)).squareRoot()
        print("orientation error over 30 s at \(rate) Hz: RMS \(rms)°, max \(worst)°, peak rate \(peakRate) °/s")
        #expect(peakRate > 180)
        #expect(rms < 2)
        #expect(pipeline.calibrationState == .calibrated(confidence: 1))
    }

    /// Shoves of the hand (0.5 g out and back over 0.25 s, the reading's tilt off by
    /// up to 27°) while turning do not tilt the estimate: the accelerometer is low-passed in
    /// a frame that does not turn with the body, and readings far from the estimate are
    /// rejected. Measured against the same motion without the shoves; Madgwick's fixed-rate
    /// step (the filter before) was pulled ≈ 0.45° by each.
    @Test(arguments: [250.0, 100])
    func tiltHoldsThroughShoves(rate: Double) {
        let calm = worstTilt(rate: rate, shoves: false)
        let shoved = worstTilt(rate: rate, shoves: true)
        print("tilt through 8 shoves at \(rate) Hz: worst \(shoved.worst)° (\(calm.worst)° without them), \(shoved.rejected) readings rejected")
        #expect(shoved.worst < calm.worst + 0.1)
        #expect(shoved.rejected > 8 * Int(rate / 20))
        #expect(calm.rejected == 0)
    }

    private func worstTilt(rate: Double, shoves: Bool) -> (worst: Double, rejected: Int) {
        var imu = SyntheticIMU(seed: 40, truth: orientation(rollDeg: 10, pitchDeg: -15, yawDeg: 20))
        imu.rate = rate
        imu.bias = radiansVector(Vec3(0.5, -0.5, 0.5))
        imu.gyroNoise = radians(0.1)
        imu.accelNoise = 0.003
        let starts = (0..<8).map { 6.0 + 2.5 * Double($0) }
        if shoves {
            imu.linear = { t in
                guard let start = starts.last(where: { $0 <= t }), t < start + 0.25 else { return .zero }
                let direction = Int(start) % 2 == 0 ? Vec3(0.8, 0.6, 0) : Vec3(-0.6, 0.8, 0)
                return direction * (0.5 * sin(2 * .pi * (t - start) / 0.25))
            }
        }
        var pipeline = RawMotionPipeline()
        imu.run(seconds: 5, SyntheticIMU.still) { s, _ in _ = pipeline.process(s) }
        var worst = 0.0, rejected = 0
        imu.run(seconds: 20, mixedRotation) { s, truth in
            let out = pipeline.process(s)
            worst = max(worst, degrees(out.orientation!.up.angle(to: truth.up)))
            if pipeline.fusion.lastRejected { rejected += 1 }
        }
        return (worst, rejected)
    }

    /// Tilt (gravity direction) is observable: it converges from a wrong start.
    @Test func tiltConvergesFromAWrongStart() {
        var imu = SyntheticIMU(seed: 2, truth: orientation(rollDeg: 25, pitchDeg: -15))
        imu.accelNoise = 0.01
        var fusion = SensorFusion()
        fusion.reset(to: .identity)              // 29° of tilt error
        var previous: UInt64?
        imu.run(seconds: 10, SyntheticIMU.still) { s, _ in
            let dt = previous.map { Double(s.timestampMicros - $0) / 1e6 } ?? 0
            previous = s.timestampMicros
            fusion.update(gyro: Vec3(s.gyro!), acceleration: Vec3(s.acceleration!), dt: dt)
        }
        let tiltError = degrees(fusion.up.angle(to: imu.truth.up))
        #expect(tiltError < 0.5)
    }

    /// CoreMotion's signs: turning left raises yaw, tilting the top up raises pitch,
    /// and the fused attitude matches the truth's Euler angles.
    @Test func attitudeSignsFollowCoreMotion() {
        for (rate, check) in [
            (Vec3(0, 0, radians(30)), { (a: Attitude) in abs(degrees(a.yaw) - 30) < 0.5 }),
            (Vec3(radians(30), 0, 0), { (a: Attitude) in abs(degrees(a.pitch) - 30) < 0.5 }),
            (Vec3(0, radians(30), 0), { (a: Attitude) in abs(degrees(a.roll) - 30) < 0.5 }),
        ] {
            var imu = SyntheticIMU(seed: 1)
            var pipeline = RawMotionPipeline()
            var out: RawMotionOutput?
            imu.run(seconds: 1, SyntheticIMU.worldRate(rate)) { s, _ in out = pipeline.process(s) }
            let a = out!.attitude!
            #expect(check(a), "rate \(rate) → \(a)")
            let truth = imu.truth.attitude
            #expect(abs(a.roll - truth.roll) < 0.01 && abs(a.pitch - truth.pitch) < 0.01
                    && abs(a.yaw - truth.yaw) < 0.01)
        }
    }

    @Test func gyroOnlyIntegratesWithoutAccelerometer() {
        var fusion = SensorFusion()
        for i in 0...250 {
            fusion.update(gyro: Vec3(0, 0, radians(90)), acceleration: nil, dt: i == 0 ? 0 : 0.004)
        }
        #expect(abs(degrees(fusion.attitude.yaw) - 90) < 0.05)
        #expect(abs(fusion.gravity.z + 1) < 1e-9)
    }

    /// A reading far from 1 g (the hand accelerating) is not trusted for tilt.
    @Test func accelerationFarFromOneGIsRejected() {
        var fusion = SensorFusion()
        fusion.update(gyro: .zero, acceleration: Vec3(0, 0, 1), dt: 0)
        for _ in 0..<100 { fusion.update(gyro: .zero, acceleration: Vec3(1.5, 0, 0.5), dt: 0.004) }
        #expect(!fusion.lastCorrected)
        #expect(fusion.orientation == .identity)
    }

    @Test func gravityConventionGivesTheSameOrientation() {
        var a = SyntheticIMU(seed: 11, truth: orientation(rollDeg: 30, pitchDeg: 20))
        var b = a
        b.convention = .down
        var settings = RawMotionPipeline.Settings()
        var pa = RawMotionPipeline(settings: settings)
        settings.accelerometer = .down
        var pb = RawMotionPipeline(settings: settings)
        var qa: Quaternion?, qb: Quaternion?
        a.run(seconds: 2, mixedRotation) { s, _ in qa = pa.process(s).orientation }
        b.run(seconds: 2, mixedRotation) { s, _ in qb = pb.process(s).orientation }
        #expect(degrees((qa!.conjugate * qb!).normalized.angle) < 1e-6)
        #expect(degrees(pa.fusion.up.angle(to: a.truth.up)) < 1)
    }
}
