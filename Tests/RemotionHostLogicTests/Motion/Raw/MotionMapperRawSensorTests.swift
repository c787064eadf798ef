import Testing
import RemotionProtocol
@testable import RemotionHostLogic

private let screen = fullHD

private func stillIMU(seed: UInt64, biasDeg: Vec3 = Vec3(1, 1, 1),
                      truth: Quaternion = orientation(rollDeg: 8, pitchDeg: -12)) -> SyntheticIMU {
    var imu = SyntheticIMU(seed: seed, truth: truth)
    imu.bias = radiansVector(biasDeg)
    imu.gyroNoise = radians(0.3)
    imu.accelNoise = 0.01
    return imu
}

/// A session's mapper in `mode`, with settings given by their config keys.
func rawMapper(_ mode: MappingSettings.Mode, _ keys: [(String, String)] = []) throws -> MotionMapper {
    var settings = MappingSettings()
    settings.mode = mode
    for (key, value) in keys { try settings.set(key, to: value) }
    return MotionMapper(settings: settings)
}

/// Total |dx| + |dy| of FPS-mode output over `seconds` of the IMU.
private func travel(_ mapper: inout MotionMapper, _ imu: inout SyntheticIMU, seconds: Double,
                    _ omega: SyntheticIMU.Rate = SyntheticIMU.still) -> Int {
    var total = 0
    imu.run(seconds: seconds, omega) { s, _ in
        let d = mapper.update(s, screen: screen).moveBy
        total += abs(d.dx) + abs(d.dy)
    }
    return total
}

/// Raw sensors (gyro + accelerometer, no attitude) through a session's `MotionMapper`,
/// as DSU and a browser's devicemotion send them.
@Suite struct MotionMapperRawSensorTests {
    /// Acceptance: a still controller with a 1 °/s bias on every axis moves the FPS pointer
    /// by less than 1 px in the 60 s after calibration, in every gyro space; the learned
    /// bias is within 0.1 °/s and shows in the status.
    @Test(arguments: ["player", "world", "local"])
    func stillControllerDoesNotDrift(space: String) throws {
        var imu = stillIMU(seed: 21)
        var mapper = try rawMapper(.fps, [("fps.space", space)])
        _ = travel(&mapper, &imu, seconds: 5)
        let status = try #require(mapper.gyroStatus)
        #expect(status.calibration == .calibrated && status.confidence == 1 && status.fused && status.still)
        let error = zip(status.biasDegreesPerSecond, [1.0, 1, 1]).map { abs($0 - $1) }.max()!
        #expect(error < 0.1)
        var ungated = mapper
        ungated.settings.sensors.restGate = false
        var imu2 = imu
        let gated = travel(&mapper, &imu, seconds: 60)
        let free = travel(&ungated, &imu2, seconds: 60)
        print("\(space) space: 60 s still after calibration: \(gated) px with the rest gate, \(free) px without "
              + "(bias error \(error) °/s)")
        #expect(gated < 1)
        #expect(free < 10)                                  // white noise only: no drift from bias
    }

    /// The `calibrate` command (manual mode): 10 s still, then 60 s without drift.
    @Test func manualCalibrationThenNoDrift() throws {
        var imu = stillIMU(seed: 22)
        var mapper = try rawMapper(.fps, [("calibration.mode", "manual"), ("calibration.duration", "10")])
        let started = mapper.calibrate()
        #expect(started)
        _ = travel(&mapper, &imu, seconds: 1)
        #expect(mapper.gyroStatus?.calibration == .calibrating)
        #expect(mapper.gyroStatus?.summary.hasPrefix("calibrating 9%") == true)
        _ = travel(&mapper, &imu, seconds: 9.1)
        #expect(mapper.raw.calibrationState == .calibrated(confidence: 1))
        let moved = travel(&mapper, &imu, seconds: 60)
        print("manual 10 s calibration, then 60 s still: \(moved) px")
        #expect(moved < 1)
    }

    /// Without calibration the same bias visibly drifts: the tests above can fail.
    @Test func uncalibratedBiasDrifts() throws {
        var imu = stillIMU(seed: 23)
        var mapper = try rawMapper(.fps, [("calibration.mode", "manual"), ("calibration.rest_gate", "false")])
        #expect(travel(&mapper, &imu, seconds: 60) > 1000)
        #expect(mapper.gyroStatus?.calibration == .uncalibrated)
    }

    /// Player space end to end (fused gravity, noise, bias): a 60 °/s turn about gravity
    /// with the controller's top raised 45° moves the pointer as far as the same turn flat.
    @Test func playerSpaceTurnMatchesFlat() throws {
        func travelX(pitch: Double) throws -> Int {
            var imu = stillIMU(seed: 30, biasDeg: Vec3(1, -0.7, 0.5), truth: orientation(pitchDeg: pitch))
            var mapper = try rawMapper(.fps)
            _ = travel(&mapper, &imu, seconds: 3)
            var dx = 0
            imu.run(seconds: 1, SyntheticIMU.worldRate(Vec3(0, 0, radians(60)))) { s, _ in
                dx += mapper.update(s, screen: screen).moveBy.dx
            }
            return dx
        }
        let flat = try travelX(pitch: 0), pitched = try travelX(pitch: 45)
        let ratio = Double(pitched) / Double(flat)
        print("player space through MotionMapper: flat \(flat) px, pitched 45° \(pitched) px, ratio \(ratio)")
        #expect(flat < -1000)                               // turning left moves the pointer left
        #expect(abs(ratio - 1) < 0.05)
    }

    /// `fps.clutch = hold:C`: no FPS output unless C is held; the attitude keeps coming.
    @Test func clutchGatesFPSOutputOnly() throws {
        var imu = stillIMU(seed: 31, biasDeg: .zero)
        var mapper = try rawMapper(.fps, [("fps.clutch", "hold:C")])
        let turn = SyntheticIMU.worldRate(Vec3(0, 0, radians(60)))
        var off = 0, on = 0, attitudes = 0
        for _ in 0..<250 {
            off += abs(mapper.update(imu.next(turn), screen: screen).moveBy.dx)
            if mapper.attitude != nil { attitudes += 1 }
        }
        #expect(mapper.gyroStatus?.clutchEngaged == false)
        for _ in 0..<250 { on += abs(mapper.update(imu.next(buttons: ButtonSet([.c]), turn), screen: screen).moveBy.dx) }
        #expect(off == 0)
        #expect(attitudes == 250)                           // pointer mode still has its attitude
        #expect(on > 1000)
    }

    /// The rest gate lets slow aiming through: a 1 °/s turn from rest moves the pointer
    /// within a fraction of a second.
    @Test func restGateOpensForSlowAiming() throws {
        var imu = stillIMU(seed: 33, biasDeg: Vec3(1, -0.7, 0.5), truth: .identity)
        var mapper = try rawMapper(.fps)
        _ = travel(&mapper, &imu, seconds: 3)
        #expect(mapper.gyroStatus?.still == true)
        var resting = 0, dx = 0
        imu.run(seconds: 2, SyntheticIMU.worldRate(Vec3(0, 0, radians(1)))) { s, _ in
            dx += mapper.update(s, screen: screen).moveBy.dx
            if mapper.gyroStatus?.still == true { resting += 1 }
        }
        print("slow 1 °/s turn from rest: gated for \(resting) samples, moved \(dx) px")
        #expect(resting < 50)
        #expect(dx < -100)        // 1 °/s · 2 s at 64 px/° (tightening ≈ 1 at 1 °/s): ≈ −128 px
    }

    /// Pointer mode at rest: the rest gate holds the fused attitude, so accelerometer
    /// noise does not make the pointer jitter.
    @Test func pointerModeHoldsStillAtRest() throws {
        func jitter(restGate: Bool) throws -> (travel: Int, spanY: Int) {
            var imu = stillIMU(seed: 34, truth: orientation(rollDeg: 5, pitchDeg: 10))
            var mapper = try rawMapper(.pointer, [("calibration.rest_gate", "\(restGate)")])
            _ = travel(&mapper, &imu, seconds: 5)
            var moved = 0, ys: [Int] = []
            imu.run(seconds: 60, SyntheticIMU.still) { s, _ in
                let out = mapper.update(s, screen: screen)
                moved += abs(out.moveBy.dx) + abs(out.moveBy.dy)
                if let p = out.moveTo { ys.append(p.y) }
            }
            return (moved, ys.max()! - ys.min()!)
        }
        let gated = try jitter(restGate: true), ungated = try jitter(restGate: false)
        print("pointer mode, 60 s at rest: \(gated.travel) px moved with the rest gate; "
              + "\(ungated.travel) px moved, y span \(ungated.spanY) px without")
        #expect(gated.travel == 0 && gated.spanY == 0)
        #expect(ungated.travel > gated.travel)
    }
}
