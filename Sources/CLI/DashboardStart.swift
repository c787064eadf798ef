import Foundation
import RemotionApp
import RemotionHostLogic
import RemotionNetwork
#if canImport(Glibc)
import Glibc
#endif

/// `remotion dashboard --start` (the app menu's Remotion entry, packaging/remotion.desktop):
/// a running host's dashboard address, starting the host's user service first when no host
/// serves one. The address file (`DashboardAddressFile`, in $XDG_RUNTIME_DIR) is the host's
/// readiness signal: it writes it once the dashboard listens and removes it when it stops.
/// A file left by a host that died names a port that nobody, or somebody else, listens on:
/// only a server that proves it holds the address's token (`DashboardProbe`) is opened.
enum DashboardStart {
    /// The service the package and scripts/install.sh install (packaging/remotion-host.service).
    static let unit = "remotion-host.service"

    /// What the address file leads to.
    enum Found: Equatable {
        /// No file, or nothing listens on its port: no host serves a dashboard.
        case none
        /// This host's dashboard, at this address.
        case serving(String)
        /// Something listens on the file's port but is not the dashboard the file names.
        case impostor(port: Int)
    }

    /// The address in `file` when its dashboard answers with the proof of its token.
    static func find(_ file: String) -> Found {
        guard let url = DashboardAddressFile.read(file) else { return .none }
        guard let port = DashboardAddressFile.parse(url)?.port else { return .none }   // not a host's: it rewrites it
        switch DashboardProbe.check(url: url) {
        case .ours: return .serving(url)
        case .nobody: return .none
        case .other: return .impostor(port: port)
        }
    }

    /// The one line for a server that did not prove it is the dashboard.
    static func impostorError(port: Int) -> UserError {
        UserError("not opening the dashboard: what listens on 127.0.0.1 port \(port) (from its address file) is not this host's dashboard "
                  + "(it did not prove it holds the token; another program or user may hold the port): "
                  + "restart the host (`remotion host`, or `systemctl --user restart \(unit)`)")
    }

    /// Starts the user service and waits up to `timeout` seconds for its dashboard; the
    /// address, or a line that says what to do. systemctl's errors go to a file of our own
    /// in `runtimeDirectory` (mkstemp, 0600, unlinked at once; read back through its descriptor).
    static func startHost(file: String, runtimeDirectory: String, timeout: Double) -> Result<String, UserError> {
        // Its words go to a file, not a pipe: what it starts may inherit a pipe's write end
        // and keep a reader waiting for an end of file that never comes. posix_spawn and
        // waitpid rather than Foundation's Process, whose exit watch missed a systemctl that
        // had started something in the background.
        guard let errors = privateFile(in: runtimeDirectory, prefix: "systemctl-") else {
            return .failure(UserError("cannot make a file in \(runtimeDirectory) for systemctl's errors: start the host with `remotion host`"))
        }
        defer { close(errors) }
        let command = ["systemctl", "--user", "start", unit]
        guard let status = run(command, errorsTo: errors) else {
            return .failure(UserError("no host runs, and systemctl could not be started (is systemd installed?): start one with `remotion host`"))
        }
        guard status == 0 else {
            let said = String(decoding: readAll(errors, limit: 4096), as: UTF8.self)
            let first = said.split(separator: "\n").first.map { TextFormat.sanitize(String($0)) } ?? "exit \(status)"
            return .failure(UserError("no host runs, and `systemctl --user start \(unit)` failed (\(first)): start one with `remotion host`"))
        }
        let deadline = Date().addingTimeInterval(timeout)
        var last = Found.none
        while Date() < deadline {
            last = find(file)
            if case .serving(let url) = last { return .success(url) }
            usleep(100_000)
        }
        if case .impostor(let port) = last { return .failure(impostorError(port: port)) }
        return .failure(UserError("started \(unit), but its dashboard did not come up within \(Int(timeout)) s: "
                                  + "see `journalctl --user -u \(unit)` (with --no-dashboard there is none)"))
    }

    /// A new file `directory/prefixXXXXXX` (made 0700 first), opened close-on-exec and
    /// already unlinked: nobody can guess, replace or read it. Its descriptor, or nil.
    static func privateFile(in directory: String, prefix: String) -> Int32? {
        guard (try? PrivateFiles.prepareDirectory(directory)) != nil else { return nil }
        var template = Array((directory + "/" + prefix + "XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }

    /// Up to `limit` bytes of the file behind `fd`, from its start.
    static func readAll(_ fd: Int32, limit: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: limit)
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, limit, 0) }
        return n > 0 ? Array(bytes[0..<n]) : []
    }

    /// Runs `argv` (looked up on PATH) with no input or output and its errors into `errors`
    /// (a descriptor); its exit status, or nil when it could not start or did not exit.
    static func run(_ argv: [String], errorsTo errors: Int32) -> Int32? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, errors, 2)
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
}
