import Foundation
import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// A hand pointing around the screen: yaw over 30°, pitch over 16°, a little roll;
/// smooth, and starting from rest (every rate is 0 at t = 0, as a hand's is).
private func pointingPath(_ t: Double) -> Quaternion {
    orientation(rollDeg: 3 * (1 - cos(2 * .pi * t / 3.1)),
                pitchDeg: 5 - 8 * (1 - cos(2 * .pi * t / 2.6)),
                yawDeg: 20 + 15 * (1 - cos(2 * .pi * t / 4)))
}

/// The body rate that follows `pointingPath` from `start` seconds on (ω = 2·vec(q* ⊗ q̇),
/// q̇ by central difference).
private func pointingRate(from start: Double) -> SyntheticIMU.Rate {
    { time, _ in
        let t = time - start, h = 1e-5
        let q = pointingPath(t), a = pointingPath(t - h), b = pointingPath(t + h)
        let sign: Double = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z < 0 ? -1 : 1
        let dq = (b + a * (-sign)) * (1 / (2 * h))
        return (q.conjugate * dq).vector * 2
    }
}

private struct PointerComparison {
    var rms = 0.0, worst = 0.0, samples = 0, peakRate = 0.0
}

/// Pointer mode fed raw sensors (gyro + accelerometer only) against pointer mode fed the
/// true attitude of the same motion, both recentred when the motion starts (after 3 s
/// still: the user presses recenter once the controller is calibrated).
private func comparePointer(rate: Double, noisy: Bool) -> PointerComparison {
    var imu = SyntheticIMU(seed: 77, truth: pointingPath(0))
    imu.rate = rate
    if noisy {
        imu.bias = radiansVector(Vec3(1, -0.7, 0.5))
        imu.gyroNoise = radians(0.3)
        imu.accelNoise = 0.01
    }
    var raw = MotionMapper(), reference = MotionMapper()
    func attitudeSample(_ s: MotionSample, _ truth: Quaternion) -> MotionSample {
        MotionSample(timestampMicros: s.timestampMicros, attitude: truth.attitude)
    }
    imu.run(seconds: 3, SyntheticIMU.still) { s, truth in
        _ = raw.update(s, screen: fullHD)
        _ = reference.update(attitudeSample(s, truth), screen: fullHD)
    }
    raw.recenter()
    reference.recenter()
    var result = PointerComparison(), sum = 0.0
    imu.run(seconds: 10, pointingRate(from: imu.time)) { s, truth in
        guard let p = raw.update(s, screen: fullHD).moveTo,
              let q = reference.update(attitudeSample(s, truth), screen: fullHD).moveTo else { return }
        let error = (Double((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y))).squareRoot()
        sum += error * error
        result.worst = max(result.worst, error)
        result.samples += 1
        result.peakRate = max(result.peakRate, degrees(Vec3(s.gyro!).length))
    }
    result.rms = (sum / Double(max(result.samples, 1))).squareRoot()
    return result
}

@Suite struct PointerFromRawSensorsTests {
    /// Acceptance: pointer mode works from raw sensors. With exact sensors the fused
    /// attitude puts the pointer where the attitude-driven mapper does, to a pixel or two.
    @Test(arguments: [250.0, 60])
    func exactSensorsAimLikeTheAttitude(rate: Double) {
        let c = comparePointer(rate: rate, noisy: false)
        print("pointer from exact raw sensors at \(rate) Hz: RMS \(c.rms) px, max \(c.worst) px "
              + "over \(c.samples) samples, peak \(c.peakRate) °/s")
        #expect(c.samples == Int(10 * rate))
        #expect(c.peakRate > 20)
        #expect(c.worst <= 2)
    }

    /// With a 1 °/s-class bias (learned while still), 0.3 °/s gyro noise and 0.01 g
    /// accelerometer noise (both pessimistic for a phone) the pointer stays within a few
    /// pixels RMS of the noise-free attitude-driven one (40° of yaw span 1920 px: 1 px =
    /// 0.02°); the worst sample, at 60 Hz, is about 0.35°.
    @Test(arguments: [250.0, 100, 60])
    func noisySensorsAimWithinAFewPixels(rate: Double) {
        let c = comparePointer(rate: rate, noisy: true)
        print("pointer from noisy raw sensors at \(rate) Hz: RMS \(c.rms) px, max \(c.worst) px "
              + "over \(c.samples) samples")
        #expect(c.samples == Int(10 * rate))
        #expect(c.rms < 5)
        #expect(c.worst < 20)
    }
}
