#if os(Linux)
import Foundation
import Glibc
import RemotionTestSupport

/// Child processes for the tests, started with posix_spawn and an EMPTY signal mask.
///
/// Foundation's Process is not used: children inherit the blocked-signal mask of the spawning
/// thread (Swift's worker threads block SIGTERM), so `terminate()` would not stop them, and
/// its exit detection waits for inherited descriptors that forked daemons keep open.
enum Spawn {
    /// Starts `arguments` with stdout+stderr appended to `logPath`; returns the pid.
    static func start(_ arguments: [String], logPath: String = "/dev/null") throws -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGCHLD] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        let cArguments = arguments.map { strdup($0) } + [nil]
        defer { for pointer in cArguments { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, cArguments, environ)
        guard result == 0 else {
            throw LabError(message: "cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        return pid
    }

    /// Waits for `pid` up to `timeout`; returns its exit status, nil if still running.
    static func wait(_ pid: pid_t, timeout: Duration) -> Int32? {
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f) }
            if result < 0 { return -1 }
            if ContinuousClock.now >= deadline { return nil }
            usleep(5_000)
        }
    }

    /// SIGTERM, then SIGKILL after 3 s; reaps the child.
    static func stop(_ pid: pid_t) {
        kill(pid, SIGTERM)
        if wait(pid, timeout: .seconds(3)) == nil {
            kill(pid, SIGKILL)
            _ = wait(pid, timeout: .seconds(3))
        }
    }

    /// `body` on a thread of its own, awaited: a wait that blocks (a child's whole run, up to
    /// its timeout) must not hold one of the concurrency pool's threads. On 2 cores the pool has
    /// 2; two avahi-browse runs of 10 s held both while the whole suite ran beside them, and a
    /// pairing test's confirmer task waited more than 30 s for its turn (under a second CPU load).
    static func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await RemotionTestSupport.offPool(body)
    }

    /// Runs to completion (bounded by `timeout`) and returns the output; throws on failure.
    /// `accepting`: the exit statuses that are not an error (`timeout`'s 124 for a command
    /// that is meant to run until it is stopped).
    static func run(_ arguments: [String], timeout: Duration = .seconds(30), accepting: Set<Int32> = [0]) throws -> String {
        let log = "\(Lab.stateDir)/spawn-\(UUID().uuidString).log"
        try FileManager.default.createDirectory(atPath: Lab.stateDir, withIntermediateDirectories: true)
        defer { unlink(log) }
        let pid = try start(arguments, logPath: log)
        let status = wait(pid, timeout: timeout)
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard let status else {
            stop(pid)
            throw LabError(message: "\(arguments.joined(separator: " ")) timed out:\n\(output)")
        }
        guard accepting.contains(status) else {
            throw LabError(message: "\(arguments.joined(separator: " ")) exited \(status):\n\(output)")
        }
        return output
    }
}
#endif
