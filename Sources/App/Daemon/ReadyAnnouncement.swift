import ServiceLifecycle

/// Gives the host's readiness record (`--ready-file`, and the `--json` event) once the host
/// would also act on SIGINT, SIGTERM and SIGHUP.
///
/// ServiceGroup registers its signal sources before it starts any service, and a signal that
/// reaches the process before that registration is lost on Linux (libdispatch's handler is
/// already installed, its source not yet listening): a host told "ready" in `start` and
/// interrupted at once ran on forever, 7 times in 20 (`scripts/cli-e2e.sh` hung on it in CI).
/// Written from a service's `run`, the record means what a script reading it needs: every
/// port listens *and* a signal stops the host gracefully.
struct ReadyAnnouncement: Service {
    let ready: HostReady
    let path: String?
    let json: Bool
    let console: HostConsole

    func run() async throws {
        if let path {
            do { try ready.write(to: path) } catch { throw HostStartError("cannot write --ready-file: \(error)") }
        }
        if json { console.event(ready.json) }
        try? await gracefulShutdown()
    }
}
