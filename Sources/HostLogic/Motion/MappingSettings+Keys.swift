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
    /// One settable key: its name, how its text form is parsed into the settings, and how
    /// the current value is written back as text. Every key is spelled once, here.
    struct Field: Sendable {
        let key: String
        let parse: @Sendable (inout MappingSettings, String) throws(MappingSettingError) -> Void
        let text: @Sendable (MappingSettings) -> String
        /// The allowed range of a number (nil for words), for tests that walk every range.
        var rule: NumberRule? = nil

        /// A number within `rule`.
        static func number(_ key: String, _ path: WritableKeyPath<MappingSettings, Double> & Sendable,
                           _ rule: NumberRule) -> Field {
            Field(key: key, parse: { (s: inout MappingSettings, v: String) throws(MappingSettingError) in
                s[keyPath: path] = try rule.parse(key, v)
            }, text: { "\($0[keyPath: path])" }, rule: rule)
        }

        /// One of a few words; `aliases` accepts other spellings (lower case).
        static func choice<T: Sendable>(_ key: String, _ path: WritableKeyPath<MappingSettings, T> & Sendable,
                                        allowed: [String], make: @escaping @Sendable (String) -> T?,
                                        text: @escaping @Sendable (T) -> String) -> Field {
            Field(key: key, parse: { (s: inout MappingSettings, v: String) throws(MappingSettingError) in
                s[keyPath: path] = try MappingSettings.choice(key, v, allowed, make)
            }, text: { text($0[keyPath: path]) })
        }

        /// A gyro stick undeadzone (`rule`), refused when it and `other` (the other side's
        /// key) would together reach 1: the stick would have no room left to move.
        static func undeadzone(_ key: String, _ path: WritableKeyPath<MappingSettings, Double> & Sendable,
                               other: String, _ otherPath: KeyPath<MappingSettings, Double> & Sendable) -> Field {
            let rule = NumberRule(atLeast: 0, atMost: 0.99)   // GyroStick.maxUndeadzone
            return Field(key: key, parse: { (s: inout MappingSettings, v: String) throws(MappingSettingError) in
                let x = try rule.parse(key, v)
                let o = s[keyPath: otherPath]
                guard x + o < 1 else {
                    throw MappingSettingError(kind: .invalidValue, key: key, value: v,
                        message: "\(key): \(EchoedValue.text(v)) is too large with \(other) = \(o.shortText); the two together must be less than 1")
                }
                s[keyPath: path] = x
            }, text: { "\($0[keyPath: path])" }, rule: rule)
        }

        static func word<T: RawRepresentable & CaseIterable & Sendable>(
            _ key: String, _ path: WritableKeyPath<MappingSettings, T> & Sendable
        ) -> Field where T.RawValue == String {
            choice(key, path, allowed: T.allCases.map(\.rawValue), make: T.init(rawValue:), text: \.rawValue)
        }
    }

    /// Every settable key, in display order, with its rule.
    static let fields: [Field] = [
        .word("mode", \.mode),
        .number("sensitivity", \.sensitivity, NumberRule(above: 0, atMost: 100)),
        .number("pointer.fov_x", \.pointer.fovX, NumberRule(above: 0, atMost: 360, unit: "degrees")),
        .number("pointer.fov_y", \.pointer.fovY, NumberRule(above: 0, atMost: 360, unit: "degrees")),
        .number("pointer.roll_threshold", \.pointer.rollThreshold, NumberRule(atLeast: 0, atMost: 3.15, unit: "radians")),
        .number("pointer.drift_rate", \.pointer.driftRate, NumberRule(atLeast: 0, atMost: 1)),
        .word("fps.calibration", \.fps.calibration),
        .number("fps.degrees_per_screen", \.fps.degreesPerScreen, NumberRule(above: 0, atMost: 3600, unit: "degrees")),
        .number("fps.counts_per_360", \.fps.countsPer360, NumberRule(above: 0, atMost: 1e7, unit: "counts")),
        .number("fps.slow_sensitivity", \.fps.slowSensitivity, NumberRule(atLeast: 0, atMost: 100)),
        .number("fps.fast_sensitivity", \.fps.fastSensitivity, NumberRule(atLeast: 0, atMost: 100)),
        .number("fps.slow_threshold", \.fps.slowThreshold, .degreesPerSecond),
        .number("fps.fast_threshold", \.fps.fastThreshold, .degreesPerSecond),
        .number("fps.tightening", \.fps.tightening, .degreesPerSecond),
        .number("fps.smooth_threshold", \.fps.smoothThreshold, .degreesPerSecond),
        .number("fps.smooth_window", \.fps.smoothWindow, NumberRule(atLeast: 0, atMost: 1, unit: "seconds")),
        .word("fps.space", \.fps.space),
        .choice("fps.clutch", \.fps.clutch, allowed: ["always", "hold:X", "toggle:X", "off-while:X (X a button A–P)"],
                make: GyroClutch.Mode.init(text:), text: \.description),
        .word("calibration.mode", \.sensors.calibrationMode),
        .choice("calibration.rest_gate", \.sensors.restGate, allowed: ["true", "false"],
                make: { ["true": true, "on": true, "yes": true, "false": false, "off": false, "no": false][$0] },
                text: { "\($0)" }),
        .number("calibration.duration", \.sensors.calibrationDuration, NumberRule(atLeast: 0.5, atMost: 60, unit: "seconds")),
        .word("sensors.accelerometer", \.sensors.accelerometer),
        .number("seed.turn", \.seed.turn, NumberRule(atLeast: 0, atMost: 1000, unit: "pixels per radian")),
        .number("seed.yaw_span", \.seed.yawSpan, NumberRule(above: 0, atMost: 360, unit: "degrees")),
        .choice("filter", \.filterSettings.kind, allowed: FilterSettings.Kind.allCases.map(\.rawValue),
                make: { ["none": .none, "off": .none, "lowpass": .lowPass, "low-pass": .lowPass,
                         "oneeuro": .oneEuro, "one-euro": .oneEuro, "1euro": .oneEuro][$0] },
                text: \.rawValue),
        .number("filter.factor", \.filterSettings.factor, NumberRule(above: 0, atMost: 1)),
        .number("filter.min_cutoff", \.filterSettings.minCutoff, NumberRule(above: 0, atMost: 1000, unit: "Hz")),
        .number("filter.beta", \.filterSettings.beta, NumberRule(atLeast: 0, atMost: 1000)),
        .number("filter.d_cutoff", \.filterSettings.dCutoff, NumberRule(above: 0, atMost: 1000, unit: "Hz")),
        .word("flick.stick", \.flick.stick),
        .number("flick.time", \.flick.time, NumberRule(atLeast: 0, atMost: 1, unit: "seconds")),
        .number("flick.threshold", \.flick.threshold, NumberRule(atLeast: 0.2, atMost: 1)),
        .number("flick.forward_deadzone", \.flick.forwardDeadzone, NumberRule(atLeast: 0, atMost: 89, unit: "degrees")),
        .word("flick.snap", \.flick.snap),
        .word("gyro_stick.target", \.gyroStick.target),
        .number("gyro_stick.rate", \.gyroStick.rate, NumberRule(atLeast: 1, atMost: 10_000, unit: "degrees per second")),
        .undeadzone("gyro_stick.undeadzone_inner", \.gyroStick.undeadzoneInner,
                    other: "gyro_stick.undeadzone_outer", \.gyroStick.undeadzoneOuter),
        .undeadzone("gyro_stick.undeadzone_outer", \.gyroStick.undeadzoneOuter,
                    other: "gyro_stick.undeadzone_inner", \.gyroStick.undeadzoneInner),
        .number("gyro_stick.unpower", \.gyroStick.unpower, NumberRule(atLeast: 0, atMost: 10)),
        .number("touchpad.speed", \.touchpad.speed, NumberRule(above: 0, atMost: 20, unit: "screen pixels per CSS pixel")),
        .number("touchpad.acceleration", \.touchpad.acceleration, NumberRule(atLeast: 0, atMost: 10)),
        .number("touchpad.scroll_step", \.touchpad.scrollPixels, NumberRule(atLeast: 1, atMost: 500, unit: "CSS pixels per wheel step")),
    ]

    private static let fieldsByKey = Dictionary(uniqueKeysWithValues: fields.map { ($0.key, $0) })

    /// Every settable key, in display order.
    package static let keys: [String] = fields.map(\.key)

    /// Sets `key` from its text form (as in the TOML file or a dashboard form).
    /// Leaves the settings unchanged when it throws.
    package mutating func set(_ key: String, to value: String) throws(MappingSettingError) {
        guard let field = Self.fieldsByKey[key] else {
            throw MappingSettingError(kind: .unknownKey, key: key, value: value,
                message: "unknown setting \(EchoedValue.quoted(key)); known settings: \(Self.keys.joined(separator: ", "))")
        }
        var changed = self
        try field.parse(&changed, NumberRule.trim(value))
        self = changed
    }

    /// The text form of `key`'s current value (parsable by `set`), or "" for a key
    /// not in `keys`.
    package func value(of key: String) -> String {
        Self.fieldsByKey[key]?.text(self) ?? ""
    }

    fileprivate static func choice<T>(_ key: String, _ value: String, _ allowed: [String],
                                  _ make: (String) -> T?) throws(MappingSettingError) -> T {
        if let t = make(value.lowercased()) { return t }
        throw MappingSettingError(kind: .invalidValue, key: key, value: value,
            message: "\(key): \(EchoedValue.quoted(value)) is not allowed; use one of: \(allowed.joined(separator: ", "))")
    }
}

/// The allowed range of a numeric setting, with its description for messages.
struct NumberRule: Sendable {
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
