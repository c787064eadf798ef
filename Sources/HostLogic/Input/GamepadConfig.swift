/// config.toml's `[gamepad]` (docs/GAMEPAD.md):
///
///     [gamepad]
///     pad = "dualsense"        # or "dualsense-usb", or "none" (the default)
///     for = "every"            # every controller gets one (the default), or "asked": only
///                              # those that ask (the page's Gamepad mode, the dashboard)
///     gyro = "right-stick"     # or "none" (the default): gyro as the right stick
///     stick-rate = 360         # °/s that mean full deflection
///     undeadzone-inner = 0.1   # jump past the game's inner deadzone (0…1)
///     undeadzone-outer = 0.0   # stop short of its outer deadzone (0…1)
///     unpower = 1              # undo the game's stick power curve (its exponent)
///
/// The stick settings are the host profile's default gyro stick (`HostConfig.mappingSettings`
/// makes them `gyro_stick.*`); `[mapping]` and a session's own profile may change them.
package struct GamepadConfig: Hashable, Sendable {
    /// Each controller's virtual pad (nil: none).
    package var pad: DualSenseBus?
    /// Every controller gets its pad at connect (true), or only those that ask for one.
    package var forEvery = true
    /// Gyro as the right stick (nil: off), the host profile's `gyro_stick.*` unless `[mapping]` sets them.
    package var gyroStick: GyroStick?

    package init(pad: DualSenseBus? = nil, gyroStick: GyroStick? = nil) {
        self.pad = pad
        self.gyroStick = gyroStick
    }

    static let keys = ["pad", "for", "gyro", "stick-rate", "undeadzone-inner", "undeadzone-outer", "unpower"]

    /// The table's entries, checked together (the stick's settings only with gyro = "right-stick").
    static func parse(_ entries: [TOMLSubset.Entry], path: String) throws(ConfigError) -> GamepadConfig {
        var config = GamepadConfig()
        var gyroLine: Int?
        var numbers: [String: (Float, Int)] = [:]
        for entry in entries {
            func fail(_ text: String) -> ConfigError { ConfigError(path: path, line: entry.line, "[gamepad] " + text) }
            switch entry.key {
            case "pad":
                switch entry.kind == .string ? entry.value : "" {
                case "dualsense": config.pad = .bluetooth
                case "dualsense-usb": config.pad = .usb
                case "none": config.pad = nil
                default: throw fail("pad must be \"dualsense\", \"dualsense-usb\" or \"none\"")
                }
            case "for":
                switch entry.kind == .string ? entry.value : "" {
                case "every": config.forEvery = true
                case "asked": config.forEvery = false
                default: throw fail("for must be \"every\" (each controller gets a pad) or \"asked\" (those that ask for one)")
                }
            case "gyro":
                switch entry.kind == .string ? entry.value : "" {
                case "right-stick": gyroLine = entry.line
                case "none": gyroLine = nil
                default: throw fail("gyro must be \"right-stick\" or \"none\"")
                }
            case "stick-rate", "undeadzone-inner", "undeadzone-outer", "unpower":
                guard entry.kind == .integer || entry.kind == .float,
                      let value = Float(entry.value.replacingOccurrences(of: "_", with: "")), value.isFinite else {
                    throw fail("\(entry.key) must be a number")
                }
                numbers[entry.key] = (value, entry.line)
            default:
                throw fail("has no key \(EchoedValue.quoted(entry.key)); its keys are \(keys.joined(separator: ", "))")
            }
        }
        guard gyroLine != nil else {
            if let (_, line) = numbers.values.min(by: { $0.1 < $1.1 }) {
                throw ConfigError(path: path, line: line, "[gamepad] the stick settings need gyro = \"right-stick\"")
            }
            return config
        }
        let stick = GyroStick(fullRate: numbers["stick-rate"]?.0 ?? 360, undeadzoneInner: numbers["undeadzone-inner"]?.0 ?? 0,
                              undeadzoneOuter: numbers["undeadzone-outer"]?.0 ?? 0, unpower: numbers["unpower"]?.0 ?? 1)
        if let problem = GyroStick.problem(fullRate: stick.fullRate, inner: stick.undeadzoneInner,
                                           outer: stick.undeadzoneOuter, unpower: stick.unpower) {
            throw ConfigError(path: path, line: numbers.values.map(\.1).max() ?? gyroLine ?? 1, "[gamepad] " + problem)
        }
        config.gyroStick = stick
        return config
    }
}
