/// What `gdbus` prints for the few logind calls the host makes to follow its desktop
/// session (docs/SECURITY.md §11.4; the adapter is `LogindSessionWatch`). Pure parsers: a reply
/// that does not parse is nil, never a guess.
package enum LogindReplies {
    /// `(objectpath '/org/freedesktop/login1/session/_32',)` → the path.
    package static func objectPath(_ reply: String) -> String? {
        let t = reply.trimmingSpaces
        guard t.hasPrefix("(objectpath '"), t.hasSuffix("',)") else { return nil }
        return loginPath(String(t.dropFirst("(objectpath '".count).dropLast("',)".count)))
    }

    /// `(<('c2', objectpath '/org/freedesktop/login1/session/c2')>,)` (Properties.Get of a
    /// User's `Display`, a (so)) → the session's path. Nil when the user has no graphical
    /// session (`('', objectpath '/')`) or the reply does not parse.
    package static func displaySession(_ reply: String) -> String? {
        let t = reply.trimmingSpaces
        guard t.count > 9, t.hasPrefix("(<('"), t.hasSuffix("')>,)") else { return nil }
        let inner = t.dropFirst(4).dropLast(5)   // c2', objectpath '/org/…
        guard let middle = inner.range(of: "', objectpath '"), sessionID(String(inner[..<middle.lowerBound])) != nil else { return nil }
        return loginPath(String(inner[middle.upperBound...]))
    }

    /// A logind object path (letters, digits, `_`, `/` under /org/freedesktop/login1/), else nil.
    static func loginPath(_ path: String) -> String? {
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

    /// Whether a `gdbus monitor` line (of all of logind's objects) calls for reading again:
    /// the name got its owner, a PropertiesChanged of an object in `watched` (the session,
    /// the user), or a session came or went (the Manager's SessionNew, SessionRemoved).
    package static func wantsRefresh(_ line: String, watched: [String]) -> Bool {
        isOwned(line) || watched.contains { isPropertiesChanged(line, path: $0) }
            || line.hasPrefix("/org/freedesktop/login1: org.freedesktop.login1.Manager.Session")
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

/// Which logind session the host follows and what one refresh concludes (sans-IO; the
/// adapter is `LogindSessionWatch`). The adapter asks logind what a `Step` names and hands
/// the reply back (nil: the call failed) until `.conclude`. Fails closed: a followed session
/// that is gone (its Active cannot be read) or a user with no graphical session (an empty
/// `Display`) concludes inactive, and from then on the session is the user's `Display`,
/// read again at every refresh, until an active one is found.
package struct LogindFollow: Sendable, Equatable {
    package enum Step: Sendable, Equatable {
        /// Properties.Get of the user's `Display`.
        case readDisplay
        /// Properties.Get of this session's `Active`.
        case readActive(String)
        /// Inject (true) or suspend (false).
        case conclude(Bool)
    }

    /// The session followed now; nil when there is none (gone, or no graphical session).
    package private(set) var path: String?
    /// The session is the user's `Display` (read at every refresh), not a fixed one.
    package private(set) var viaDisplay: Bool

    /// What to follow at start: the host's own session (`$XDG_SESSION_ID`, else its
    /// process's), else the user's graphical session (a `systemd --user` service has no
    /// session of its own), else nothing (no logind, or no such user there).
    package static func initial(session: String?, user: String?) -> LogindFollow? {
        if let session { return LogindFollow(path: session, viaDisplay: false) }
        return user == nil ? nil : LogindFollow(path: nil, viaDisplay: true)
    }

    /// The first question of a refresh.
    package func start() -> Step {
        if !viaDisplay, let path { return .readActive(path) }
        return .readDisplay
    }

    /// The reply to `.readDisplay`.
    package mutating func display(_ reply: String?) -> Step {
        guard let session = reply.flatMap(LogindReplies.displaySession) else {
            path = nil
            return .conclude(false)
        }
        path = session
        return .readActive(session)
    }

    /// The reply to `.readActive`: a session whose Active cannot be read is gone.
    package mutating func active(_ reply: String?) -> Step {
        if let active = reply.flatMap(LogindReplies.boolean) { return .conclude(active) }
        path = nil
        if viaDisplay { return .conclude(false) }
        viaDisplay = true
        return .readDisplay
    }
}

private extension String {
    var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
