/// A problem in the host configuration file: names the file, the line and what
/// to fix, e.g. `config.toml:7: button "Q" is not a button; use A to P`.
public struct ConfigError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    /// 1-based line number; 0 when the problem is not tied to a line.
    public var line: Int
    public var message: String

    public init(path: String, line: Int, _ message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String { line > 0 ? "\(path):\(line): \(message)" : "\(path): \(message)" }
}
