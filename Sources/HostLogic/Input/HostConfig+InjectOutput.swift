extension HostConfig {
    /// The config text with `[inject] output = "NAME"` (the output the dashboard chose): an
    /// existing `output` line under `[inject]` gets the new value in place (its indentation
    /// and a comment after it kept), else the line is added at the end of the `[inject]`
    /// table, which is added at the end of the file if there is none. Every other line stays
    /// as it was. A name `InjectConfig` would refuse in the file is refused here (`path`
    /// names the file in the error), so what is written always reads back as `name`.
    package static func updatingInjectOutput(_ name: String, in text: String, path: String) throws(ConfigError) -> String {
        guard InjectConfig.isOutputName(name) else { throw ConfigError(path: path, line: 0, InjectConfig.nameRule) }
        let value = tomlString(name)
        // By scalar: "\r\n" is one Character, so a file with CRLF lines would be one line.
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { String(String.UnicodeScalarView($0)) }
        if lines.last == "" { lines.removeLast() }
        var inInject = false
        var lastInInject: Int?
        for (i, raw) in lines.enumerated() {
            let trimmed = raw.trimmingTOMLSpaces()
            if trimmed.hasPrefix("[") {
                // `[[profile]]` and the like are arrays of tables, never `[inject]`.
                inInject = !trimmed.hasPrefix("[[") && trimmed.dropFirst().prefix { $0 != "]" }.trimmingTOMLSpaces() == "inject"
                if inInject { lastInInject = i }
                continue
            }
            guard inInject, !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            lastInInject = i
            if keyOf(trimmed) == "output" {
                lines[i] = replacingValue(in: raw, with: value)
                return lines.joined(separator: "\n") + "\n"
            }
        }
        let line = "output = \(value)"
        if let after = lastInInject {
            lines.insert(line, at: after + 1)
        } else {
            if let last = lines.last, !last.trimmingTOMLSpaces().isEmpty { lines.append("") }
            lines += ["[inject]", line]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `line` (`key = OLD  # comment`) with its value replaced by `value`: what stands before
    /// the `=` and after the old value (spaces, a comment, a carriage return) is kept.
    static func replacingValue(in line: String, with value: String) -> String {
        // By scalar, as the parser reads: a quote with a combining mark after it is still a quote.
        let c = Array(line.unicodeScalars)
        guard let eq = c.firstIndex(of: "=") else { return "output = \(value)" }
        var i = eq + 1
        while i < c.count, c[i] == " " || c[i] == "\t" { i += 1 }
        var end = i
        if i < c.count, c[i] == "\"" || c[i] == "'" {
            let quote = c[i]
            end = i + 1
            while end < c.count, c[end] != quote {
                // A basic string's escape: the next scalar is part of it (\" does not end it).
                end += quote == "\"" && c[end] == "\\" ? 2 : 1
            }
            end = min(end + 1, c.count)
        } else {
            // Not a string (the file would not have loaded): the value runs to a comment or the end.
            while end < c.count, c[end] != "#", c[end] != "\r" { end += 1 }
            while end > i, c[end - 1] == " " || c[end - 1] == "\t" { end -= 1 }
        }
        var out = String.UnicodeScalarView(c[..<eq])
        out.append(contentsOf: "= \(value)".unicodeScalars)
        out.append(contentsOf: c[end...])
        return String(out)
    }
}
