/// What the terminal view and the dashboard show about one controller's gyro: its
/// calibration, whether it is at rest, the FPS clutch and where its attitude comes from.
/// Plain data (it travels in the host's JSON snapshot).
package struct GyroStatus: Sendable, Hashable, Codable {
    package enum Calibration: String, Sendable, Hashable, Codable, CaseIterable {
        case off, uncalibrated, calibrating, calibrated
    }

    package var calibration: Calibration
    /// How far a calibration in progress is, 0 … 1 (0 unless `calibrating`).
    package var progress: Double
    /// 0 … 1 (0 unless `calibrated`).
    package var confidence: Double
    /// The bias subtracted from the raw gyro, °/s about x (pitch), y (roll), z (yaw).
    package var biasDegreesPerSecond: [Double]
    /// At rest: the rest gate holds the rates at zero.
    package var still: Bool
    /// The FPS clutch (`fps.clutch`): whether gyro aiming is engaged.
    package var clutchEngaged: Bool
    /// The attitude is fused on the host from raw sensors (else it is the controller's own).
    package var fused: Bool
    /// Residual drift at rest, °/min: the length of what the calibrated gyro still reads,
    /// averaged over the newest still period of at least 1 s (`GyroCalibrator.restResidual`,
    /// docs/MOTION.md); nil before one.
    package var residualDriftDegreesPerMinute: Double?
    /// Seconds since the bias in use was established or last refined by a still period (a
    /// restored calibration brings its age with it); nil without a calibration. Set by the
    /// host, which has the clock (the snapshot), not by the gyro pipeline.
    package var calibrationAgeSeconds: Double?

    package init(calibration: Calibration, progress: Double = 0, confidence: Double = 0,
                 biasDegreesPerSecond: [Double] = [0, 0, 0], still: Bool = false, clutchEngaged: Bool = true,
                 fused: Bool = false) {
        self.calibration = calibration
        self.progress = progress
        self.confidence = confidence
        self.biasDegreesPerSecond = biasDegreesPerSecond
        self.still = still
        self.clutchEngaged = clutchEngaged
        self.fused = fused
    }

    package init(_ state: CalibrationState, biasDegreesPerSecond bias: Vec3, still: Bool, clutchEngaged: Bool,
                 fused: Bool) {
        let bias = [bias.x, bias.y, bias.z]
        switch state {
        case .off:
            self.init(calibration: .off, still: still, clutchEngaged: clutchEngaged, fused: fused)
        case .uncalibrated:
            self.init(calibration: .uncalibrated, biasDegreesPerSecond: bias, still: still,
                      clutchEngaged: clutchEngaged, fused: fused)
        case .calibrating(let p):
            self.init(calibration: .calibrating, progress: p, biasDegreesPerSecond: bias, still: still,
                      clutchEngaged: clutchEngaged, fused: fused)
        case .calibrated(let c):
            self.init(calibration: .calibrated, confidence: c, biasDegreesPerSecond: bias, still: still,
                      clutchEngaged: clutchEngaged, fused: fused)
        }
    }

    /// One line for people: "calibrated 100% · bias +0.01 -0.02 +0.00 °/s · still",
    /// "calibrating 40%", "uncalibrated", "calibration off"; then "clutch off" while the
    /// FPS clutch is disengaged and "fused on host" for raw sensors.
    package var summary: String {
        var parts: [String]
        switch calibration {
        case .off: parts = ["calibration off"]
        case .uncalibrated: parts = ["uncalibrated"]
        case .calibrating: parts = ["calibrating \(Self.percent(progress))"]
        case .calibrated: parts = ["calibrated \(Self.percent(confidence))"]
        }
        if calibration == .calibrated, biasDegreesPerSecond.count == 3 {
            parts.append("bias " + biasDegreesPerSecond.map { TextFormat.fixed($0, 2, plusSign: true) }.joined(separator: " ") + " °/s")
        }
        if still { parts.append("still") }
        if !clutchEngaged { parts.append("clutch off") }
        if fused { parts.append("fused on host") }
        return parts.joined(separator: " · ")
    }

    /// The second line for people: "drift 0.42 °/min at rest · calibrated 3 min ago";
    /// either part alone, or nil when neither is known.
    package var driftSummary: String? {
        var parts: [String] = []
        if let d = residualDriftDegreesPerMinute, d.isFinite { parts.append("drift \(TextFormat.fixed(d, 2)) °/min at rest") }
        if let age = calibrationAgeSeconds, age.isFinite { parts.append("calibrated \(Self.age(age)) ago") }
        return parts.isEmpty ? nil : parts.joined(separator: " · ")
    }

    /// "12 s", "3 min", "5 h", "2 d" (rounded down; negative as 0).
    package static func age(_ seconds: Double) -> String {
        let s = Swift.max(0, seconds.isFinite ? seconds : 0)
        if s < 60 { return "\(Int(s)) s" }
        if s < 3600 { return "\(Int(s / 60)) min" }
        if s < 86_400 { return "\(Int(s / 3600)) h" }
        return "\(Int(Swift.min(s / 86_400, 1e6))) d"
    }

    static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "-%" }
        return "\(Int((Swift.min(Swift.max(fraction, 0), 1) * 100).rounded(.down)))%"
    }
}
