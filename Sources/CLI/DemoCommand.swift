import ArgumentParser
import Logging
import RemotionApp
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

    @Option(help: "Serve the web dashboard on 127.0.0.1 at this port while the demo runs (watch the cube turn).")
    var dashboard: Int?

    func validate() throws {
        guard rate > 0, rate <= 2000 else { throw ValidationError("--rate must be between 1 and 2000 samples per second") }
        guard duration > 0, duration <= 3600 else { throw ValidationError("--duration must be between 0 and 3600 seconds") }
    }

    func run() async throws {
        var options = DemoRunner.Options()
        options.source = try SourceLoader.load(source)
        options.sourceName = source
        options.rate = rate
        options.duration = duration
        if !presses.isEmpty {
            do { options.presses = try presses.map(PressScript.parsePress) } catch { throw UserError(error.description) }
        }
        var logger = Logger(label: "remotion.demo")
        logger.logLevel = verbose ? .info : .warning
        let server = DashboardServer()
        if let port = dashboard {
            let publisher = SnapshotPublisher()
            options.publisher = publisher
            let seconds = options.duration
            options.onHostReady = { host in
                let bound = try await server.start(host: "127.0.0.1", port: port, publisher: publisher,
                                                   settings: HostLoopSettingsControl(host: host))
                printErr("remotion demo: dashboard on http://127.0.0.1:\(bound)/ for the next \(seconds) s")
            }
        }
        let result: DemoRunner.Result
        do {
            result = try await DemoRunner.run(options, logger: logger)
        } catch {
            await server.shutdown()
            throw error
        }
        await server.shutdown()
        print(result.summary(options: options))
        guard result.connected else { throw UserError("the demo controller never connected to its host") }
    }
}
