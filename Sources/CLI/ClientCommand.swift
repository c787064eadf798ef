import ArgumentParser
import Foundation
import Logging
import NIOCore
import RemotionProtocol
import RemotionNetwork
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

    @Option(help: "Sticks and triggers sent with every sample: lx,ly,rx,ry (-1…1, y down) and l2,r2 (0…1), e.g. lx=1,r2=0.5 (docs/PROTOCOL.md, analog).")
    var analog: String?

    @Option(help: "Seconds without an answer before giving up.")
    var timeout: Double = 2.5

    @Flag(help: "Send unencrypted, unauthenticated datagrams (debugging only; the host needs --insecure too).")
    var insecure = false

    @Option(help: "Fingerprint (or prefix) of the paired host to use (default: the host paired at --host, the discovered host's, or the only one).")
    var hostKey: String?

    @Option(help: "Key directory (default: $XDG_DATA_HOME/remotion, i.e. ~/.local/share/remotion).")
    var dataDir: String?

    func validate() throws {
        guard rate > 0, rate <= 2000 else { throw ValidationError("--rate must be between 1 and 2000 samples per second") }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be a positive number of seconds") }
        guard timeout >= 0.5, timeout <= 60 else { throw ValidationError("--timeout must be between 0.5 and 60 seconds") }
        if let analog, case .failure(let why) = Self.parseAnalog(analog) { throw ValidationError("--analog \(why)") }
        guard browseTimeout > 0, browseTimeout <= 120 else { throw ValidationError("--browse-timeout must be between 0 and 120 seconds") }
    }

    func run() async throws {
        let scripted: [PressScript.Press]
        do { scripted = try presses.map(PressScript.parsePress) } catch { throw UserError(error.description) }
        let plan = StreamPlan(source: try SourceLoader.load(source), rate: rate, duration: duration,
                              presses: PressScript(presses: scripted), analog: try analog.map { try Self.parseAnalog($0).get() })
        let targets = try await ClientTargets.resolve(host: host, hostName: hostName,
                                                      browseTimeout: .secondsDouble(browseTimeout))
        // The seed's connecting state: try each resolved address in order.
        for (index, address) in targets.addresses.enumerated() {
            let label = targets.addresses.count > 1 ? "\(targets.label) (\(address.displayText))" : targets.label
            let timedOut = try await stream(to: address, label: label, plan: plan,
                                            fingerprint: hostKey ?? targets.fingerprint)
            if !timedOut { return }
            if index + 1 < targets.addresses.count {
                printErr("remotion client: no answer from \(address.displayText), trying the next address")
            } else {
                throw UserError("no answer from \(label) within \(timeout) s: is `remotion host` running there, and is UDP allowed?")
            }
        }
    }

    /// Connects and streams; returns true when the host never answered.
    private func stream(to address: SocketAddress, label: String, plan: StreamPlan, fingerprint: String?) async throws -> Bool {
        var configuration = ClientSession.Configuration()
        configuration.timeout = .secondsDouble(timeout)
        let id = SessionID(UInt32.random(in: 1...UInt32.max))
        if insecure {
            printInsecureWarning("client")
            let client = try await ClientService<PlainClientFraming>.start(
                host: address, sessionID: id, configuration: configuration, plan: plan,
                makeFraming: { PlainClientFraming() })
            return try await follow(client, label: label)
        }
        let store = KeyStore(directory: dataDirectory(dataDir, environment: ProcessInfo.processInfo.environment))
        do {
            let key = try store.clientKey()
            guard let known = try store.knownHost(for: host ?? address.displayText, fingerprint: fingerprint),
                  let hostStatic = known.key else {
                throw UserError("not paired with \(label): run `remotion pair --listen` on the host and `remotion pair CODE` here (or use --host-key)")
            }
            let client = try await ClientService<NoiseClientFraming>.start(
                host: address, sessionID: id, configuration: configuration, plan: plan,
                makeFraming: { NoiseClientFraming(staticKey: key, hostStatic: hostStatic) })
            printErr("remotion client: encrypted session with host \(known.fingerprint)")
            return try await follow(client, label: label)
        } catch let error as KeyStoreError {
            throw UserError(error.description)
        }
    }

    /// Runs until streaming ends or Ctrl-C; returns true when the host never answered.
    private func follow<F: ClientFraming>(_ client: ClientService<F>, label: String) async throws -> Bool {
        let runner = ClientRunner(client: client, host: label, timeout: timeout)
        // The runner returning (plan done, timeout) ends the group normally, not as a failure.
        let service = ServiceGroupConfiguration.ServiceConfiguration(service: runner,
                                                                      successTerminationBehavior: .gracefullyShutdownGroup)
        let group = ServiceGroup(configuration: .init(services: [service], gracefulShutdownSignals: [.sigint, .sigterm],
                                                      logger: Logger(label: "remotion.client")))
        try await group.run()
        if await runner.outcome.timedOut { return true }
        if let failure = await runner.outcome.failure { throw UserError(failure) }
        return false
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
        var timedOut = false
        func fail(_ message: String) { failure = message }
        func timeOut() { timedOut = true }
    }

    init(client: ClientService<F>, host: String, timeout: Double) {
        self.client = client
        self.host = host
        self.timeout = timeout
    }

    func run() async throws {
        let client = self.client
        await withGracefulShutdownHandler {
            var lastFeedback = ControllerFeedback()
            for await event in client.events {
                switch event {
                case .connected:
                    printErr("remotion client: connected to \(host)")
                case .timedOut:
                    await outcome.timeOut()
                case .disconnected(.revoked):
                    await outcome.fail("\(host) no longer trusts this controller (it was revoked); pair again with `remotion pair CODE`")
                case .disconnected(.full):
                    await outcome.fail("\(host) is full: every controller slot is taken (its --max-controllers); try again when one leaves")
                case let .disconnected(reason):
                    await outcome.fail("disconnected from \(host) (\(reason))")
                case let .feedback(f) where f != lastFeedback:
                    // Said when it changes (the host repeats a running rumble every 0.5 s).
                    lastFeedback = f
                    printErr("remotion client: feedback rumble \(f.rumbleLow)/\(f.rumbleHigh) lightbar \(f.lightbar?.hex ?? "none")")
                case .feedback:
                    break
                case let .finished(stats):
                    // What came back too: a session that times out while sending shows here
                    // whether the host's datagrams stopped or arrived and were dropped.
                    let dropped = stats.dropped.total > 0 ? " (dropped: \(stats.dropped.summary))" : ""
                    printErr("remotion client: sent \(stats.motionSent) motion samples and \(stats.buttonEdges) button edges; \(stats.retransmissions) retransmissions, \(stats.unacknowledgedAtEnd) unacknowledged; received \(stats.datagramsReceived) datagrams from the host\(dropped)")
                }
            }
        } onGracefulShutdown: {
            Task { await client.stop() }
        }
        await client.close()
    }
}

extension ClientCommand {
    struct AnalogError: Error, CustomStringConvertible { let description: String }

    /// "lx=1,ly=-0.5,r2=0.25" → the sticks and triggers (unnamed ones 0).
    static func parseAnalog(_ text: String) -> Result<AnalogState, AnalogError> {
        var a = AnalogState()
        for part in text.split(separator: ",") {
            let kv = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard kv.count == 2, let v = Float(kv[1]), v.isFinite else {
                return .failure(AnalogError(description: "takes NAME=VALUE pairs separated by commas (lx, ly, rx, ry, l2, r2), not \"\(part)\""))
            }
            let stick = (-1...1).contains(v), trigger = (0...1).contains(v)
            switch kv[0] {
            case "lx" where stick: a.leftX = v
            case "ly" where stick: a.leftY = v
            case "rx" where stick: a.rightX = v
            case "ry" where stick: a.rightY = v
            case "l2" where trigger: a.leftTrigger = v
            case "r2" where trigger: a.rightTrigger = v
            case "lx", "ly", "rx", "ry": return .failure(AnalogError(description: "\(kv[0]) must be from -1 to 1"))
            case "l2", "r2": return .failure(AnalogError(description: "\(kv[0]) must be from 0 to 1"))
            default: return .failure(AnalogError(description: "knows lx, ly, rx, ry, l2 and r2, not \"\(kv[0])\""))
            }
        }
        return .success(a)
    }
}
