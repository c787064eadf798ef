/// Why a setting could not be changed. `message` names the key, the rejected
/// value and what is allowed, ready to show in the dashboard or a config error.
package struct MappingSettingError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable { case unknownKey, invalidValue }
    package var kind: Kind
    package var key: String
    package var value: String
    package var message: String
    package var description: String { message }
}

extension MappingSettings {
    /// Every settable key, in display order.
    package static let keys: [String] = [
        "mode", "sensitivity",
        "pointer.fov_x", "pointer.fov_y", "pointer.roll_threshold", "pointer.drift_rate",
        "fps.calibration", "fps.degrees_per_screen", "fps.counts_per_360",
        "fps.slow_sensitivity", "fps.fast_sensitivity", "fps.slow_threshold", "fps.fast_threshold",
        "fps.tightening", "fps.smooth_threshold", "fps.smooth_window", "fps.space", "fps.clutch",
        "calibration.mode", "calibration.rest_gate", "calibration.duration", "sensors.accelerometer",
        "seed.turn", "seed.yaw_span",
        "filter", "filter.factor", "filter.min_cutoff", "filter.beta", "filter.d_cutoff",
        "touchpad.speed", "touchpad.acceleration", "touchpad.scroll_step",
    ]

    /// Sets `key` from its text form (as in the TOML file or a dashboard form).
    /// Leaves the settings unchanged when it throws.
    package mutating func set(_ key: String, to value: String) throws(MappingSettingError) {
        let v = NumberRule.trim(value)
        switch key {
        case "mode": mode = try Self.choice(key, v, Mode.allCases.map(\.rawValue), Mode.init(rawValue:))
        case "sensitivity": sensitivity = try NumberRule(above: 0, atMost: 100).parse(key, v)
        case "pointer.fov_x": pointer.fovX = try NumberRule(above: 0, atMost: 360, unit: "degrees").parse(key, v)
        case "pointer.fov_y": pointer.fovY = try NumberRule(above: 0, atMost: 360, unit: "degrees").parse(key, v)
        case "pointer.roll_threshold":
            pointer.rollThreshold = try NumberRule(atLeast: 0, atMost: 3.15, unit: "radians").parse(key, v)
        case "pointer.drift_rate": pointer.driftRate = try NumberRule(atLeast: 0, atMost: 1).parse(key, v)
        case "fps.calibration":
            let all = FPSSettings.Calibration.allCases
            fps.calibration = try Self.choice(key, v, all.map(\.rawValue), FPSSettings.Calibration.init(rawValue:))
        case "fps.degrees_per_screen":
            fps.degreesPerScreen = try NumberRule(above: 0, atMost: 3600, unit: "degrees").parse(key, v)
        case "fps.counts_per_360": fps.countsPer360 = try NumberRule(above: 0, atMost: 1e7, unit: "counts").parse(key, v)
        case "fps.slow_sensitivity": fps.slowSensitivity = try NumberRule(atLeast: 0, atMost: 100).parse(key, v)
        case "fps.fast_sensitivity": fps.fastSensitivity = try NumberRule(atLeast: 0, atMost: 100).parse(key, v)
        case "fps.slow_threshold": fps.slowThreshold = try NumberRule.degreesPerSecond.parse(key, v)
        case "fps.fast_threshold": fps.fastThreshold = try NumberRule.degreesPerSecond.parse(key, v)
        case "fps.tightening": fps.tightening = try NumberRule.degreesPerSecond.parse(key, v)
        case "fps.smooth_threshold": fps.smoothThreshold = try NumberRule.degreesPerSecond.parse(key, v)
        case "fps.smooth_window": fps.smoothWindow = try NumberRule(atLeast: 0, atMost: 1, unit: "seconds").parse(key, v)
        case "fps.space": fps.space = try Self.choice(key, v, GyroSpace.allCases.map(\.rawValue), GyroSpace.init(rawValue:))
        case "fps.clutch":
            fps.clutch = try Self.choice(key, v, ["always", "hold:X", "toggle:X", "off-while:X (X a button A–P)"],
                                         GyroClutch.Mode.init(text:))
        case "calibration.mode":
            let all = GyroCalibrator.Mode.allCases
            sensors.calibrationMode = try Self.choice(key, v, all.map(\.rawValue), GyroCalibrator.Mode.init(rawValue:))
        case "calibration.rest_gate":
            let aliases = ["true": true, "on": true, "yes": true, "false": false, "off": false, "no": false]
            sensors.restGate = try Self.choice(key, v, ["true", "false"]) { aliases[$0] }
        case "calibration.duration":
            sensors.calibrationDuration = try NumberRule(atLeast: 0.5, atMost: 60, unit: "seconds").parse(key, v)
        case "sensors.accelerometer":
            let all = RawMotionPipeline.AccelerometerConvention.allCases
            sensors.accelerometer = try Self.choice(key, v, all.map(\.rawValue),
                                                    RawMotionPipeline.AccelerometerConvention.init(rawValue:))
        case "seed.turn": seed.turn = try NumberRule(atLeast: 0, atMost: 1000, unit: "pixels per radian").parse(key, v)
        case "seed.yaw_span": seed.yawSpan = try NumberRule(above: 0, atMost: 360, unit: "degrees").parse(key, v)
        case "filter":
            let aliases: [String: FilterSettings.Kind] = ["none": .none, "off": .none, "lowpass": .lowPass,
                "low-pass": .lowPass, "oneeuro": .oneEuro, "one-euro": .oneEuro, "1euro": .oneEuro]
            let names = FilterSettings.Kind.allCases.map(\.rawValue)
            filterSettings.kind = try Self.choice(key, v, names) { aliases[$0] }
        case "filter.factor": filterSettings.factor = try NumberRule(above: 0, atMost: 1).parse(key, v)
        case "filter.min_cutoff": filterSettings.minCutoff = try NumberRule(above: 0, atMost: 1000, unit: "Hz").parse(key, v)
        case "filter.beta": filterSettings.beta = try NumberRule(atLeast: 0, atMost: 1000).parse(key, v)
        case "filter.d_cutoff": filterSettings.dCutoff = try NumberRule(above: 0, atMost: 1000, unit: "Hz").parse(key, v)
        case "touchpad.speed":
            touchpad.speed = try NumberRule(above: 0, atMost: 20, unit: "screen pixels per CSS pixel").parse(key, v)
        case "touchpad.acceleration": touchpad.acceleration = try NumberRule(atLeast: 0, atMost: 10).parse(key, v)
        case "touchpad.scroll_step":
            touchpad.scrollPixels = try NumberRule(above: 0, atMost: 500, unit: "CSS pixels per wheel step").parse(key, v)
        default:
            throw MappingSettingError(kind: .unknownKey, key: key, value: value,
                message: "unknown setting \(EchoedValue.quoted(key)); known settings: \(Self.keys.joined(separator: ", "))")
        }
    }

    /// The text form of `key`'s current value (parsable by `set`), or "" for a key
    /// not in `keys`.
    package func value(of key: String) -> String {
        switch key {
        case "mode": mode.rawValue
        case "sensitivity": "\(sensitivity)"
        case "pointer.fov_x": "\(pointer.fovX)"
        case "pointer.fov_y": "\(pointer.fovY)"
        case "pointer.roll_threshold": "\(pointer.rollThreshold)"
        case "pointer.drift_rate": "\(pointer.driftRate)"
        case "fps.calibration": fps.calibration.rawValue
        case "fps.degrees_per_screen": "\(fps.degreesPerScreen)"
        case "fps.counts_per_360": "\(fps.countsPer360)"
        case "fps.slow_sensitivity": "\(fps.slowSensitivity)"
        case "fps.fast_sensitivity": "\(fps.fastSensitivity)"
        case "fps.slow_threshold": "\(fps.slowThreshold)"
        case "fps.fast_threshold": "\(fps.fastThreshold)"
        case "fps.tightening": "\(fps.tightening)"
        case "fps.smooth_threshold": "\(fps.smoothThreshold)"
        case "fps.smooth_window": "\(fps.smoothWindow)"
        case "fps.space": fps.space.rawValue
        case "fps.clutch": fps.clutch.description
        case "calibration.mode": sensors.calibrationMode.rawValue
        case "calibration.rest_gate": "\(sensors.restGate)"
        case "calibration.duration": "\(sensors.calibrationDuration)"
        case "sensors.accelerometer": sensors.accelerometer.rawValue
        case "seed.turn": "\(seed.turn)"
        case "seed.yaw_span": "\(seed.yawSpan)"
        case "filter": filterSettings.kind.rawValue
        case "filter.factor": "\(filterSettings.factor)"
        case "filter.min_cutoff": "\(filterSettings.minCutoff)"
        case "filter.beta": "\(filterSettings.beta)"
        case "filter.d_cutoff": "\(filterSettings.dCutoff)"
        case "touchpad.speed": "\(touchpad.speed)"
        case "touchpad.acceleration": "\(touchpad.acceleration)"
        case "touchpad.scroll_step": "\(touchpad.scrollPixels)"
        default: ""
        }
    }

    private static func choice<T>(_ key: String, _ value: String, _ allowed: [String],
                                  _ make: (String) -> T?) throws(MappingSettingError) -> T {
        if let t = make(value.lowercased()) { return t }
        throw MappingSettingError(kind: .invalidValue, key: key, value: value,
            message: "\(key): \(EchoedValue.quoted(value)) is not allowed; use one of: \(allowed.joined(separator: ", "))")
    }
}

/// The allowed range of a numeric setting, with its description for messages.
struct NumberRule {
    var low: Double, lowInclusive: Bool, high: Double, unit: String

    init(above low: Double, atMost high: Double, unit: String = "") {
        self.low = low; lowInclusive = false; self.high = high; self.unit = unit
    }
    init(atLeast low: Double, atMost high: Double, unit: String = "") {
        self.low = low; lowInclusive = true; self.high = high; self.unit = unit
    }

    static let degreesPerSecond = NumberRule(atLeast: 0, atMost: 100_000, unit: "degrees per second")

    var expected: String {
        let u = unit.isEmpty ? "" : " (\(unit))"
        return "a number \(lowInclusive ? "≥" : ">") \(low.shortText) and ≤ \(high.shortText)\(u)"
    }

    func parse(_ key: String, _ text: String) throws(MappingSettingError) -> Double {
        guard let x = Double(text), x.isFinite else {
            throw MappingSettingError(kind: .invalidValue, key: key, value: text,
                message: "\(key): \(EchoedValue.quoted(text)) is not a number; expected \(expected)")
        }
        guard lowInclusive ? x >= low : x > low, x <= high else {
            throw MappingSettingError(kind: .invalidValue, key: key, value: text,
                message: "\(key): \(EchoedValue.text(text)) is out of range; expected \(expected)")
        }
        return x
    }

    static func trim(_ s: String) -> String {
        String(s.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}

extension Double {
    /// "1" rather than "1.0" for whole numbers, for messages.
    var shortText: String {
        if self == rounded(), abs(self) < 1e15 { return String(Int64(self)) }
        return "\(self)"
    }
}
