/// Reads one line of the TOML subset (see `TOMLSubset`).
struct Cursor {
    private let chars: [Unicode.Scalar]
    private var i = 0
    let path: String
    let line: Int

    init(_ chars: [Unicode.Scalar], path: String, line: Int) {
        self.chars = chars
        self.path = path
        self.line = line
    }

    var peek: Unicode.Scalar? { i < chars.count ? chars[i] : nil }

    func error(_ message: String) -> ConfigError { ConfigError(path: path, line: line, message) }

    mutating func skipSpaces() { while let c = peek, c == " " || c == "\t" { i += 1 } }

    mutating func take(_ c: Unicode.Scalar) -> Bool {
        guard peek == c else { return false }
        i += 1
        return true
    }

    static func isBare(_ c: Unicode.Scalar) -> Bool {
        c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-")
    }

    mutating func bareWord() -> String {
        var s = String.UnicodeScalarView()
        while let c = peek, Self.isBare(c) { s.append(c); i += 1 }
        return String(s)
    }

    /// `[name]` or `[[name]]` (an array-of-tables element); returns the name and which.
    mutating func tableHeader() throws(ConfigError) -> (name: String, isArray: Bool) {
        _ = take("[")
        let isArray = take("[")
        skipSpaces()
        let name = bareWord()
        skipSpaces()
        guard !name.isEmpty, take("]"), !isArray || take("]") else {
            throw error(isArray ? "an array-of-tables header must be a plain name in double brackets, such as [[dsu]]"
                                : "a table header must be a plain name in brackets, such as [buttons]")
        }
        try expectEndOfLine()
        return (name, isArray)
    }

    mutating func key() throws(ConfigError) -> String {
        if peek == "\"" { return try basicString() }
        if peek == "'" { return try literalString() }
        let k = bareWord()
        guard !k.isEmpty else {
            throw error("expected `key = value`, a [table] or a # comment, found \(EchoedValue.quoted(String(String.UnicodeScalarView(chars[i...].prefix(200))))))")
        }
        return k
    }

    mutating func value() throws(ConfigError) -> (String, TOMLSubset.ValueKind) {
        guard let c = peek else { throw error("missing value after `=`") }
        switch c {
        case "\"":
            if chars[i...].starts(with: ["\"", "\"", "\""]) { throw error("multi-line strings are not supported") }
            return (try basicString(), .string)
        case "'":
            if chars[i...].starts(with: ["'", "'", "'"]) { throw error("multi-line strings are not supported") }
            return (try literalString(), .string)
        case "[": throw error("arrays are not supported here; use one key per value")
        case "{": throw error("inline tables are not supported here; use a [table]")
        default:
            var s = String.UnicodeScalarView()
            while let d = peek, d != " ", d != "\t", d != "#" { s.append(d); i += 1 }
            let word = String(s)
            if word == "true" || word == "false" { return (word, .boolean) }
            if let kind = Self.numberKind(word) { return (word, kind) }
            throw error("\(EchoedValue.quoted(word)) is not a value; strings need quotes, e.g. \"\(EchoedValue.text(word))\"")
        }
    }

    mutating func expectEndOfLine() throws(ConfigError) {
        skipSpaces()
        guard let c = peek, c != "#" else { return }
        throw error("unexpected text after the value: \(EchoedValue.quoted(String(String.UnicodeScalarView(chars[i...].prefix(200))))))")
    }

    mutating func literalString() throws(ConfigError) -> String {
        _ = take("'")
        var s = String.UnicodeScalarView()
        while let c = peek {
            i += 1
            if c == "'" { return String(s) }
            s.append(c)
        }
        throw error("string is not closed; add the closing '")
    }

    mutating func basicString() throws(ConfigError) -> String {
        _ = take("\"")
        var s = String.UnicodeScalarView()
        while let c = peek {
            i += 1
            if c == "\"" { return String(s) }
            guard c == "\\" else { s.append(c); continue }
            guard let e = peek else { break }
            i += 1
            switch e {
            case "\"": s.append("\"")
            case "\\": s.append("\\")
            case "b": s.append("\u{8}")
            case "t": s.append("\t")
            case "n": s.append("\n")
            case "f": s.append("\u{c}")
            case "r": s.append("\r")
            case "u", "U":
                let n = e == "u" ? 4 : 8
                guard i + n <= chars.count,
                      let v = UInt32(String(String.UnicodeScalarView(chars[i..<i + n])), radix: 16),
                      let scalar = Unicode.Scalar(v) else {
                    throw error("bad \\\(EchoedValue.text(String(e))) escape; write \\\(EchoedValue.text(String(e))) and \(n) hex digits of a valid code point")
                }
                s.append(scalar)
                i += n
            default:
                throw error("unknown escape \\\(EchoedValue.text(String(e))) in string; use \\\\ for a backslash")
            }
        }
        throw error("string is not closed; add the closing \"")
    }

    /// Decimal integers and floats as TOML writes them (no hex, inf, nan).
    static func numberKind(_ w: String) -> TOMLSubset.ValueKind? {
        var body = Substring(w)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        guard let head = body.first, head.isASCII, head.isNumber else { return nil }
        // Underscores only between digits.
        let scalars = Array(body.unicodeScalars)
        for (k, c) in scalars.enumerated() where c == "_" {
            guard k > 0, k + 1 < scalars.count,
                  ("0"..."9").contains(scalars[k - 1]), ("0"..."9").contains(scalars[k + 1]) else { return nil }
        }
        let plain = body.replacingOccurrences(of: "_", with: "")
        if plain.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return plain.count > 1 && plain.first == "0" ? nil : .integer
        }
        return Double(plain) != nil && !plain.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" })
            ? .float : nil
    }
}

private extension Substring {
    func replacingOccurrences(of a: Character, with b: String) -> String {
        String(self.split(separator: a, omittingEmptySubsequences: false).joined(separator: b))
    }
}
