/// `[inject]` in config.toml (docs/INJECTION.md): what the injector aims at.
///
///     [inject]
///     output = "HEADLESS-2"   # the Wayland output the pointer covers (as --output; `remotion doctor` lists them)
///
/// `--output` on the command line wins over the file.
package struct InjectConfig: Sendable, Hashable {
    package var output: String?

    package init(output: String? = nil) { self.output = output }

    static let keys = ["output"]
    /// An output name as compositors spell them ("DP-1", "HEADLESS-2", "eDP-1"): at most 63 bytes.
    static let maximumNameBytes = 63

    /// Whether `name` may be an output's name: 1 to 63 bytes, no spaces, no control characters
    /// (the file's rule, and the dashboard's before it writes the file).
    package static func isOutputName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= maximumNameBytes
            && name.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
    }

    /// What a name that breaks `isOutputName` is told.
    package static let nameRule = "[inject] output must be a quoted output name such as \"DP-1\" (`remotion doctor` lists them)"

    static func parse(_ entries: [TOMLSubset.Entry], path: String) throws(ConfigError) -> InjectConfig {
        var config = InjectConfig()
        for entry in entries {
            guard keys.contains(entry.key) else {
                throw ConfigError(path: path, line: entry.line,
                                  "[inject] has no key \(EchoedValue.quoted(entry.key)); its keys are \(keys.joined(separator: ", "))")
            }
            guard entry.kind == .string, isOutputName(entry.value) else {
                throw ConfigError(path: path, line: entry.line, nameRule)
            }
            config.output = entry.value
        }
        return config
    }
}
