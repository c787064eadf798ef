import Foundation
import RemotionHostLogic
import ServiceLifecycle
import Synchronization
#if os(Linux)
import Glibc
#endif

/// Follows logind's `Active` property of the host's own desktop session on the system bus
/// (issue 25 item 10): after a fast user switch the host's session is inactive and another
/// user's is at the screen, so the host stops injecting (every held input released, input
/// dropped) until its session is active again (docs/INJECTION.md, docs/SECURITY.md §11.4).
///
/// The session: `$XDG_SESSION_ID` (logind's `GetSession`), else the one this process is in
/// (`GetSessionByPID`). Where there is none (no logind, not started from a login session)
/// nothing is followed and the host says so once.
///
/// D-Bus through `gdbus` as a subprocess rather than a D-Bus library: one long-lived
/// `gdbus monitor` per host (signals of one object, no privileges: an ordinary match, not
/// BecomeMonitor) and a `gdbus call` per change to read the value, so the host needs no
/// D-Bus binding of its own for three calls; the replies are parsed by `LogindReplies`
/// (pure). A monitor that exits is started again after 1 s, and the value is read again
/// every 5 s as a backstop for a change missed in between.
package struct LogindSessionWatch: Service {
    let environment: [String: String]
    let onChange: @Sendable (Bool) -> Void
    let say: @Sendable (String) -> Void

    package init(environment: [String: String], onChange: @escaping @Sendable (Bool) -> Void,
                 say: @escaping @Sendable (String) -> Void) {
        self.environment = environment
        self.onChange = onChange
        self.say = say
    }

    package func run() async throws {
        let resolved = await Self.offPool { Self.sessionPath(environment) }
        guard let path = resolved.path else {
            say("desktop session not followed (\(resolved.why)): input is injected whichever user is at the screen")
            try? await gracefulShutdown()
            return
        }
        say("following desktop session \(path) (logind): input stops while another user's session is active")
        let monitor = LogindMonitor(path: path, onChange: onChange)
        monitor.start()
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            try? await Task.sleep(for: .seconds(5))
            await Self.offPool { monitor.refresh() }
        }
        monitor.stop()
    }

    /// The session's object path, or why there is none.
    static func sessionPath(_ environment: [String: String]) -> (path: String?, why: String) {
        let manager = ["call", "--system", "--timeout", "2", "--dest", "org.freedesktop.login1",
                       "--object-path", "/org/freedesktop/login1", "--method"]
        let reply: (status: Int32, out: String, err: String)?
        if let id = LogindReplies.sessionID(environment["XDG_SESSION_ID"]) {
            reply = DoctorProbes.run("gdbus", manager + ["org.freedesktop.login1.Manager.GetSession", id], seconds: 3)
        } else {
            reply = DoctorProbes.run("gdbus", manager + ["org.freedesktop.login1.Manager.GetSessionByPID", "\(getpid())"], seconds: 3)
        }
        guard let reply else { return (nil, "gdbus is not installed") }
        guard reply.status == 0, let path = LogindReplies.objectPath(reply.out) else {
            let first = reply.err.split(separator: "\n").first.map(String.init) ?? "no reply"
            return (nil, "logind has no session for this host: \(first)")
        }
        return (path, "")
    }

    static func offPool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { c in DispatchQueue.global().async { c.resume(returning: body()) } }
    }
}

/// The `gdbus monitor` child and the last value told. All state behind one Mutex; the
/// reader thread and the service's task both go through it.
final class LogindMonitor: Sendable {
    private struct State {
        var pid: pid_t?
        var last: Bool?
        var stopped = false
    }
    let path: String
    private let onChange: @Sendable (Bool) -> Void
    private let state = Mutex(State())

    init(path: String, onChange: @escaping @Sendable (Bool) -> Void) {
        self.path = path
        self.onChange = onChange
    }

    /// Starts the monitor on a thread of its own (it blocks reading the child's output).
    func start() {
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopped }) {
                watchOnce()
                if !state.withLock({ $0.stopped }) { sleep(1) }
            }
        }
        thread.name = "logind-watch"
        thread.start()
    }

    /// Stops the monitor child (ours, by its pid).
    func stop() {
        let pid = state.withLock { s -> pid_t? in s.stopped = true; return s.pid }
        if let pid { kill(pid, SIGTERM) }
    }

    /// Reads `Active` now and tells a change.
    func refresh() {
        let reply = DoctorProbes.run("gdbus", ["call", "--system", "--timeout", "2", "--dest", "org.freedesktop.login1",
                                               "--object-path", path, "--method", "org.freedesktop.DBus.Properties.Get",
                                               "org.freedesktop.login1.Session", "Active"], seconds: 3)
        guard let reply, reply.status == 0, let active = LogindReplies.boolean(reply.out) else { return }
        let changed = state.withLock { s -> Bool in
            defer { s.last = active }
            return s.last != active && !s.stopped
        }
        if changed { onChange(active) }
    }

    /// One `gdbus monitor` run: the value is read once the match is in place (the name's
    /// owner line) and again at every PropertiesChanged of the session.
    private func watchOnce() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gdbus", "monitor", "--system", "--dest", "org.freedesktop.login1", "--object-path", path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return }
        let started = state.withLock { s -> Bool in
            guard !s.stopped else { return false }
            s.pid = process.processIdentifier
            return true
        }
        if !started { kill(process.processIdentifier, SIGTERM) }
        var pending = ""
        let reader = out.fileHandleForReading
        while true {
            let data = reader.availableData
            if data.isEmpty { break }
            pending += String(decoding: data, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                let line = String(pending[..<newline])
                pending.removeSubrange(...newline)
                if LogindReplies.isOwned(line) || LogindReplies.isPropertiesChanged(line, path: path) { refresh() }
            }
            if pending.utf8.count > 65_536 { pending = "" }   // a runaway line: not ours to keep
        }
        process.waitUntilExit()
        state.withLock { $0.pid = nil }
    }
}
