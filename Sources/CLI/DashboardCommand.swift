import ArgumentParser
import Foundation
import RemotionApp

/// `remotion dashboard`: opens the running host's dashboard with this start's token
/// (docs/DASHBOARD.md). The host keeps the tokened address in $XDG_RUNTIME_DIR, 0600: only
/// its own user can read it, so only that user's browser can change settings or pair a phone
/// through the dashboard; and the page is opened only when the server on that port proves it
/// holds the token (docs/SECURITY.md §5.3, "The launcher").
struct DashboardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dashboard",
        abstract: "Open the running host's web dashboard (with the token its settings and pairing need).")

    @Flag(help: "Only print the address (with its token); do not start a browser. Without a display this is what it does.")
    var print = false

    @Option(help: "Key directory of the host (default: $XDG_DATA_HOME/remotion, i.e. ~/.local/share/remotion).")
    var dataDir: String?

    @Flag(help: "When no host runs, start its user service (systemctl --user start remotion-host) and wait for its dashboard. The app menu's Remotion entry does this.")
    var start = false

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let data = dataDirectory(dataDir, environment: environment)
        guard let runtime = DashboardLaunchFile.directory(environment: environment),
              let file = DashboardAddressFile.path(dataDirectory: data, environment: environment) else {
            throw UserError("\(DashboardAddressFile.noRuntimeDirectory): the host keeps its dashboard's address there; "
                            + "run this in the host's login session")
        }
        let url: String
        switch DashboardStart.find(file) {
        case .serving(let serving):
            url = serving
        case .impostor(let port):
            throw DashboardStart.impostorError(port: port)
        case .none where start:
            url = try DashboardStart.startHost(file: file, runtimeDirectory: runtime, timeout: 30).get()
        case .none:
            throw UserError("no running host serves a dashboard for \(data.path) "
                            + "(start `remotion host`, or `remotion dashboard --start` for its user service; with --no-dashboard there is none)")
        }
        let opening = !print && (environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil)
        guard opening else { Swift.print(url); return }
        // Never the tokened address on a command line (/proc/PID/cmdline is world-readable):
        // the browser gets a 0600 page in XDG_RUNTIME_DIR that sends it on (docs/SECURITY.md §5.3).
        let page: String
        do {
            guard let directory = DashboardLaunchFile.directory(environment: environment) else {
                throw DashboardLaunchFile.Failure.noRuntimeDirectory
            }
            DashboardLaunchFile.removeStale(directory: directory, now: Date())
            page = try DashboardLaunchFile.write(url: url, directory: directory)
        } catch {
            Swift.print(url)
            throw UserError("not starting a browser: \(error)")
        }
        let opener = Process()
        opener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        opener.arguments = DashboardLaunchFile.openerArguments(page: page)
        opener.standardOutput = FileHandle.nullDevice
        opener.standardError = FileHandle.nullDevice
        do { try opener.run() } catch {
            unlink(page)
            Swift.print(url)
            throw UserError("cannot start a browser (xdg-open: \(error.localizedDescription)); open the address above")
        }
        Swift.print("remotion dashboard: opening the dashboard in the browser (\(url.split(separator: "#").first ?? ""))")
        DashboardLaunchFile.removeOnceRead(page)
    }
}
