import Logging
import Foundation
import RemotionHostLogic
import ServiceLifecycle
import Synchronization
#if os(Linux)
import Glibc
#endif

/// Follows logind's `Active` property of the host's desktop session on the system bus
/// (docs/SECURITY.md §11.4): after a fast user switch the host's session is inactive and another
/// user's is at the screen, so the host stops injecting (every held input released, input
/// dropped) until its session is active again (docs/INJECTION.md, docs/SECURITY.md §11.4).
///
/// The session: `$XDG_SESSION_ID` (logind's `GetSession`), else the one this process is in
/// (`GetSessionByPID`), else the user's graphical session: `GetUser(uid)` and the User's
/// `Display` property, which is what a `systemd --user` service has (no XDG_SESSION_ID, and
/// user@UID.service is in no session). Fails closed: a followed session that is gone, or an
/// empty `Display`, suspends the host until the user's `Display` names an active session
/// (`LogindFollow`, pure). Where logind answers none of this nothing is followed and the host
/// says so once.
///
/// D-Bus through `gdbus` as a subprocess rather than a D-Bus library: one long-lived
/// `gdbus monitor` of logind's signals per host (no privileges: an ordinary match, not
/// BecomeMonitor) and a `gdbus call` per change to read the values, so the host needs no
/// D-Bus binding of its own for a few calls; the replies are parsed by `LogindReplies`
/// (pure). A monitor that exits is started again after 1 s, and the values are read again
/// every 5 s as a backstop for a change missed in between.
package struct LogindSessionWatch: Service {
    let environment: [String: String]
    let onChange: @Sendable (Bool) -> Void
    let logger: Logger

    package init(environment: [String: String], onChange: @escaping @Sendable (Bool) -> Void, logger: Logger) {
        self.environment = environment
        self.onChange = onChange
        self.logger = logger
    }

    package func run() async throws {
        let resolved = await Self.offPool { Self.resolve(environment) }
        guard let follow = resolved.follow else {
            logger.info("desktop session not followed (\(resolved.why)): input is injected whichever user is at the screen")
            try? await gracefulShutdown()
            return
        }
        if let path = follow.path {
            logger.info("following desktop session \(path) (logind): input stops while another user's session is active")
        } else {
            logger.info("following the user's graphical session (logind's Display of \(resolved.user ?? "?")): input stops while it is not the active one")
        }
        let monitor = LogindMonitor(follow: follow, user: resolved.user, onChange: onChange, logger: logger)
        monitor.start()
        // The periodic refresh ends the moment the host stops (its sleep is cancelled), and the
        // monitor child with it. A loop that only looked between its 5 s sleeps kept a stopping
        // host up to 5 s and a refresh longer: a supervisor that gave up and killed the host
        // left `gdbus monitor` running on its own (seen on a loaded machine).
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(5))
                await Self.offPool { monitor.refresh() }
            }
        }
        monitor.stop()
    }

    /// What to follow (the user's object path with it), or why nothing.
    static func resolve(_ environment: [String: String]) -> (follow: LogindFollow?, user: String?, why: String) {
        let byID = LogindReplies.sessionID(environment["XDG_SESSION_ID"]).map { ["org.freedesktop.login1.Manager.GetSession", $0] }
        let session = manager(byID ?? ["org.freedesktop.login1.Manager.GetSessionByPID", "\(getpid())"])
        let user = manager(["org.freedesktop.login1.Manager.GetUser", "\(getuid())"])
        let follow = LogindFollow.initial(session: session.path, user: user.path)
        return (follow, user.path, follow == nil ? session.why : "")
    }

    /// A logind Manager call that answers an object path, or why not.
    static func manager(_ method: [String]) -> (path: String?, why: String) {
        let args = ["call", "--system", "--timeout", "2", "--dest", "org.freedesktop.login1",
                    "--object-path", "/org/freedesktop/login1", "--method"] + method
        guard let reply = DoctorProbes.run("gdbus", args, seconds: 3) else { return (nil, "gdbus is not installed") }
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

/// The `gdbus monitor` child, the last value told and the paths its lines are matched
/// against, behind one Mutex; the session followed (`LogindFollow`) behind another, held for
/// a whole refresh so that the reader thread's and the service's refreshes do not interleave.
final class LogindMonitor: Sendable {
    private struct State {
        var pid: pid_t?
        var last: Bool?
        var watched: [String] = []
        var stopped = false
    }
    let user: String?
    private let onChange: @Sendable (Bool) -> Void
    private let logger: Logger
    private let state = Mutex(State())
    private let follow: Mutex<LogindFollow>

    init(follow: LogindFollow, user: String?, onChange: @escaping @Sendable (Bool) -> Void, logger: Logger) {
        self.follow = Mutex(follow)
        self.user = user
        self.onChange = onChange
        self.logger = logger
        state.withLock { $0.watched = [follow.path, user].compactMap { $0 } }
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

    /// Stops the monitor child (ours, by its pid). SIGKILL: a child inherits the host's ignored
    /// SIGTERM and SIGINT (the service group's signal handling ignores them so that it can read
    /// them), and `gdbus monitor` outlived every host that sent it SIGTERM.
    func stop() {
        let pid = state.withLock { s -> pid_t? in s.stopped = true; return s.pid }
        if let pid { kill(pid, SIGKILL) }
    }

    /// Reads what `LogindFollow` asks for and tells a change of its conclusion.
    func refresh() {
        let (active, before, after) = follow.withLock { f -> (Bool, String?, String?) in
            let before = f.path
            var step = f.start()
            while true {
                switch step {
                case .readDisplay: step = f.display(user.flatMap { get($0, "org.freedesktop.login1.User", "Display") })
                case .readActive(let path): step = f.active(get(path, "org.freedesktop.login1.Session", "Active"))
                case .conclude(let active): return (active, before, f.path)
                }
            }
        }
        let changed = state.withLock { s -> Bool in
            defer { s.last = active }
            s.watched = [after, user].compactMap { $0 }
            return s.last != active && !s.stopped
        }
        if before != after {
            logger.info("\(after.map { "following desktop session \($0) (logind, the user's Display)" } ?? "desktop session gone or none at the screen: input stops until the user's graphical session is active")")
        }
        if changed { onChange(active) }
    }

    /// A property's value as gdbus prints it, nil when the call fails (the object is gone).
    private func get(_ path: String, _ interface: String, _ name: String) -> String? {
        let reply = DoctorProbes.run("gdbus", ["call", "--system", "--timeout", "2", "--dest", "org.freedesktop.login1",
                                               "--object-path", path, "--method", "org.freedesktop.DBus.Properties.Get",
                                               interface, name], seconds: 3)
        guard let reply, reply.status == 0 else { return nil }
        return reply.out
    }

    /// One `gdbus monitor` run of all of logind's signals: the values are read once the match
    /// is in place (the name's owner line) and again at every line that calls for it.
    private func watchOnce() {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // util-linux's setpriv (Essential in Debian) has the kernel kill the child when this
        // thread ends, so a host that is killed leaves no `gdbus monitor` behind.
        let orphanGuard = FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") ? ["setpriv", "--pdeathsig", "KILL"] : []
        process.arguments = orphanGuard + ["gdbus", "monitor", "--system", "--dest", "org.freedesktop.login1"]
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
        if !started { kill(process.processIdentifier, SIGKILL) }
        var pending = ""
        let reader = out.fileHandleForReading
        while true {
            let data = reader.availableData
            if data.isEmpty { break }
            pending += String(decoding: data, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                let line = String(pending[..<newline])
                pending.removeSubrange(...newline)
                if LogindReplies.wantsRefresh(line, watched: state.withLock { $0.watched }) { refresh() }
            }
            if pending.utf8.count > 65_536 { pending = "" }   // a runaway line: not ours to keep
        }
        process.waitUntilExit()
        state.withLock { $0.pid = nil }
    }
}
