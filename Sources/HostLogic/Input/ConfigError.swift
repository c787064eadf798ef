/// A problem in the host configuration file: names the file, the line and what
/// to fix, e.g. `config.toml:7: button "Q" is not a button; use A to P`.
package struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    package var path: String
    /// 1-based line number; 0 when the problem is not tied to a line.
    package var line: Int
    package var message: String

    package init(path: String, line: Int, _ message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    /// Control characters in the path or message are escaped (`EchoedValue`): nothing
    /// from the file reaches the terminal raw.
    package var description: String {
        EchoedValue.escapingControls(line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)")
    }
}
