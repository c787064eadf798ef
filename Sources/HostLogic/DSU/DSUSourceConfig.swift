import RemotionProtocol

/// One DSU server the host reads controllers from: `--dsu ADDR[:PORT]` or a
/// `[[dsu]]` table in config.toml (docs/DSU.md):
///
///     [[dsu]]
///     address = "192.168.1.20"      # port 26760 unless given
///     home = "P"                    # button overrides: DSU button = Remotion letter or "none"
///     l3 = "none"
///
///     [[dsu]]
///     address = "192.168.1.21:26761"
package struct DSUSourceConfig: Hashable, Sendable {
    package var endpoint: DSUEndpoint
    package var buttonTable: DSUButtonTable
    /// Where it came from, for messages: "--dsu" or "config.toml:12".
    package var origin: String

    package init(endpoint: DSUEndpoint, buttonTable: DSUButtonTable = .default, origin: String) {
        self.endpoint = endpoint
        self.buttonTable = buttonTable
        self.origin = origin
    }

    /// One `key = value` of a `[[dsu]]` element.
    package typealias RawEntry = ConfigEntry

    /// Validates one `[[dsu]]` element; errors name the file and line and say what to write.
    package static func parse(_ entries: [RawEntry], headerLine: Int, path: String) throws(ConfigError) -> DSUSourceConfig {
        var endpoint: DSUEndpoint?
        var table = DSUButtonTable.default
        for e in entries {
            guard e.quoted else {
                throw ConfigError(path: path, line: e.line, "[[dsu]] \(e.key) needs a quoted value, e.g. \(e.key) = \"\(e.value)\"")
            }
            if e.key == "address" {
                do { endpoint = try DSUEndpoint.source(e.value) } catch {
                    throw ConfigError(path: path, line: e.line, "[[dsu]] address: \(error.message)")
                }
                continue
            }
            do { try table.set(e.key, to: e.value) } catch {
                throw ConfigError(path: path, line: e.line, "[[dsu]] \(error.message)")
            }
        }
        guard let endpoint else {
            throw ConfigError(path: path, line: headerLine,
                              "[[dsu]] needs an address, e.g. address = \"192.168.1.20:26760\"")
        }
        return DSUSourceConfig(endpoint: endpoint, buttonTable: table, origin: "\(path):\(headerLine)")
    }
}
