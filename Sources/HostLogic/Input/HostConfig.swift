import RemotionProtocol

/// The host configuration file (`config.toml`, see docs/INJECTION.md):
///
///     [buttons]            # overrides of the seed's default button map
///     A = "left"
///     G = "key:ctrl+shift+i"
///     H = "wheel:up"
///     I = "action:recenter"
///     P = "none"
///
///     [mapping]            # motion mapping settings, kept raw for the mapper
///     sensitivity = 1.5
///
///     [gamepad]            # a virtual gamepad per controller (GamepadConfig, docs/GAMEPAD.md)
///     pad = "dualsense"    # or "dualsense-usb", or "none"
///     gyro = "right-stick" # gyro as the right stick, for games that read no gyro
///
///     [inject]             # what the injector aims at (InjectConfig, docs/INJECTION.md)
///     output = "DP-1"      # the Wayland output the pointer covers
///
///     [local-pads]         # gamepads plugged into this computer as controllers (docs/LOCAL-PADS.md)
///     enabled = true
///     grab = false
///
///     [[dsu]]              # a DSU (cemuhook) server to read controllers from, one table each
///     address = "192.168.1.20:26760"
///     home = "P"           # DSU button overrides (docs/DSU.md)
///
///     [[profile]]          # while an application has the focus (FocusProfile, docs/MOTION.md)
///     app = "beta"
///     mode = "fps"
///
/// Unknown tables, unknown keys and bad values are errors naming file and line.
package struct HostConfig: Sendable, Hashable {
    /// One raw `[mapping]` setting.
    package typealias MappingEntry = ConfigEntry

    /// The seed's default map with the file's `[buttons]` entries applied.
    package var buttons: ButtonMap
    /// The `[mapping]` entries in file order, unvalidated.
    package var mapping: [MappingEntry]
    /// The `[[dsu]]` sources in file order, validated.
    package var dsuSources: [DSUSourceConfig]
    /// `[gamepad]`: each controller's virtual pad and gyro as its right stick (none when absent).
    package var gamepad = GamepadConfig()
    /// `[local-pads]`: the gyro of gamepads plugged in here (off when absent).
    package var localPads = LocalPadsConfig()
    /// `[inject]`: the output the pointer covers (the whole layout when absent).
    package var inject = InjectConfig()
    /// `[[profile]]`: the mapping while an application has the focus, in file order.
    package var profiles = FocusProfiles()

    package init(buttons: ButtonMap = .seedDefault, mapping: [MappingEntry] = [], dsuSources: [DSUSourceConfig] = []) {
        self.buttons = buttons
        self.mapping = mapping
        self.dsuSources = dsuSources
    }

    package static let tables = ["buttons", "mapping", "gamepad", "local-pads", "inject"]
    /// Tables written `[[name]]`, one element per source.
    package static let arrayTables = ["dsu", "profile"]

    /// Parses the file's text; `path` is only used in error messages.
    package static func parse(_ text: String, path: String) throws(ConfigError) -> HostConfig {
        let doc = try TOMLSubset.parse(text, path: path)
        for (name, line, element) in doc.tables {
            if element != nil, !arrayTables.contains(name) {
                throw ConfigError(path: path, line: line, tables.contains(name)
                    ? "[[\(name)]] is a single table; write [\(name)]"
                    : "unknown table [[\(EchoedValue.text(name))]]; the lists of tables are [[dsu]] and [[profile]]")
            }
            if element == nil, !tables.contains(name) {
                throw ConfigError(path: path, line: line, arrayTables.contains(name)
                    ? "write [[\(name)]] (double brackets), one table each"
                    : "unknown table [\(EchoedValue.text(name))]; use [buttons], [mapping], [gamepad], [local-pads], [inject], [[dsu]] or [[profile]]")
            }
        }
        var config = HostConfig()
        var dsu: [Int: [DSUSourceConfig.RawEntry]] = [:]
        var profiles: [Int: [ConfigEntry]] = [:]
        for entry in doc.entries {
            switch entry.table {
            case nil:
                throw ConfigError(path: path, line: entry.line,
                                  "\(EchoedValue.quoted(entry.key)) is outside any table; put it under [buttons] or [mapping]")
            case "dsu":
                dsu[entry.element ?? 0, default: []].append(ConfigEntry(entry))
            case "profile":
                profiles[entry.element ?? 0, default: []].append(ConfigEntry(entry))
            case "gamepad", "local-pads", "inject":
                continue   // checked together below
            case "buttons":
                guard let button = Button(letter: entry.key) else {
                    throw ConfigError(path: path, line: entry.line, "button \(EchoedValue.quoted(entry.key)) is not a button; use A to P")
                }
                guard entry.kind == .string else {
                    throw ConfigError(path: path, line: entry.line,
                                      "button \(button) needs a quoted action such as \"left\" or \"key:Left\"")
                }
                switch ButtonAction.parse(entry.value) {
                case .success(let action): config.buttons[button] = action
                case .failure(let e): throw ConfigError(path: path, line: entry.line, "button \(button): \(e.message)")
                }
            default:
                config.mapping.append(ConfigEntry(entry))
            }
        }
        config.gamepad = try GamepadConfig.parse(doc.entries.filter { $0.table == "gamepad" }, path: path)
        config.localPads = try LocalPadsConfig.parse(doc.entries.filter { $0.table == "local-pads" }, path: path)
        config.inject = try InjectConfig.parse(doc.entries.filter { $0.table == "inject" }, path: path)
        for (name, line, element) in doc.tables where name == "dsu" {
            config.dsuSources.append(try DSUSourceConfig.parse(dsu[element ?? 0] ?? [], headerLine: line, path: path))
        }
        for (name, line, element) in doc.tables where name == "profile" {
            config.profiles.list.append(try FocusProfile.parse(profiles[element ?? 0] ?? [], headerLine: line, path: path))
        }
        return config
    }

    /// The host profile's mapping settings: `[gamepad]`'s gyro stick first (`gyro = "right-stick"`
    /// and its stick settings are the host's default `gyro_stick.*`, docs/GAMEPAD.md), then the
    /// `[mapping]` entries in file order, so a `gyro_stick.*` key there wins. A bad entry is
    /// one line naming the file, its line and the key.
    package func mappingSettings(path: String) throws(ConfigError) -> MappingSettings {
        var settings = MappingSettings()
        if let stick = gamepad.gyroStick { settings.gyroStick = GyroStickSettings(stick) }
        for entry in mapping {
            do throws(MappingSettingError) {
                try settings.set(entry.key, to: entry.value)
            } catch {
                throw ConfigError(path: path, line: entry.line, "[mapping] \(error)")
            }
        }
        return settings
    }

    /// Where the host looks for its config: `$XDG_CONFIG_HOME/remotion/config.toml`
    /// (when set to an absolute path, as the XDG spec requires), else
    /// `$HOME/.config/remotion/config.toml`; nil when neither variable helps.
    package static func defaultPath(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return join(xdg, "remotion/config.toml")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return join(home, ".config/remotion/config.toml")
        }
        return nil
    }

    private static func join(_ dir: String, _ rest: String) -> String {
        dir.hasSuffix("/") ? dir + rest : dir + "/" + rest
    }
}
