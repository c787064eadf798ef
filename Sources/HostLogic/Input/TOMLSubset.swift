/// A strict parser for the small subset of TOML the host config uses. Anything
/// outside the subset is an error with a line number, never silently accepted.
///
/// Subset (each line is one of):
///   - blank, or a comment starting with `#`
///   - a table header `[name]` with a bare name (A-Z a-z 0-9 _ -); no dotted or
///     quoted headers; a table may appear once
///   - an array-of-tables header `[[name]]`: each one starts a new element (the
///     host config's `[[dsu]]` sources); a name is either `[name]` or `[[name]]`
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
        /// Which `[[table]]` element (0-based) the entry is in; nil in a plain table.
        var element: Int?
        var key: String
        /// The string's contents, or the literal text of a number / boolean.
        var value: String
        var kind: ValueKind
        var line: Int
    }

    struct Document: Sendable {
        /// Table names in the order they appear, with their header line; an
        /// array-of-tables name once per element, with the element's index.
        var tables: [(name: String, line: Int, element: Int?)] = []
        var entries: [Entry] = []
    }

    static func parse(_ text: String, path: String) throws(ConfigError) -> Document {
        var doc = Document()
        var table: String?
        var element: Int?
        var seenKeys: Set<[String?]> = []
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, raw) in lines.enumerated() {
            let lineNumber = index + 1
            var cursor = Cursor(Array((raw.last == "\r" ? raw.dropLast() : raw).unicodeScalars),
                                path: path, line: lineNumber)
            cursor.skipSpaces()
            guard let first = cursor.peek, first != "#" else { continue }
            if first == "[" {
                let (name, isArray) = try cursor.tableHeader()
                let earlier = doc.tables.filter { $0.name == name }
                if let e = earlier.first, (e.element != nil) != isArray {
                    throw cursor.error("[\(EchoedValue.text(name))] and [[\(EchoedValue.text(name))]] both appear; use one form")
                }
                if !isArray, !earlier.isEmpty {
                    throw cursor.error("table [\(EchoedValue.text(name))] appears twice; merge the two into one")
                }
                element = isArray ? earlier.count : nil
                doc.tables.append((name, lineNumber, element))
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
                guard seenKeys.insert([table, element.map { "\($0)" }, key]).inserted else {
                    let place = table.map { element == nil ? " in [\(EchoedValue.text($0))]" : " in this [[\(EchoedValue.text($0))]]" } ?? ""
                    throw cursor.error("key \(EchoedValue.quoted(key)) is set twice\(place); keep one")
                }
                doc.entries.append(Entry(table: table, element: element, key: key, value: value, kind: kind,
                                         line: lineNumber))
            }
        }
        return doc
    }
}

/// One `key = value` of a config table as the tables' own parsers read it (`[mapping]`, each
/// `[[dsu]]` element): `value` is a string's contents or the literal text of a number or
/// boolean; `quoted` tells which; `line` is for error messages.
package struct ConfigEntry: Sendable, Hashable {
    package var key: String
    package var value: String
    package var line: Int
    package var quoted: Bool
    package init(key: String, value: String, line: Int, quoted: Bool) {
        self.key = key; self.value = value; self.line = line; self.quoted = quoted
    }

    init(_ entry: TOMLSubset.Entry) {
        self.init(key: entry.key, value: entry.value, line: entry.line, quoted: entry.kind == .string)
    }
}
