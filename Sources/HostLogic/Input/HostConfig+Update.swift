extension HostConfig {
    /// The config text with `[mapping] key = value` set: an existing line for the key is
    /// replaced in place (comments and everything else stay as they were), else the
    /// line is added to the `[mapping]` table, which is created at the end if missing.
    /// Dotted setting names are written as quoted keys ("pointer.fov_x" = 40), which
    /// is TOML for a single key.
    package static func updatingMapping(key: String, value: String, in text: String) -> String {
        let line = "\(tomlBareOrQuotedKey(key)) = \(tomlValue(value))"
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var table: String?
        var mappingHeader: Int?
        var lastInMapping: Int?
        for (i, raw) in lines.enumerated() {
            let trimmed = raw.trimmingTOMLSpaces()
            if trimmed.hasPrefix("[") {
                table = String(trimmed.dropFirst().prefix { $0 != "]" }).trimmingTOMLSpaces()
                if table == "mapping" { mappingHeader = i; lastInMapping = i }
                continue
            }
            guard table == "mapping", !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            lastInMapping = i
            if keyOf(trimmed) == key {
                lines[i] = line
                return lines.joined(separator: "\n") + "\n"
            }
        }
        if let after = lastInMapping, mappingHeader != nil {
            lines.insert(line, at: after + 1)
        } else {
            if let last = lines.last, !last.trimmingTOMLSpaces().isEmpty { lines.append("") }
            lines += ["[mapping]", line]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func keyOf(_ line: String) -> String? {
        guard let eq = line.firstIndex(of: "=") else { return nil }
        var k = line[..<eq].trimmingTOMLSpaces()
        if k.count >= 2, k.first == "\"" || k.first == "'", k.last == k.first { k = String(k.dropFirst().dropLast()) }
        return k
    }

    static func tomlValue(_ value: String) -> String {
        if value == "true" || value == "false" { return value }
        if Double(value) != nil, value.first != "+", !value.lowercased().contains("n"), !value.lowercased().contains("i") {
            return value
        }
        return tomlString(value)
    }
}

