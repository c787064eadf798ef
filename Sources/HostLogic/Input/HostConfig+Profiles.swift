import RemotionProtocol

extension HostConfig {
    /// The config text with its `[[profile]]` tables replaced by `profiles`: written where the
    /// first one was (appended at the end when there was none), every other line — other
    /// tables, comments, blank lines — as it was. A profile's table is its header through its
    /// last `key = value` line: comments between its keys go with it, the comments after its
    /// last key stay (they introduce what follows), and so do the blank lines unless another
    /// profile or the end of the file follows them.
    ///
    /// Every string is written as a TOML basic string with quotes, backslashes and control
    /// characters escaped, a value bare only where the parser reads the same text back (a
    /// decimal number, true, false), so what it writes parses back to the same profiles.
    package static func updatingProfiles(_ profiles: FocusProfiles, in text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        var kept: [String] = []
        var insertAt: Int?
        var index = 0
        while index < lines.count {
            guard isProfileHeader(lines[index]) else {
                kept.append(lines[index])
                index += 1
                continue
            }
            let first = insertAt == nil
            if first { insertAt = kept.count }
            // The table runs to the next header; it ends at its last key line.
            var end = index + 1
            var lastKey = index
            while end < lines.count, !isHeader(lines[end]) {
                let trimmed = lines[end].trimmingTOMLSpaces()
                if !trimmed.isEmpty, !trimmed.hasPrefix("#") { lastKey = end }
                end += 1
            }
            // The blank lines after its last key go with it when no other table follows, or
            // when a later table that goes leaves a blank line before it already.
            var gap = Array(lines[(lastKey + 1)..<end])
            let nextIsProfileOrEnd = end == lines.count || isProfileHeader(lines[end])
            if nextIsProfileOrEnd, gap.allSatisfy({ $0.trimmingTOMLSpaces().isEmpty }) {
                gap = []
            } else if !first, kept.last.map({ $0.trimmingTOMLSpaces().isEmpty }) ?? true {
                while let blank = gap.first, blank.trimmingTOMLSpaces().isEmpty { gap.removeFirst() }
            }
            kept += gap
            index = end
        }
        var written: [String] = []
        for (i, profile) in profiles.list.enumerated() {
            if i > 0 { written.append("") }
            written += table(of: profile)
        }
        if let at = insertAt {
            kept.insert(contentsOf: written, at: at)
            // No profiles left at the end of the file: no blank lines left behind them either.
            if written.isEmpty, at == kept.count {
                while let last = kept.last, last.trimmingTOMLSpaces().isEmpty { kept.removeLast() }
            }
        } else if !written.isEmpty {
            if let last = kept.last, !last.trimmingTOMLSpaces().isEmpty { kept.append("") }
            kept += written
        } else {
            return text
        }
        return kept.isEmpty ? "" : kept.joined(separator: "\n") + "\n"
    }

    /// One profile's table: the header, `app`, `controller` when it has one, its entries in order.
    static func table(of profile: FocusProfile) -> [String] {
        var out = ["[[profile]]", "app = " + tomlString(profile.app)]
        if let controller = profile.controller { out.append("controller = " + tomlString(controller.rawValue)) }
        for entry in profile.entries {
            // A button's action must be a string; a setting's or pad's number or boolean may be bare.
            let bare = Button(letter: entry.key) == nil
                && (entry.value == "true" || entry.value == "false" || Cursor.numberKind(entry.value) != nil)
            out.append(tomlBareOrQuotedKey(entry.key) + " = " + (bare ? entry.value : tomlString(entry.value)))
        }
        return out
    }

    /// A key bare when the parser reads it bare (A-Z a-z 0-9 _ -), else a basic string.
    static func tomlBareOrQuotedKey(_ key: String) -> String {
        !key.isEmpty && key.unicodeScalars.allSatisfy(Cursor.isBare) ? key : tomlString(key)
    }

    /// A TOML basic string: `"` and `\` escaped, control characters as escapes (no raw line
    /// break can end the line early), everything else as it is.
    static func tomlString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{8}": out += "\\b"
            case "\u{c}": out += "\\f"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    private static func isHeader(_ line: String) -> Bool { line.trimmingTOMLSpaces().hasPrefix("[") }

    private static func isProfileHeader(_ line: String) -> Bool {
        let trimmed = line.trimmingTOMLSpaces()
        guard trimmed.hasPrefix("[[") else { return false }
        return String(trimmed.dropFirst(2).prefix { $0 != "]" }).trimmingTOMLSpaces() == "profile"
    }
}

extension StringProtocol {
    /// Without the spaces and tabs around it (and a line's `\r`), as the TOML subset skips them.
    /// Without the spaces and tabs a TOML line may have around it (and a CRLF line's CR).
    func trimmingTOMLSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed())
    }
}
