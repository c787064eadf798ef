import ArgumentParser
import Logging
import NIOCore
import RemotionCore
import RemotionSession
import RemotionSources
import RemotionTransport
import ServiceLifecycle

struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Connect to a host and stream motion and button presses.")

    @Option(help: "The host's address and port, e.g. 127.0.0.1:7474 or [::1]:7474 (default: find it with DNS-SD).")
    var host: String?

    @Option(name: .customLong("host-name"), help: "With discovery: connect to the host announced under this name.")
    var hostName: String?

    @Option(help: "With discovery: seconds to look for a host before giving up.")
    var browseTimeout: Double = 5

    @Option(help: "Motion source: synthetic:<still|circle|figure-eight|sweep>[,noise=R][,seed=N] or replay:<file.csv>.")
    var source = "synthetic:circle"

    @Option(help: "Samples per second.")
    var rate: Double = 100

    @Option(help: "Seconds to stream after connecting (default: until Ctrl-C, or the end of a replay).")
    var duration: Double?

    @Option(name: .customLong("press"), help: "Scripted press BUTTON@START+HOLD (repeatable), e.g. A@1.0+0.5.")
    var presses: [String] = []

    @Option(help: "Seconds without an answer before giving up.")
    var timeout: Double = 2.5

    func validate() throws {
        guard rate > 0, rate <= 2000 else { throw ValidationError("--rate must be between 1 and 2000 samples per second") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        guard timeout >= 0.5, timeout <= 60 else { throw ValidationError("--timeout must be between 0.5 and 60 seconds") }
    }

    func run() async throws {
        let candidates = try await ClientTargets.resolve(host: host, hostName: hostName,
                                                         browseTimeout: .secondsDouble(browseTimeout))
        // The seed's connecting state: try each resolved address in order.
        for (index, address) in candidates.addresses.enumerated() {
            let label = candidates.addresses.count > 1 ? "\(candidates.label) (\(address.displayText))" : candidates.label
            let timedOut = try await stream(to: address, label: label)
            if !timedOut { return }
            if index + 1 < candidates.addresses.count {
                printErr("remotion client: no answer from \(address.displayText), trying the next address")
            } else {
                throw UserError("no answer from \(label) within \(timeout) s: is `remotion host` running there, and is UDP allowed?")
            }
        }
    }

    /// Connects and streams; returns true when the host never answered.
    private func stream(to address: SocketAddress, label host: String) async throws -> Bool {
        let scripted: [PressScript.Press]
        do { scripted = try presses.map(PressScript.parsePress) } catch { throw UserError(error.description) }
        let plan = StreamPlan(source: try SourceLoader.load(source), rate: rate, duration: duration,
                              presses: PressScript(presses: scripted))
        var configuration = ClientSession.Configuration()
        configuration.timeout = .secondsDouble(timeout)
        let client = try await ClientService<PlainClientFraming>.start(
            host: address, sessionID: SessionID(UInt32.random(in: 1...UInt32.max)),
            configuration: configuration, plan: plan, makeFraming: { PlainClientFraming() })
        let runner = ClientRunner(client: client, host: host, timeout: timeout)
        // The runner ends on its own when streaming ends: that ends the group, not an error.
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: runner, successTerminationBehavior: .gracefullyShutdownGroup)],
            gracefulShutdownSignals: [.sigint, .sigterm], logger: Logger(label: "remotion.client")))
        try await group.run()
        if await runner.outcome.timedOut { return true }
        if let failure = await runner.outcome.failure { throw UserError(failure) }
        return false
    }
}

/// Follows the client's events until it finishes; Ctrl-C stops it gracefully (the
/// host is told, so it releases what this controller held at once).
final class ClientRunner: Service {
    let client: ClientService<PlainClientFraming>
    let host: String
    let timeout: Double
    let outcome = Outcome()

    actor Outcome {
        var failure: String?
        var timedOut = false
        func fail(_ message: String) { failure = message }
        func timeOut() { timedOut = true }
    }

    init(client: ClientService<PlainClientFraming>, host: String, timeout: Double) {
        self.client = client
        self.host = host
        self.timeout = timeout
    }

    func run() async throws {
        let client = self.client
        await withGracefulShutdownHandler {
            for await event in client.events {
                switch event {
                case .connected:
                    printErr("remotion client: connected to \(host)")
                case .timedOut:
                    await outcome.timeOut()
                case let .disconnected(reason):
                    await outcome.fail("disconnected from \(host) (\(reason))")
                case let .finished(stats):
                    printErr("remotion client: sent \(stats.motionSent) motion samples and \(stats.buttonEdges) button edges; \(stats.retransmissions) retransmissions, \(stats.unacknowledgedAtEnd) unacknowledged")
                }
            }
        } onGracefulShutdown: {
            Task { await client.stop() }
        }
        await client.close()
    }
}
