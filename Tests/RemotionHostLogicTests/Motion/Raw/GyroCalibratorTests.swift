import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Feeds `seconds` of the IMU into the calibrator (dt from the timestamps).
private func feed(_ cal: inout GyroCalibrator, _ imu: inout SyntheticIMU, seconds: Double,
                  _ omega: SyntheticIMU.Rate = SyntheticIMU.still, each: (GyroCalibrator) -> Void = { _ in }) {
    var last: UInt64?
    imu.run(seconds: seconds, omega) { s, _ in
        let dt = last.map { Double(s.timestampMicros - $0) / 1e6 } ?? 0
        last = s.timestampMicros
        cal.update(gyro: Vec3(s.gyro!), acceleration: s.acceleration.map(Vec3.init), dt: dt)
        each(cal)
    }
}

private let trueBiasDeg = Vec3(1, -0.7, 0.5)

private func noisyIMU(seed: UInt64, truth: Quaternion = orientation(rollDeg: -20, pitchDeg: 10)) -> SyntheticIMU {
    var imu = SyntheticIMU(seed: seed, truth: truth)
    imu.bias = radiansVector(trueBiasDeg)
    imu.gyroNoise = radians(0.3)
    imu.accelNoise = 0.01
    return imu
}

@Suite struct GyroCalibratorTests {
    @Test func stillnessConvergesToTheTrueBias() {
        var worst = 0.0
        for seed in 1...5 as ClosedRange<UInt64> {
            var imu = noisyIMU(seed: seed)
            var cal = GyroCalibrator()
            var states: [CalibrationState] = []
            feed(&cal, &imu, seconds: 5, each: { states.append($0.state) })
            let error = (cal.biasDegreesPerSecond - trueBiasDeg).maxMagnitude
            worst = max(worst, error)
            #expect(error < 0.1, "seed \(seed): bias \(cal.biasDegreesPerSecond) vs \(trueBiasDeg)")
            #expect(cal.state == .calibrated(confidence: 1))
            #expect(states.first == .uncalibrated)
            #expect(states.contains { if case .calibrating = $0 { true } else { false } })
        }
        print("bias error after 5 s still (worst axis, 5 seeds): \(worst) °/s")
    }

    @Test func confidenceRisesWithTimeStill() {
        var imu = noisyIMU(seed: 9)
        var cal = GyroCalibrator()
        var confidences: [Double] = []
        feed(&cal, &imu, seconds: 4, each: {
            if case .calibrated(let c) = $0.state { confidences.append(c) }
        })
        #expect(confidences.count > 100)
        #expect(confidences.first! <= 0.25 + 1e-9)      // 0.75 s settled of 3 s
        #expect(confidences.last! == 1)
        #expect(zip(confidences, confidences.dropFirst()).allSatisfy { $0 <= $1 })
    }

    @Test func motionNeverCalibrates() {
        var imu = noisyIMU(seed: 3)
        var cal = GyroCalibrator()
        var everStill = false
        feed(&cal, &imu, seconds: 20, mixedRotation, each: { everStill = everStill || $0.isStill })
        #expect(!everStill)
        #expect(cal.state == .uncalibrated)
        #expect(cal.bias == .zero)
    }

    /// Slow steady aiming about a horizontal axis looks like bias to the gyro, but
    /// the accelerometer sees gravity turn: the tilt-drift test must veto it.
    @Test func slowSteadyTiltIsNotMistakenForBias() {
        var imu = SyntheticIMU(seed: 4)
        imu.gyroNoise = radians(0.3)
        imu.accelNoise = 0.01
        var cal = GyroCalibrator()
        var everStill = false
        feed(&cal, &imu, seconds: 10, SyntheticIMU.worldRate(Vec3(radians(2), 0, 0)),
             each: { everStill = everStill || $0.isStill })
        #expect(!everStill)
        #expect(cal.bias == .zero)
    }

    /// A slow turn about gravity that starts after a still period changes the recent
    /// average: the window ends and the turn is not taken for bias.
    @Test func slowTurnStartingFromStillnessIsNoticed() {
        var imu = noisyIMU(seed: 12, truth: .identity)
        var cal = GyroCalibrator()
        feed(&cal, &imu, seconds: 3)
        #expect(cal.isStill)
        let before = cal.bias
        var stillAfter = 0
        feed(&cal, &imu, seconds: 3, SyntheticIMU.worldRate(Vec3(0, 0, radians(0.5))),
             each: { if $0.isStill { stillAfter += 1 } })
        #expect(stillAfter < 50)                       // < 0.2 s of the turn passed for stillness
        #expect((cal.bias - before).map(degrees).maxMagnitude < 0.02)
    }

    /// Documented limitation (as in GamepadMotionHelpers): a slow steady turn about
    /// gravity present from the start of a still period is indistinguishable from bias.
    @Test func slowTurnAboutGravityFromTheStartIsAbsorbed() {
        var imu = SyntheticIMU(seed: 5)
        imu.gyroNoise = radians(0.3)
        var cal = GyroCalibrator()
        feed(&cal, &imu, seconds: 5, SyntheticIMU.worldRate(Vec3(0, 0, radians(0.5))))
        #expect(abs(cal.biasDegreesPerSecond.z - 0.5) < 0.05)
    }

    @Test func manualCalibrationSetsBiasWithFullConfidence() {
        var imu = noisyIMU(seed: 6)
        var settings = GyroCalibrator.Settings()
        settings.mode = .manual
        var cal = GyroCalibrator(settings: settings)
        feed(&cal, &imu, seconds: 1)
        #expect(cal.state == .uncalibrated)
        cal.beginManual(durationSeconds: 3)
        var progress: [Double] = []
        feed(&cal, &imu, seconds: 3.1, each: {
            if case .calibrating(let p) = $0.state { progress.append(p) }
        })
        #expect(progress.count >= 700)
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(cal.state == .calibrated(confidence: 1))
        #expect((cal.biasDegreesPerSecond - trueBiasDeg).maxMagnitude < 0.1)
    }

    @Test func autoCalibrationPausesDuringManual() {
        var imu = noisyIMU(seed: 7)
        var cal = GyroCalibrator()
        cal.beginManual(durationSeconds: 2)
        feed(&cal, &imu, seconds: 1.5)
        #expect(cal.bias == .zero)
        #expect(!cal.isStill)
        cal.cancelManual()
        #expect(cal.state == .uncalibrated)
    }

    @Test func resetForgetsEverything() {
        var imu = noisyIMU(seed: 8)
        var cal = GyroCalibrator()
        feed(&cal, &imu, seconds: 3)
        #expect(cal.bias != .zero)
        cal.reset()
        #expect(cal.bias == .zero)
        #expect(cal.confidence == 0)
        #expect(cal.state == .uncalibrated)
    }

    @Test func laterStillPeriodsRefineButDoNotOverwrite() {
        var imu = noisyIMU(seed: 10)
        var cal = GyroCalibrator()
        feed(&cal, &imu, seconds: 5)
        let first = cal.bias
        feed(&cal, &imu, seconds: 2, mixedRotation)
        #expect(!cal.isStill)
        #expect(cal.bias == first)                      // motion changes nothing
        imu.bias = radiansVector(trueBiasDeg + Vec3(0.5, 0, 0))   // the bias jumps
        feed(&cal, &imu, seconds: 4.9)
        #expect(cal.bias == first)                      // disagrees: waits for jumpTime
        #expect(!cal.isStill)
        feed(&cal, &imu, seconds: 3)
        let moved = cal.biasDegreesPerSecond.x - trueBiasDeg.x
        #expect(moved > 0.2 && moved < 0.4)             // weighted: 0.5 · 7.65 / (4.75 + 7.65) ≈ 0.31
        #expect(!cal.isStill)                           // the mean still disagrees with the blend
    }

    @Test func aSmallDriftAgreesAndIsFollowedAtOnce() {
        var imu = noisyIMU(seed: 13)
        var cal = GyroCalibrator()
        feed(&cal, &imu, seconds: 5)
        feed(&cal, &imu, seconds: 1, mixedRotation)
        imu.bias = radiansVector(trueBiasDeg + Vec3(0.04, 0, 0))
        var stillSamples = 0
        feed(&cal, &imu, seconds: 3, each: { if $0.isStill { stillSamples += 1 } })
        let moved = cal.biasDegreesPerSecond.x - trueBiasDeg.x
        #expect(moved > 0.005 && moved < 0.04)          // ≈ 0.04 · 2.75 / (4.75 + 2.75) ≈ 0.015
        #expect(stillSamples > 400)
    }

    @Test func restoreAppliesASavedBias() {
        var cal = GyroCalibrator()
        cal.restore(bias: radiansVector(Vec3(0.2, 0.3, -0.4)), confidence: 1)
        #expect(cal.state == .calibrated(confidence: 1))
        #expect((cal.biasDegreesPerSecond - Vec3(0.2, 0.3, -0.4)).maxMagnitude < 1e-12)
    }
}
