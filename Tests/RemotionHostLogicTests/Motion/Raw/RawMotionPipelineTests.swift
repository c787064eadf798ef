import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The pipeline on its own: what each kind of sample takes, timing, calibration modes.
@Suite struct RawMotionPipelineTests {
    @Test func samplesWithoutGyroPassThrough() {
        var pipeline = RawMotionPipeline()
        let sample = MotionSample(timestampMicros: 5, attitude: Attitude(roll: 0.1, pitch: 0.2, yaw: 0.3))
        let out = pipeline.process(sample)
        #expect(!out.isProcessed)
        #expect(out.attitude == sample.attitude)
        #expect(out.calibration == .uncalibrated)
        #expect(pipeline.status == nil)               // nothing to show without gyro
    }

    @Test func timestampGapsDoNotIntegrate() {
        var pipeline = RawMotionPipeline()
        let g = Vec3(0, 0, radians(90)).vector3, a = Vector3(x: 0, y: 0, z: 1)
        _ = pipeline.process(MotionSample(timestampMicros: 1_000_000, gyro: g, acceleration: a))
        let jumped = pipeline.process(MotionSample(timestampMicros: 3_000_000, gyro: g, acceleration: a))
        #expect(jumped.attitude!.yaw == 0)
        let back = pipeline.process(MotionSample(timestampMicros: 2_000_000, gyro: g, acceleration: a))
        #expect(back.attitude!.yaw == 0)
        let next = pipeline.process(MotionSample(timestampMicros: 2_010_000, gyro: g, acceleration: a))
        #expect(abs(degrees(next.attitude!.yaw) - 0.9) < 0.01)
    }

    /// A controller that sends its own attitude with its gyro keeps its attitude; gravity
    /// for the gyro space is read off that attitude (a 45°-pitched turn about gravity is
    /// the flat rate in player space), and the calibrator still learns the bias.
    @Test func ownAttitudeIsKeptAndGivesGravity() {
        var imu = SyntheticIMU(seed: 40, truth: orientation(pitchDeg: 45))
        imu.bias = radiansVector(Vec3(0.8, 0, -0.6))
        imu.gyroNoise = radians(0.3)
        var pipeline = RawMotionPipeline()
        func withAttitude(_ s: MotionSample, _ truth: Quaternion) -> MotionSample {
            MotionSample(timestampMicros: s.timestampMicros, attitude: truth.attitude, gyro: s.gyro)
        }
        imu.run(seconds: 4, SyntheticIMU.still) { s, truth in _ = pipeline.process(withAttitude(s, truth)) }
        #expect(pipeline.calibrationState == .calibrated(confidence: 1))
        #expect((pipeline.calibrator.biasDegreesPerSecond - Vec3(0.8, 0, -0.6)).maxMagnitude < 0.1)
        var yaw = 0.0, n = 0.0
        imu.run(seconds: 1, SyntheticIMU.worldRate(Vec3(0, 0, radians(60)))) { s, truth in
            let out = pipeline.process(withAttitude(s, truth))
            #expect(out.attitude == truth.attitude)
            yaw += out.yawRate; n += 1
        }
        #expect(abs(degrees(yaw / n) / 60 - 1) < 0.02)
        #expect(pipeline.status?.fused == false)
    }

    /// `calibration.mode = off`: the raw gyro is used as it comes and requests are refused.
    @Test func offModeUsesRawGyroAndRefusesRequests() {
        var settings = RawMotionPipeline.Settings()
        settings.calibration.mode = .off
        settings.restGate = false
        var pipeline = RawMotionPipeline(settings: settings)
        var imu = SyntheticIMU(seed: 41)
        imu.bias = radiansVector(Vec3(0, 0, 1))
        var last: RawMotionOutput?
        imu.run(seconds: 3, SyntheticIMU.still) { s, _ in last = pipeline.process(s) }
        #expect(pipeline.calibrationState == .off)
        let started = pipeline.beginManualCalibration(durationSeconds: 1)
        #expect(!started)
        #expect(abs(degrees(last!.yawRate) - 1) < 1e-3)            // the bias comes through
        #expect(pipeline.status?.calibration == .off)
    }

    /// Switching continuous → off forgets the bias; manual keeps it and stops learning.
    @Test func modeChangesKeepOrForgetTheBias() {
        var imu = SyntheticIMU(seed: 42)
        imu.bias = radiansVector(Vec3(1, 1, 1))
        var pipeline = RawMotionPipeline()
        imu.run(seconds: 3, SyntheticIMU.still) { s, _ in _ = pipeline.process(s) }
        let learned = pipeline.calibrator.bias
        #expect((pipeline.calibrator.biasDegreesPerSecond - Vec3(1, 1, 1)).maxMagnitude < 0.01)
        pipeline.settings.calibration.mode = .manual
        imu.bias = radiansVector(Vec3(2, 2, 2))
        imu.run(seconds: 3, SyntheticIMU.still) { s, _ in _ = pipeline.process(s) }
        #expect(pipeline.calibrator.bias == learned)
        pipeline.settings.calibration.mode = .off
        #expect(pipeline.calibrator.bias == .zero)
        #expect(pipeline.calibrationState == .off)
    }

    @Test func statusSummaries() {
        let bias = Vec3(0.012, -0.5, 1)
        #expect(GyroStatus(.calibrated(confidence: 1), biasDegreesPerSecond: bias, still: true, clutchEngaged: true,
                           fused: true).summary == "calibrated 100% · bias +0.01 -0.50 +1.00 °/s · still · fused on host")
        #expect(GyroStatus(.calibrating(progress: 0.456), biasDegreesPerSecond: .zero, still: false,
                           clutchEngaged: false, fused: false).summary == "calibrating 45% · clutch off")
        #expect(GyroStatus(.uncalibrated, biasDegreesPerSecond: .zero, still: false, clutchEngaged: true,
                           fused: false).summary == "uncalibrated")
        #expect(GyroStatus(.off, biasDegreesPerSecond: bias, still: false, clutchEngaged: true,
                           fused: false).summary == "calibration off")
    }
}
