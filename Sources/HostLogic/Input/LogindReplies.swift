/// What `gdbus` prints for the few logind calls the host makes to follow its desktop
/// session (issue 25 item 10; the adapter is `LogindSessionWatch`). Pure parsers: a reply
/// that does not parse is nil, never a guess.
package enum LogindReplies {
    /// `(objectpath '/org/freedesktop/login1/session/_32',)` → the path.
    package static func objectPath(_ reply: String) -> String? {
        let t = reply.trimmingSpaces
        guard t.hasPrefix("(objectpath '"), t.hasSuffix("',)") else { return nil }
        let path = String(t.dropFirst("(objectpath '".count).dropLast("',)".count))
        guard path.hasPrefix("/org/freedesktop/login1/"), path.count <= 256,
              path.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "/") }) else { return nil }
        return path
    }

    /// `(<true>,)` / `(<false>,)` (Properties.Get of a boolean) → the value.
    package static func boolean(_ reply: String) -> Bool? {
        switch reply.trimmingSpaces {
        case "(<true>,)": true
        case "(<false>,)": false
        default: nil
        }
    }

    /// Whether a `gdbus monitor` line is a PropertiesChanged of the object at `path`.
    package static func isPropertiesChanged(_ line: String, path: String) -> Bool {
        line.hasPrefix(path + ": org.freedesktop.DBus.Properties.PropertiesChanged")
    }

    /// Whether a `gdbus monitor --dest` line says the name has an owner: printed after a
    /// round trip on the monitor's connection, so its signal match is in place by then.
    package static func isOwned(_ line: String) -> Bool {
        line.hasPrefix("The name org.freedesktop.login1 is owned by ")
    }

    /// The session id when it is a plain logind id (letters, digits), else nil.
    package static func sessionID(_ text: String?) -> String? {
        guard let t = text, !t.isEmpty, t.count <= 64, t.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return t
    }
}

private extension String {
    var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
