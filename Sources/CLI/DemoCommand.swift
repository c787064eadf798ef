import ArgumentParser
import Foundation
import Logging
import RemotionApp
import RemotionNetwork
import RemotionProtocol

struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run a host and a controller in one process over real UDP on loopback and print a summary.")

    @Option(help: "Motion source: synthetic:<still|circle|figure-eight|sweep>[,noise=R][,seed=N] or replay:<file.csv>.")
    var source = "synthetic:figure-eight,noise=0.002"

    @Option(help: "Samples per second.")
    var rate: Double = 120

    @Option(help: "Seconds to stream.")
    var duration: Double = 4

    @Option(name: .customLong("press"), help: "Scripted press BUTTON@START+HOLD (repeatable), e.g. A@1.0+0.5.")
    var presses: [String] = []

    @Flag(help: "Log host events (connections) to stderr.")
    var verbose = false

    @Option(help: "Serve the web dashboard on 127.0.0.1 at this port while the demo runs (watch the cube turn); 0 picks a free port.")
    var dashboard: Int?

    @Option(help: ArgumentHelp("With --dashboard: write the dashboard's port, then its tokened address, to this file (0600) once it serves (for scripts).", visibility: .hidden))
    var portFile: String?

    @Option(help: ArgumentHelp("With --dashboard: save the dashboard's settings and profiles to this config file (as `remotion host` does; for the browser test).", visibility: .hidden))
    var config: String?

    @Option(help: ArgumentHelp("Seconds to wait after the host starts before the controller streams.", visibility: .hidden))
    var wait: Double = 0

    @Option(help: ArgumentHelp("Seconds to keep the host and dashboard up after the controller ends.", visibility: .hidden))
    var linger: Double = 0

    @Flag(help: "Print the summary as one JSON line (latency, packets, pairing).")
    var json = false

    func validate() throws {
        guard rate > 0, rate <= 2000 else { throw ValidationError("--rate must be between 1 and 2000 samples per second") }
        guard duration > 0, duration <= 3600 else { throw ValidationError("--duration must be between 0 and 3600 seconds") }
        guard (0...3600).contains(wait), (0...3600).contains(linger) else { throw ValidationError("--wait and --linger must be between 0 and 3600 seconds") }
        if let port = dashboard, !(0...65535).contains(port) { throw ValidationError("--dashboard must be a port from 0 to 65535") }
    }

    func run() async throws {
        var options = DemoRunner.Options()
        options.source = try SourceLoader.load(source)
        options.sourceName = source
        options.rate = rate
        options.duration = duration
        options.presses = DemoRunner.Options.defaultPresses(duration: duration)
        if !presses.isEmpty {
            do { options.presses = try presses.map(PressScript.parsePress) } catch { throw UserError(error.description) }
        }
        if let late = options.pressesPastTheEnd.first {
            throw UserError("--press \(late.button)@\(late.at)+\(late.hold) ends at \(late.at + late.hold) s, after --duration \(duration); shorten it or stream longer")
        }
        var logger = Logger(label: "remotion.demo")
        logger.logLevel = verbose ? .info : .warning
        let server = DashboardServer()
        if let port = dashboard {
            let publisher = SnapshotPublisher()
            options.publisher = publisher
            let seconds = options.duration
            let portFile = self.portFile, wait = self.wait, config = self.config
            options.onHostReady = { host in
                let save: @Sendable (String, String) throws -> Void = { key, value in
                    if let config { try ConfigFile.setMapping(key: key, value: value, path: config) }
                }
                let bound = try await server.start(host: "127.0.0.1", port: port, publisher: publisher,
                                                   settings: HostLoopSettingsControl(host: HostLoop(host), save: save,
                                                                                     profilesPath: config))
                // The demo's own terminal: the tokened address is printed (writes and the live
                // view need it; docs/SECURITY.md §5.3).
                printErr("remotion demo: dashboard on \(DashboardToken.url(port: bound, token: server.token)) for the next \(seconds) s")
                if let portFile {
                    let url = DashboardToken.url(port: bound, token: server.token)
                    do { try PrivateFiles.replace(portFile, with: Array("\(bound)\n\(url)\n".utf8)) }
                    catch { throw UserError("cannot write --port-file \(portFile): \(error.localizedDescription)") }
                }
                if wait > 0 { try await Task.sleep(for: .seconds(wait)) }
            }
        }
        let result: DemoRunner.Result
        do {
            // Ctrl-C or SIGTERM stop the demo, its key folder in /tmp removed (the runner's
            // `defer`), with the shell's status for that signal.
            switch try await UntilSignalled.run({ [options, logger] in try await DemoRunner.run(options, logger: logger) }) {
            case .finished(let value):
                result = value
            case .signalled(let signal):
                await server.shutdown()
                printErr("remotion demo: stopped by \(signal); its keys are removed")
                throw ExitCode(UntilSignalled<DemoRunner.Result>.exitStatus(signal))
            }
        } catch let error as ExitCode {
            throw error
        } catch {
            await server.shutdown()
            throw error
        }
        if linger > 0 { try? await Task.sleep(for: .seconds(linger)) }
        await server.shutdown()
        print(json ? result.jsonLine() : result.summary(options: options))
        guard result.connected else { throw UserError("the demo controller never connected to its host") }
    }
}
