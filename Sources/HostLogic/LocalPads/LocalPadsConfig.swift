/// config.toml's `[local-pads]` (docs/LOCAL-PADS.md):
///
///     [local-pads]
///     enabled = true      # read the motion sensors of gamepads plugged into this computer
///     grab = false        # EVIOCGRAB: only Remotion sees the pads (a game does not see them twice)
///
/// `remotion host --local-pads` turns it on too; `--local-pads-grab` grabs.
package struct LocalPadsConfig: Hashable, Sendable {
    package var enabled = false
    package var grab = false

    package init(enabled: Bool = false, grab: Bool = false) {
        self.enabled = enabled
        self.grab = grab
    }

    static let keys = ["enabled", "grab"]

    static func parse(_ entries: [TOMLSubset.Entry], path: String) throws(ConfigError) -> LocalPadsConfig {
        var config = LocalPadsConfig()
        for entry in entries {
            guard keys.contains(entry.key) else {
                throw ConfigError(path: path, line: entry.line,
                                  "[local-pads] has no key \(EchoedValue.quoted(entry.key)); its keys are \(keys.joined(separator: ", "))")
            }
            guard entry.kind == .boolean, let value = ["true": true, "false": false][entry.value] else {
                throw ConfigError(path: path, line: entry.line, "[local-pads] \(entry.key) must be true or false")
            }
            if entry.key == "enabled" { config.enabled = value } else { config.grab = value }
        }
        return config
    }
}
