import Foundation
import RemotionHostLogic

/// Reads the host's TOML config: button map and mapping settings. Any error names
/// the file and line and stops the host before it starts half-configured.
enum ConfigLoader {
    struct Loaded {
        var path: String?
        var buttons: ButtonMap = .seedDefault
        var settings = MappingSettings()
        /// `[[dsu]]` sources, in file order.
        var dsuSources: [DSUSourceConfig] = []
        /// `[gamepad]` (no pad when absent).
        var gamepad = GamepadConfig()
        /// `[local-pads]` (off when absent).
        var localPads = LocalPadsConfig()
        /// `[inject]` (the whole layout when absent).
        var inject = InjectConfig()
        /// `[[profile]]`: the mapping while an application has the focus.
        var profiles = FocusProfiles()
    }

    static func load(explicitPath: String?, environment: [String: String]) throws -> Loaded {
        let path: String
        if let explicitPath {
            path = explicitPath
        } else {
            guard let standard = HostConfig.defaultPath(environment: environment),
                  FileManager.default.fileExists(atPath: standard) else { return Loaded() }
            path = standard
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw UserError("\(path): cannot read the config file (does it exist and is it readable?)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw UserError("\(path): the config file is not UTF-8 text")
        }
        let config: HostConfig
        let settings: MappingSettings
        do {
            config = try HostConfig.parse(text, path: path)
            settings = try config.mappingSettings(path: path)
        } catch { throw UserError("\(error)") }
        return Loaded(path: path, buttons: config.buttons, settings: settings, dsuSources: config.dsuSources,
                      gamepad: config.gamepad, localPads: config.localPads, inject: config.inject, profiles: config.profiles)
    }
}
