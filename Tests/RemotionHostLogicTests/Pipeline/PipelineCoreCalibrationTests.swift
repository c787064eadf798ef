import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Calibration a person can see and ask for, on virtual time: the
/// calibrator's manual view, the reporter's pacing, and `PipelineCore.requestCalibration`
/// starting one session's calibration only, never restarting a running one, and reporting
/// its progress (increasing, at most 5 a second) and then its end, once.
@Suite struct PipelineCoreCalibrationTests {
    typealias Rig = PipelineCoreTests.Rig
    static let one = SessionID(1), two = SessionID(2)
    static let degree = Double.pi / 180

    /// A still phone at 100 Hz: gyro = bias (0.8, −0.5, 0.6) °/s plus ±0.1 °/s noise, lying flat.
    struct Phone {
        var rng: SplitMix64
        var micros: UInt64 = 1_000_000
        /// Added to the gyro (°/s, about z) for the next sample only: a hand moving.
        var jolt = 0.0
        init(seed: UInt64) { rng = SplitMix64(seed: seed) }
        mutating func next() -> MotionSample {
            micros += 10_000
            func n(_ s: Double) -> Float { Float((rng.nextUnit() * 2 - 1) * s) }
            let d = PipelineCoreCalibrationTests.degree
            defer { jolt = 0 }
            return MotionSample(timestampMicros: micros,
                                gyro: Vector3(x: Float(0.8 * d) + n(0.1 * d), y: Float(-0.5 * d) + n(0.1 * d),
                                              z: Float((0.6 + jolt) * d) + n(0.1 * d)),
                                acceleration: Vector3(x: n(0.005), y: n(0.005), z: 1 + n(0.005)))
        }
    }

    static func rig(_ keys: [(String, String)] = [("calibration.mode", "manual"), ("calibration.duration", "2")]) throws -> Rig {
        var settings = MappingSettings()
        settings.mode = .fps
        for (k, v) in keys { try settings.set(k, to: v) }
        var rig = Rig(MappingProfile(settings: settings))
        _ = rig.open(one)
        _ = rig.open(two)
        return rig
    }

    /// Both phones send one sample each, 10 ms apart (the host's clock runs with them); the
    /// calibration reports of each, in order.
    static func feed(_ rig: inout Rig, _ phones: inout [Phone], seconds: Double) -> [[CalibrationReport]] {
        var reports: [[CalibrationReport]] = [[], []]
        for _ in 0..<Int((seconds * 100).rounded()) {
            rig.now = rig.now + .milliseconds(10)
            for (k, id) in [one, two].enumerated() {
                for case .calibration(let r) in rig.motion(id, phones[k].next()) { reports[k].append(r) }
            }
        }
        return reports
    }

    static func progress(_ reports: [CalibrationReport]) -> [Double] {
        reports.compactMap { if case .running(let p) = $0 { p } else { nil } }
    }

    @Test func thePagesRequestCalibratesItsSessionOnlyAndReportsProgressThenDone() throws {
        var rig = try Self.rig()
        var phones = [Phone(seed: 1), Phone(seed: 2)]
        _ = Self.feed(&rig, &phones, seconds: 0.5)
        let asked = rig.now
        #expect(rig.core.requestCalibration(Self.one, now: asked) == .running(progress: 0))
        var reports = Self.feed(&rig, &phones, seconds: 2.2)
        let one = reports[0]
        #expect(one.last == .done && one.filter { $0 == .done }.count == 1, "the end once: \(one)")
        let p = Self.progress(one)
        #expect(p.count >= 8 && p.count <= 11, "about every 200 ms of 2 s: \(p)")
        #expect(zip(p, p.dropFirst()).allSatisfy { $0 < $1 }, "increasing: \(p)")
        #expect(p.allSatisfy { $0 > 0 && $0 < 1 })
        #expect(reports[1].isEmpty, "the other session heard nothing")
        #expect(rig.core.sessions[Self.one]?.mapper.raw.calibrationState == .calibrated(confidence: 1))
        let bias = try #require(rig.core.sessions[Self.one]?.mapper.raw.calibrator.biasDegreesPerSecond)
        #expect((bias - Vec3(0.8, -0.5, 0.6)).maxMagnitude < 0.05)
        #expect(rig.core.sessions[Self.two]?.mapper.raw.calibrationState == .uncalibrated, "manual mode: two never asked")
        reports = Self.feed(&rig, &phones, seconds: 1)
        #expect(reports == [[], []], "nothing after the end")
        #expect(rig.core.requestCalibration(SessionID(9), now: rig.now) == nil)
    }

    /// At most one report per `interval` (5 a second), and only when the percentage moved.
    @Test func progressIsPacedOnVirtualTime() throws {
        var rig = try Self.rig([("calibration.mode", "manual"), ("calibration.duration", "4")])
        var phones = [Phone(seed: 3), Phone(seed: 4)]
        _ = Self.feed(&rig, &phones, seconds: 0.2)
        _ = rig.core.requestCalibration(Self.one, now: rig.now)
        var times: [Instant] = []
        for _ in 0..<300 {
            rig.now = rig.now + .milliseconds(10)
            if rig.motion(Self.one, phones[0].next()).contains(where: { if case .calibration = $0 { true } else { false } }) {
                times.append(rig.now)
            }
        }
        #expect(times.count >= 13 && times.count <= 15, "\(times.count) reports in 3 s")
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 >= CalibrationReporter.interval })
    }

    /// A second tap while one runs does not restart it: it answers the progress so far, and
    /// the calibration ends when the first one would have.
    @Test func aSecondRequestWhileRunningDoesNotRestart() throws {
        var rig = try Self.rig()
        var phones = [Phone(seed: 5), Phone(seed: 6)]
        _ = Self.feed(&rig, &phones, seconds: 0.3)
        #expect(rig.core.requestCalibration(Self.one, now: rig.now) == .running(progress: 0))
        var reports = Self.feed(&rig, &phones, seconds: 1.2)
        guard case .running(let p)? = rig.core.requestCalibration(Self.one, now: rig.now) else {
            Issue.record("the second request did not answer the running calibration"); return
        }
        #expect(abs(p - 0.6) < 0.02, "the first one's progress: \(p)")
        reports = Self.feed(&rig, &phones, seconds: 0.85)
        #expect(reports[0].last == .done, "ended 2 s after the first request, not the second: \(reports[0])")
    }

    @Test func aMovedPhoneFailsAndKeepsTheOldBias() throws {
        var rig = try Self.rig()
        var phones = [Phone(seed: 7), Phone(seed: 8)]
        _ = Self.feed(&rig, &phones, seconds: 0.3)
        _ = rig.core.requestCalibration(Self.one, now: rig.now)
        _ = Self.feed(&rig, &phones, seconds: 0.5)
        phones[0].jolt = 25                                    // a hand turning 25 °/s
        let reports = Self.feed(&rig, &phones, seconds: 0.5)
        #expect(reports[0] == [.moved], "\(reports[0])")
        #expect(rig.core.sessions[Self.one]?.mapper.raw.calibrator.bias == .zero, "nothing learned")
        #expect(rig.core.requestCalibration(Self.one, now: rig.now) == .running(progress: 0), "it may be tried again")
    }

    @Test func unavailableWhenOffOrWithoutGyro() throws {
        var off = try Self.rig([("calibration.mode", "off")])
        var phones = [Phone(seed: 9), Phone(seed: 10)]
        _ = Self.feed(&off, &phones, seconds: 0.1)
        #expect(off.core.requestCalibration(Self.one, now: off.now) == .unavailable(.off))

        var attitudeOnly = try Self.rig()
        _ = attitudeOnly.motion(Self.one, PipelineCoreTests.attitude(0.1, at: 1_000))   // its own attitude, no gyro
        #expect(attitudeOnly.core.requestCalibration(Self.one, now: .zero) == .unavailable(.noGyro))
        #expect(attitudeOnly.core.sessions[Self.one]?.mapper.raw.calibrator.manualCalibration == nil)
    }

    /// One started elsewhere (the dashboard, a calibrate button) is shown too; turning
    /// calibration off while it runs ends it as unavailable.
    @Test func aCalibrationStartedElsewhereIsReportedAndTurningItOffEndsIt() throws {
        var rig = try Self.rig()
        var phones = [Phone(seed: 11), Phone(seed: 12)]
        _ = Self.feed(&rig, &phones, seconds: 0.2)
        #expect(rig.core.calibrate(Self.two) == true)
        var reports = Self.feed(&rig, &phones, seconds: 0.5)
        #expect(reports[0].isEmpty && reports[1].first == .running(progress: 0))
        var settings = rig.core.profile.settings
        settings.sensors.calibrationMode = .off
        rig.core.update(settings: settings)
        reports = Self.feed(&rig, &phones, seconds: 0.1)
        #expect(reports[1] == [.unavailable(.off)])
    }

    /// The reporter alone: nothing while nothing runs; the end at once even inside `interval`.
    @Test func theReporterSaysTheEndAtOnceAndOnce() {
        var r = CalibrationReporter()
        #expect(r.observe(nil, now: .zero) == nil)
        #expect(r.observe(.done, now: .zero) == nil, "an end it never saw begin")
        #expect(r.observe(.running(progress: 0.013), now: .zero) == .running(progress: 0.01))
        #expect(r.observe(.running(progress: 0.5), now: .milliseconds(100)) == nil, "inside the interval")
        #expect(r.observe(.running(progress: 0.019), now: .milliseconds(300)) == nil, "the same percent")
        #expect(r.observe(.running(progress: 0.6), now: .milliseconds(300)) == .running(progress: 0.6))
        #expect(r.observe(.done, now: .milliseconds(310)) == .done)
        #expect(r.observe(.done, now: .milliseconds(900)) == nil)
    }
}
