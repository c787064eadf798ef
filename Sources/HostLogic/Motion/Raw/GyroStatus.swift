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

    static func percent(_ fraction: Double) -> String {
        guard fraction.isFinite else { return "-%" }
        return "\(Int((Swift.min(Swift.max(fraction, 0), 1) * 100).rounded(.down)))%"
    }
}
