/// A strict parser for the small subset of TOML the host config uses. Anything
/// outside the subset is an error with a line number, never silently accepted.
///
/// Subset (each line is one of):
///   - blank, or a comment starting with `#`
///   - a table header `[name]` with a bare name (A-Z a-z 0-9 _ -); no dotted,
///     quoted or array-of-tables (`[[x]]`) headers; a table may appear once
///   - `key = value`, key bare or a "basic string"; value one of
///       "basic string" (escapes \" \\ \b \t \n \f \r \uXXXX \UXXXXXXXX),
///       'literal string', integer (decimal, optional sign, `_` between digits),
///       float (decimal with `.` and/or exponent), `true`, `false`
///   - any of the above followed by a `# comment`
/// Not supported (reported as such): arrays, inline tables, multi-line strings,
/// dates and times, dotted keys, hex/octal/binary integers, inf/nan.
/// Keys must be unique within a table.
struct TOMLSubset {
    enum ValueKind: Sendable, Hashable { case string, integer, float, boolean }

    struct Entry: Sendable, Hashable {
        var table: String?
        var key: String
        /// The string's contents, or the literal text of a number / boolean.
        var value: String
        var kind: ValueKind
        var line: Int
    }

    struct Document: Sendable {
        /// Table names in the order they appear, with their header line.
        var tables: [(name: String, line: Int)] = []
        var entries: [Entry] = []
    }

    static func parse(_ text: String, path: String) throws(ConfigError) -> Document {
        var doc = Document()
        var table: String?
        var seenKeys: Set<[String?]> = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            let lineNumber = index + 1
            var cursor = Cursor(Array((raw.last == "\r" ? raw.dropLast() : raw).unicodeScalars),
                                path: path, line: lineNumber)
            cursor.skipSpaces()
            guard let first = cursor.peek, first != "#" else { continue }
            if first == "[" {
                let name = try cursor.tableHeader()
                if doc.tables.contains(where: { $0.name == name }) {
                    throw cursor.error("table [\(EchoedValue.text(name))] appears twice; merge the two into one")
                }
                doc.tables.append((name, lineNumber))
                table = name
            } else {
                let key = try cursor.key()
                cursor.skipSpaces()
                guard cursor.take("=") else {
                    throw cursor.error(cursor.peek == "." ? "dotted keys are not supported; write the key in its table"
                                                          : "expected `=` after key \(EchoedValue.quoted(key))")
                }
                cursor.skipSpaces()
                let (value, kind) = try cursor.value()
                try cursor.expectEndOfLine()
                guard seenKeys.insert([table, key]).inserted else {
                    throw cursor.error("key \(EchoedValue.quoted(key)) is set twice\(table.map { " in [\(EchoedValue.text($0))]" } ?? ""); keep one")
                }
                doc.entries.append(Entry(table: table, key: key, value: value, kind: kind, line: lineNumber))
            }
        }
        return doc
    }
}
