/// How one session turns controller motion into pointer output. Every field has a
/// dotted key (see `MappingSettings.keys`) for the config file and the dashboard.
package struct MappingSettings: Sendable, Equatable, Hashable, Codable {
    package enum Mode: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        /// Absolute, Wiimote-like: where the controller points is where the pointer is.
        case pointer
        /// Relative gyro mouse for games (JoyShockMapper / GyroWiki style).
        case fps
        /// The seed article's MotionInjector (absolute position plus roll turning).
        case seed
    }

    package var mode: Mode = .pointer
    /// Global multiplier applied by every mode (the seed's sensitivityRatio).
    package var sensitivity: Double = 1
    package var pointer = PointerSettings()
    package var fps = FPSSettings()
    package var seed = SeedSettings()
    package var filterSettings = FilterSettings()
    /// Gyro calibration, the rest gate and the accelerometer's sign (raw sensors).
    package var sensors = SensorSettings()
    /// The phone page's touchpad: speed, acceleration, scroll step (docs/WEB-CONTROLLER.md).
    package var touchpad = TouchpadMapper.Settings()
    /// Flick stick in FPS mode: a controller's stick turns the camera (docs/GAMEPAD.md).
    package var flick = FlickSettings()
    /// Gyro as a stick of the session's virtual pad, in every mode (docs/GAMEPAD.md).
    package var gyroStick = GyroStickSettings()

    package init() {}

    /// The host-side attitude filter, built from `filterSettings`.
    package var filter: MotionFilter {
        get {
            switch filterSettings.kind {
            case .none: .none
            case .lowPass: .lowPass(factor: filterSettings.factor)
            case .oneEuro: .oneEuro(minCutoff: filterSettings.minCutoff, beta: filterSettings.beta,
                                    dCutoff: filterSettings.dCutoff)
            }
        }
        set {
            switch newValue {
            case .none:
                filterSettings.kind = .none
            case .lowPass(let factor):
                filterSettings.kind = .lowPass
                filterSettings.factor = factor
            case let .oneEuro(minCutoff, beta, dCutoff):
                filterSettings.kind = .oneEuro
                filterSettings.minCutoff = minCutoff
                filterSettings.beta = beta
                filterSettings.dCutoff = dCutoff
            }
        }
    }
}

/// Pointer (absolute) mode.
package struct PointerSettings: Sendable, Equatable, Hashable, Codable {
    /// Degrees of yaw that span the screen width (divided by `sensitivity`).
    package var fovX: Double = 40
    /// Degrees of pitch that span the screen height (divided by `sensitivity`).
    package var fovY: Double = 25
    /// Roll (radians) beyond which the centre drifts ("center setter", seed: 0.2).
    package var rollThreshold: Double = 0.2
    /// Centre drift per update per radian of roll beyond the threshold (seed: 1/100).
    package var driftRate: Double = 0.01
    package init() {}
}

/// FPS (relative gyro mouse) mode. Rates are in degrees per second.
package struct FPSSettings: Sendable, Equatable, Hashable, Codable {
    package enum Calibration: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        /// `degreesPerScreen` degrees of controller rotation move one screen width.
        case screen
        /// Output counts = in-game degrees · `countsPer360` / 360 (the game's mouse
        /// counts for a full turn), so sensitivity 1 turns the camera 1:1 with the controller.
        case counts
    }

    package var calibration: Calibration = .screen
    package var degreesPerScreen: Double = 30
    package var countsPer360: Double = 3600
    /// Sensitivity at or below `slowThreshold`.
    package var slowSensitivity: Double = 1
    /// Sensitivity at or above `fastThreshold`; linear in between (acceleration).
    package var fastSensitivity: Double = 2
    package var slowThreshold: Double = 20
    package var fastThreshold: Double = 120
    /// Below this speed motion is scaled by speed/tightening (0 disables).
    package var tightening: Double = 1
    /// Soft-tiered smoothing: fully smoothed below threshold/2, fully direct at and
    /// above the threshold, blended in between (0 disables).
    package var smoothThreshold: Double = 8
    /// The length of the smoothing average, seconds.
    package var smoothWindow: Double = 0.1
    /// How the gyro's three axes become yaw and pitch (JoyShockMapper GYRO_SPACE).
    package var space: GyroSpace = .player
    /// When gyro aiming is engaged (JoyShockMapper GYRO_ON / GYRO_OFF).
    package var clutch: GyroClutch.Mode = .always
    package init() {}
}

/// How a controller's gyro is calibrated and read (docs/MOTION.md, "Raw sensors").
package struct SensorSettings: Sendable, Equatable, Hashable, Codable {
    /// `calibration.mode`: continuous (whenever still), manual (on request) or off.
    package var calibrationMode: GyroCalibrator.Mode = .continuous
    /// `calibration.rest_gate`: zero output while the controller is still.
    package var restGate = true
    /// `calibration.duration`: seconds a requested calibration averages (hold still).
    package var calibrationDuration: Double = 3
    /// `sensors.accelerometer`: which way a resting accelerometer reads +1 g.
    package var accelerometer: RawMotionPipeline.AccelerometerConvention = .up
    package init() {}
}

/// Seed (MotionInjector) mode.
package struct SeedSettings: Sendable, Equatable, Hashable, Codable {
    /// kMotionInjectorTurn: pixels per update per radian of roll beyond ±0.06.
    package var turn: Double = 20
    /// Degrees of yaw spanning the screen width at sensitivity 1 (pitch uses the
    /// same pixels per degree).
    package var yawSpan: Double = 60
    package init() {}
}

/// The host-side attitude filter's parameters (all kept, whichever kind is active,
/// so config keys may come in any order).
package struct FilterSettings: Sendable, Equatable, Hashable, Codable {
    package enum Kind: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        case none
        case lowPass = "lowpass"
        case oneEuro = "oneeuro"
    }
    package var kind: Kind = .none
    package var factor: Double = 0.3
    package var minCutoff: Double = 1.0
    package var beta: Double = 0.1
    package var dCutoff: Double = 1.0
    package init() {}
}

/// Flick stick (`FlickStick`, docs/GAMEPAD.md "Flick stick"), FPS mode only: a full turn is
/// `fps.counts_per_360` counts (the game's own, not scaled by `sensitivity`).
package struct FlickSettings: Sendable, Equatable, Hashable, Codable {
    package enum Stick: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        case off, right, left
    }
    /// Which of the controller's sticks flicks (off: none).
    package var stick: Stick = .off
    /// Seconds a flick takes (JSM's FLICK_TIME).
    package var time: Double = 0.1
    /// Stick magnitude (0…1) that starts a flick.
    package var threshold: Double = 0.9
    /// Degrees either side of straight ahead where a push does not flick.
    package var forwardDeadzone: Double = 0
    package var snap: FlickStick.Snap = .none

    /// The flick stick these settings make, or nil when off.
    package func make(countsPer360: Double) -> FlickStick? {
        guard stick != .off else { return nil }
        return FlickStick(FlickStick.Settings(
            countsPerTurn: Float(countsPer360), flickTime: .nanoseconds(Int64(time * 1e9)),
            threshold: Float(threshold), forwardDeadzoneDegrees: Float(forwardDeadzone), snap: snap))
    }
}

/// Gyro as a stick of the session's virtual pad (`GyroStick`, docs/GAMEPAD.md "Gyro as the
/// right stick"), with `--gamepad` only and in every mode: the controller's turning rate
/// deflects the pad stick `target` names. A profile carries it like any mapping setting,
/// so a session's new profile switches it at once.
package struct GyroStickSettings: Sendable, Equatable, Hashable, Codable {
    package enum Target: String, Sendable, Equatable, Hashable, Codable, CaseIterable {
        case off, right, left
    }
    /// Which of the pad's sticks the gyro deflects (off: none).
    package var target: Target = .off
    /// The rate (°/s) that means full deflection (JSM's VIRTUAL_STICK_CALIBRATION).
    package var rate: Double = 360
    /// Where the output starts (0…0.99), past the game's inner deadzone.
    package var undeadzoneInner: Double = 0
    /// How far short of full it stops (0…0.99); inner and outer together less than 1.
    package var undeadzoneOuter: Double = 0
    /// The game's stick power curve (its exponent), undone; 1 or less: none.
    package var unpower: Double = 1

    package init() {}

    /// `[gamepad] gyro = "right-stick"` and its stick settings as mapping settings (the
    /// host's profile starts from them, docs/GAMEPAD.md).
    package init(_ stick: GyroStick) {
        target = Target(rawValue: stick.side.rawValue) ?? .right
        // Through the text, so a Float's 0.15 stays 0.15 and not 0.15000000596046448.
        func exact(_ f: Float) -> Double { Double("\(f)") ?? Double(f) }
        rate = exact(stick.fullRate)
        undeadzoneInner = exact(stick.undeadzoneInner)
        undeadzoneOuter = exact(stick.undeadzoneOuter)
        unpower = exact(stick.unpower)
    }

    /// The pad's gyro stick these settings make, or nil when off.
    package var stick: GyroStick? {
        guard let side = GamepadStickSide(rawValue: target.rawValue) else { return nil }   // off
        return GyroStick(fullRate: Float(rate), undeadzoneInner: Float(undeadzoneInner),
                         undeadzoneOuter: Float(undeadzoneOuter), unpower: Float(unpower), side: side)
    }
}
