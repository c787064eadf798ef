import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `remotion dashboard --start` (the app menu's Remotion entry, packaging/remotion.desktop):
/// a running host's dashboard address, starting the host's user service first when no host
/// serves one. The address file is the host's readiness signal: it writes it once the
/// dashboard listens and removes it when it stops; a file left by a host that died is told
/// apart by nobody listening on its port.
enum DashboardStart {
    /// The service the package and scripts/install.sh install (packaging/remotion-host.service).
    static let unit = "remotion-host.service"

    /// The address in `file` when a dashboard answers on its port, else nil.
    static func servingAddress(_ file: URL) -> String? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let url = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let port = port(of: url), listening(port: port) else { return nil }
        return url
    }

    /// Starts the user service and waits up to `timeout` seconds for its dashboard; the
    /// address, or a line that says what to do.
    static func startHost(file: URL, timeout: Double) -> Result<String, UserError> {
        // Its words go to a file, not a pipe: what it starts may inherit a pipe's write end
        // and keep a reader waiting for an end of file that never comes. posix_spawn and
        // waitpid rather than Foundation's Process, whose exit watch missed a systemctl that
        // had started something in the background.
        let errorsPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("remotion-systemctl-\(getpid()).err").path
        defer { unlink(errorsPath) }
        let command = ["systemctl", "--user", "start", unit]
        guard let status = run(command, errorsTo: errorsPath) else {
            return .failure(UserError("no host runs, and systemctl could not be started (is systemd installed?): start one with `remotion host`"))
        }
        let said = (try? String(contentsOfFile: errorsPath, encoding: .utf8)) ?? ""
        guard status == 0 else {
            let first = said.split(separator: "\n").first.map(String.init) ?? "exit \(status)"
            return .failure(UserError("no host runs, and `systemctl --user start \(unit)` failed (\(first)): start one with `remotion host`"))
        }
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let url = servingAddress(file) { return .success(url) }
            usleep(100_000)
        }
        return .failure(UserError("started \(unit), but its dashboard did not come up within \(Int(timeout)) s: "
                                  + "see `journalctl --user -u \(unit)` (with --no-dashboard there is none)"))
    }

    /// Runs `argv` (looked up on PATH) with no input or output and its errors in the file at
    /// `errorsPath` (0600); its exit status, or nil when it could not start or did not exit.
    static func run(_ argv: [String], errorsTo errorsPath: String) -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorsPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let environment = ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        var cArgs = argv.map { strdup($0) } + [nil]
        var cEnv = environment.map { strdup($0) } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, argv[0], &actions, nil, &cArgs, &cEnv) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { return nil }
        }
        // WIFEXITED / WEXITSTATUS: a signal's death is not an exit status.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : nil
    }

    /// The port of `http://127.0.0.1:PORT/…`.
    static func port(of url: String) -> Int? {
        guard let rest = url.split(separator: "127.0.0.1:", maxSplits: 1).dropFirst().first else { return nil }
        return Int(rest.prefix { $0.isNumber }).flatMap { (1...65535).contains($0) ? $0 : nil }
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port`.
    static func listening(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return rc == 0
    }
}
