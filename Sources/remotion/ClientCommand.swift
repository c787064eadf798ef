import ArgumentParser
import Logging
import NIOCore
import Foundation
import RemotionCore
import RemotionNoise
import RemotionSecurity
import RemotionSession
import RemotionSources
import RemotionTransport
import ServiceLifecycle

struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Connect to a host and stream motion and button presses.")

    @Option(help: "The host's address and port, e.g. 127.0.0.1:7474 or [::1]:7474.")
    var host: String

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

    @Flag(help: "Send unencrypted, unauthenticated datagrams (debugging only; the host needs --insecure too).")
    var insecure = false

    @Option(help: "Fingerprint (or prefix) of the paired host to use (default: the host paired at --host, or the only one).")
    var hostKey: String?

    @Option(help: "Key directory (default: $XDG_DATA_HOME/remotion, i.e. ~/.local/share/remotion).")
    var dataDir: String?

    func validate() throws {
        guard rate > 0, rate <= 2000 else { throw ValidationError("--rate must be between 1 and 2000 samples per second") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        guard timeout >= 0.5, timeout <= 60 else { throw ValidationError("--timeout must be between 0.5 and 60 seconds") }
    }

    func run() async throws {
        let address: SocketAddress
        do { address = try AddressParser.parse(host) } catch { throw UserError("--host \(error.description)") }
        let scripted: [PressScript.Press]
        do { scripted = try presses.map(PressScript.parsePress) } catch { throw UserError(error.description) }
        let plan = StreamPlan(source: try SourceLoader.load(source), rate: rate, duration: duration,
                              presses: PressScript(presses: scripted))
        var configuration = ClientSession.Configuration()
        configuration.timeout = .secondsDouble(timeout)
        let id = SessionID(UInt32.random(in: 1...UInt32.max))
        if insecure {
            printInsecureWarning("client")
            let client = try await ClientService<PlainClientFraming>.start(
                host: address, sessionID: id, configuration: configuration, plan: plan,
                makeFraming: { PlainClientFraming() })
            try await follow(client)
            return
        }
        let store = KeyStore(directory: dataDirectory(dataDir, environment: ProcessInfo.processInfo.environment))
        let key: KeyPair
        let known: KnownHost
        do {
            key = try store.clientKey()
            guard let found = try store.knownHost(for: host, fingerprint: hostKey), let hostStatic = found.key else {
                throw UserError("not paired with the host at \(host): run `remotion pair --listen` there and `remotion pair CODE` here (or use --host-key)")
            }
            known = found
            let client = try await ClientService<NoiseClientFraming>.start(
                host: address, sessionID: id, configuration: configuration, plan: plan,
                makeFraming: { NoiseClientFraming(staticKey: key, hostStatic: hostStatic) })
            printErr("remotion client: encrypted session with host \(known.fingerprint)")
            try await follow(client)
        } catch let error as KeyStoreError {
            throw UserError(error.description)
        }
    }

    private func follow<F: ClientFraming>(_ client: ClientService<F>) async throws {
        let runner = ClientRunner(client: client, host: host, timeout: timeout)
        // The runner returning (plan done, timeout) ends the group normally, not as a failure.
        let service = ServiceGroupConfiguration.ServiceConfiguration(service: runner,
                                                                      successTerminationBehavior: .gracefullyShutdownGroup)
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [.sigint, .sigterm],
                                                      logger: Logger(label: "remotion.client")))
        try await group.run()
        if let failure = await runner.outcome.failure { throw UserError(failure) }
    }
}

/// Follows the client's events until it finishes; Ctrl-C stops it gracefully (the
/// host is told, so it releases what this controller held at once).
final class ClientRunner<F: ClientFraming>: Service {
    let client: ClientService<F>
    let host: String
    let timeout: Double
    let outcome = Outcome()

    actor Outcome {
        var failure: String?
        func fail(_ message: String) { failure = message }
    }

    init(client: ClientService<F>, host: String, timeout: Double) {
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
                    await outcome.fail("no answer from \(host) within \(timeout) s: is `remotion host` running there, and is UDP allowed?")
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
