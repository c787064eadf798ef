import Foundation
import Logging
import RemotionHostLogic
import Synchronization

/// Where `remotion host` says things. With the terminal view, nothing may write to the
/// terminal behind the view's back: the host's facts (injector and why, dashboard,
/// discovery, …) are shown inside the view, the log injector's lines and log messages as
/// its last few events, and the closing line after the view closed. Without the view
/// (piped, `--json`) each fact is one stderr line, the injected events go to stdout.
/// Every fact and log message is one line without control characters (`TextFormat.sanitize`)
/// on either path: names from outside (a phone's, a controller's, a pad's) cannot move the
/// cursor or retitle the terminal from a log line.
package final class HostConsole: Sendable {
    /// The facts, in the order the view lists them; a new fact on a topic replaces the old.
    package enum Topic: Int, CaseIterable, Sendable, Comparable {
        case listening, injector, config, dashboard, discovery, control, pairing

        package static func < (a: Topic, b: Topic) -> Bool { a.rawValue < b.rawValue }
    }

    package let interactive: Bool
    /// How many injected lines and log messages the view keeps.
    package static let recentLimit = 3

    private struct State {
        var notes: [Topic: String] = [:]
        var recent: [String] = []
        var closing: [String] = []
        var viewClosed = false
    }
    private let state = Mutex(State())
    private let out: @Sendable (String) -> Void
    private let err: @Sendable (String) -> Void

    package init(interactive: Bool,
                 stdout: @escaping @Sendable (String) -> Void = StandardStreams.out,
                 stderr: @escaping @Sendable (String) -> Void = StandardStreams.err) {
        self.interactive = interactive
        out = stdout
        err = stderr
    }

    /// A fact about the host: inside the view, or "remotion host: TEXT" on stderr.
    package func note(_ topic: Topic, _ text: String) {
        let text = TextFormat.sanitize(text)
        if interactive {
            state.withLock { $0.notes[topic] = text }
        } else {
            err("remotion host: \(text)\n")
        }
    }

    /// What the host says once, not a standing fact: a `Logger` whose messages come here
    /// (`ConsoleLogHandler`): "remotion host: TEXT" on stderr, or among the view's last events.
    /// The one way the host's parts speak to a person (no closures of their own).
    package func logger(label: String = "remotion.host") -> Logger {
        var logger = Logger(label: label) { ConsoleLogHandler(label: $0, console: self) }
        logger.logLevel = .info
        return logger
    }

    /// A machine-readable line on stdout (the ready record, the pairing link when piped);
    /// never while the view owns the terminal.
    package func event(_ line: String) {
        guard !interactive else { return }
        out(line + "\n")
    }

    /// The loud `--insecure` banner, on stderr before anything else (the view is not open yet).
    package func warnInsecure() {
        err(InsecureWarning.text(role: "host") + "\n")
    }

    /// Complete lines from the log injector (each ending in "\n").
    package func injected(_ text: String) {
        guard interactive else { return out(text) }
        remember(text.split(separator: "\n").map(String.init))
    }

    /// A status event without the view (a JSON line on stderr: controller connected, …).
    package func statusLine(_ line: String) {
        err(line + "\n")
    }

    /// A log message (swift-log), already formatted.
    package func message(_ line: String) {
        let line = TextFormat.sanitize(line)
        guard interactive else { return err(line + "\n") }
        remember([line])
    }

    /// The host's last words: after the view closed (at once without a view).
    package func finally(_ line: String) {
        let line = TextFormat.sanitize(line)
        let now = state.withLock { s -> Bool in
            if !interactive || s.viewClosed { return true }
            s.closing.append(line)
            return false
        }
        if now { err(line + "\n") }
    }

    /// The view closed (the terminal is the shell's again): print what waited for it.
    package func viewClosed() {
        let lines = state.withLock { s -> [String] in
            s.viewClosed = true
            defer { s.closing.removeAll() }
            return s.closing
        }
        for line in lines { err(line + "\n") }
    }

    /// The facts in display order.
    package var notes: [String] { state.withLock { s in s.notes.sorted { $0.key < $1.key }.map(\.value) } }

    /// The last injected lines and log messages, oldest first.
    package var recent: [String] { state.withLock { $0.recent } }

    private func remember(_ lines: [String]) {
        state.withLock { s in
            s.recent += lines
            if s.recent.count > Self.recentLimit { s.recent.removeFirst(s.recent.count - Self.recentLimit) }
        }
    }
}

/// swift-log into the console: "info remotion.host: controller connected session=…".
package struct ConsoleLogHandler: LogHandler {
    package var logLevel: Logger.Level = .info
    package var metadata: Logger.Metadata = [:]
    let label: String
    let console: HostConsole

    package init(label: String, console: HostConsole) {
        self.label = label
        self.console = console
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// "remotion host: MESSAGE key=value…", the level named when it is not info or notice
    /// ("remotion host: warning: …").
    package func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        let fields = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let who = label.replacingOccurrences(of: ".", with: " ")
        let level = event.level == .info || event.level == .notice ? "" : "\(event.level): "
        console.message("\(who): \(level)\(event.message)\(fields.isEmpty ? "" : " " + fields)")
    }
}

/// What `--insecure` means, said loudly by the host and the client.
package enum InsecureWarning {
    package static func text(role: String) -> String {
        """
        ************************************************************************
        remotion \(role): --insecure: PLAIN, UNAUTHENTICATED DATAGRAMS.
        Anyone who can reach this port can inject mouse and keyboard input,
        and anyone on the network can read the motion and buttons.
        Use only for debugging on a trusted network.
        ************************************************************************
        """
    }
}
