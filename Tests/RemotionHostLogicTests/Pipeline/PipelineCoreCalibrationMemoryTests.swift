import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Calibration memory through the pipeline's core on virtual time (the host's clock follows
/// the samples' own): a controller keyed by its identity saves its calibration (not per
/// sample), comes back with it restored and accurate at once, and later still periods
/// refine it towards the truth.
@Suite struct PipelineCoreCalibrationMemoryTests {
    typealias Rig = PipelineCoreTests.Rig
    static let id = SessionID(7)
    static let key = "web:phone-1"
    static let trueBiasDeg = Vec3(1, -0.7, 0.5)
    static let turn = SyntheticIMU.worldRate(Vec3(0, 0, radians(40)))

    static func imu(seed: UInt64, biasDeg: Vec3 = trueBiasDeg, start: UInt64 = 1_000_000) -> SyntheticIMU {
        var imu = SyntheticIMU(seed: seed, truth: orientation(rollDeg: -10, pitchDeg: 5))
        imu.bias = radiansVector(biasDeg)
        imu.gyroNoise = radians(0.3)
        imu.accelNoise = 0.01
        imu.startMicros = start
        return imu
    }

    /// `seconds` of the IMU into session `id`, the host's time at each sample's own; the
    /// calibrations the core asked to save.
    @discardableResult
    static func feed(_ rig: inout Rig, _ imu: inout SyntheticIMU, seconds: Double,
                     _ omega: @escaping SyntheticIMU.Rate = SyntheticIMU.still) -> [CalibrationSave] {
        var saves: [CalibrationSave] = []
        imu.run(seconds: seconds, omega) { s, _ in
            rig.now = Instant(nanoseconds: Int64(s.timestampMicros) * 1000)
            for case let .calibrationSave(save) in rig.motion(id, s) { saves.append(save) }
        }
        return saves
    }

    static func biasDeg(_ rig: Rig) -> Vec3 { rig.core.sessions[id]!.mapper.raw.calibrator.biasDegreesPerSecond }

    @Test func aRememberedControllerIsAccurateAtOnceAndStillPeriodsRefineIt() throws {
        // First visit: 5 s still on the table, a turn, then it leaves.
        var rig = Rig()
        _ = rig.open(Self.id)
        rig.core.identify(Self.id, as: Self.key, restoring: nil, now: rig.now)
        var imu = Self.imu(seed: 1)
        Self.feed(&rig, &imu, seconds: 5)
        Self.feed(&rig, &imu, seconds: 1, Self.turn)
        let closing = rig.close(Self.id)
        let saved = try #require(closing.compactMap { if case let .calibrationSave(s) = $0 { s } else { nil } }.last)
        #expect(saved.key == Self.key)
        #expect((saved.calibration.bias.map(MotionMath.degrees) - Self.trueBiasDeg).maxMagnitude < 0.1)
        #expect(saved.calibration.confidence == 1 && saved.calibration.weight > 4)

        // The host's memory keeps it; a day later the controller comes back and its bias
        // has moved 0.1 °/s (temperature).
        var memory = CalibrationMemory()
        let wall = 1_700_000_000.0
        let remembered = memory.remember(saved.key, saved.calibration, established: wall - saved.ageSeconds)
        #expect(remembered)
        let recalled = try #require(memory.recall(Self.key, now: wall + 86_400))
        let movedDeg = Self.trueBiasDeg + Vec3(0, 0, 0.1)

        var back = Rig()
        back.now = .seconds(100)
        _ = back.open(Self.id)
        let restored = back.core.identify(Self.id, as: Self.key, restoring: recalled, now: back.now)
        #expect(restored)
        // Before any still period: the remembered bias is in use, calibrated, a day old.
        let atOnce = (Self.biasDeg(back) - movedDeg).maxMagnitude
        #expect(atOnce < 0.2, "restored bias off by \(atOnce) °/s")
        #expect(back.core.sessions[Self.id]!.mapper.raw.calibrationState == .calibrated(confidence: recalled.calibration.confidence))
        let age = try #require(back.core.sessions[Self.id]?.calibrationAge(now: back.now))
        #expect(abs(age - (86_400 + saved.ageSeconds)) < 1e-3)

        // The same controller unremembered: no calibration, the whole bias is drift.
        var fresh = Rig()
        _ = fresh.open(Self.id)
        var freshIMU = Self.imu(seed: 2, biasDeg: movedDeg, start: 100_000_000)
        Self.feed(&fresh, &freshIMU, seconds: 0.5, Self.turn)
        #expect(Self.biasDeg(fresh) == .zero, "nothing subtracted: the whole \(movedDeg) °/s is drift")
        #expect(fresh.core.sessions[Self.id]!.mapper.raw.calibration == nil)

        // Still for 10 s: continuous calibration refines the restored bias towards the truth.
        var later = Self.imu(seed: 3, biasDeg: movedDeg, start: 100_000_000)
        Self.feed(&back, &later, seconds: 0.5, Self.turn)
        let beforeRest = (Self.biasDeg(back) - movedDeg).maxMagnitude
        Self.feed(&back, &later, seconds: 10)
        let afterRest = (Self.biasDeg(back) - movedDeg).maxMagnitude
        #expect(afterRest < 0.05 && afterRest < beforeRest / 2, "bias error \(beforeRest) → \(afterRest) °/s")
        print("restored bias error at once \(atOnce) °/s; before rest \(beforeRest), after 10 s still \(afterRest) °/s")
        let refinedAge = try #require(back.core.sessions[Self.id]?.calibrationAge(now: back.now))
        #expect(refinedAge < 0.1, "refined just now, not a day old: \(refinedAge) s")
    }

    @Test func savesComeAtMostEveryThirtySecondsNeverPerSampleAndAtTheEnd() throws {
        var rig = Rig()
        _ = rig.open(Self.id)
        rig.core.identify(Self.id, as: Self.key, restoring: nil, now: rig.now)
        var imu = Self.imu(seed: 4)
        var saves: [CalibrationSave] = []
        var samples = 0
        for _ in 0..<30 {                               // 120 s: still 3 s, turn 1 s
            saves += Self.feed(&rig, &imu, seconds: 3)
            saves += Self.feed(&rig, &imu, seconds: 1, Self.turn)
            samples += 1000
        }
        #expect(saves.count >= 3 && saves.count <= 5, "\(saves.count) saves in 120 s (\(samples) samples)")
        #expect(saves.allSatisfy { $0.key == Self.key })
        #expect((saves.last!.calibration.bias.map(MotionMath.degrees) - Self.trueBiasDeg).maxMagnitude < 0.1)
        let closing = rig.close(Self.id)
        #expect(closing.contains { if case .calibrationSave = $0 { true } else { false } },
                "what changed since the last save is saved at the end")

        // No identity: nothing is ever saved.
        var anonymous = Rig()
        _ = anonymous.open(Self.id)
        var other = Self.imu(seed: 5)
        #expect(Self.feed(&anonymous, &other, seconds: 40).isEmpty)
        #expect(!anonymous.close(Self.id).contains { if case .calibrationSave = $0 { true } else { false } })
    }

    @Test func aSessionThatCalibratedItselfKeepsWhatItLearned() {
        var rig = Rig()
        _ = rig.open(Self.id)
        var imu = Self.imu(seed: 6)
        Self.feed(&rig, &imu, seconds: 3)
        let learned = Self.biasDeg(rig)
        let stale = RecalledCalibration(calibration: GyroCalibration(bias: .zero, confidence: 1, weight: 20), ageSeconds: 60)
        let restored = rig.core.identify(Self.id, as: Self.key, restoring: stale, now: rig.now)
        #expect(!restored)
        #expect(Self.biasDeg(rig) == learned)
        #expect(rig.core.calibrationKey(of: Self.id) == Self.key, "keyed all the same: its calibration is saved")
        let unknown = rig.core.identify(SessionID(99), as: Self.key, restoring: stale, now: rig.now)
        #expect(!unknown, "no such session")
    }

    @Test func residualDriftAtRestIsWhatTheCalibratedGyroStillReads() throws {
        // Manual calibration: a restored bias is never refined, so the residual at rest is
        // the error of the remembered bias: 0.1 °/s on z = 6 °/min.
        var profile = MappingProfile()
        profile.settings.sensors.calibrationMode = .manual
        var rig = Rig(profile)
        _ = rig.open(Self.id)
        let remembered = GyroCalibration(bias: radiansVector(Self.trueBiasDeg - Vec3(0, 0, 0.1)), confidence: 1, weight: 20)
        rig.core.identify(Self.id, as: Self.key, restoring: RecalledCalibration(calibration: remembered, ageSeconds: 0),
                          now: rig.now)
        var imu = Self.imu(seed: 7)
        Self.feed(&rig, &imu, seconds: 0.5, Self.turn)
        #expect(rig.core.sessions[Self.id]?.mapper.gyroStatus?.residualDriftDegreesPerMinute == nil, "no rest yet")
        Self.feed(&rig, &imu, seconds: 10)
        let drift = try #require(rig.core.sessions[Self.id]?.mapper.gyroStatus?.residualDriftDegreesPerMinute)
        #expect(abs(drift - 6) < 0.6, "residual drift \(drift) °/min")
        // It stays shown while the controller moves, until the next rest.
        Self.feed(&rig, &imu, seconds: 0.5, Self.turn)
        #expect(rig.core.sessions[Self.id]?.mapper.gyroStatus?.residualDriftDegreesPerMinute == drift)
    }
}
