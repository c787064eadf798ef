import ArgumentParser
import Foundation
import Logging
import NIOCore
import RemotionApp
import RemotionCore
import RemotionDiscovery
import RemotionInput
import RemotionMotion
import RemotionSession
import RemotionTransport
import ServiceLifecycle

extension InjectorFactory.Choice: ExpressibleByArgument {}

struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Accept controllers over UDP and inject their motion and buttons into this desktop.")

    @Option(help: "Address to listen on (:: is IPv6 and IPv4 together where the OS allows).")
    var bind = "::"

    @Option(help: "UDP port to listen on (0 picks a free one).")
    var port = 7474

    @Option(help: "Name announced on the network (default: \"Remotion on <this machine>\").")
    var name: String?

    @Flag(help: "Do not announce the host with DNS-SD.")
    var noDiscovery = false

    @Option(help: "Injector: \(InjectorFactory.Choice.allCases.map(\.rawValue).joined(separator: ", ")).")
    var inject: InjectorFactory.Choice = .auto

    @Option(help: "Config file (default: $XDG_CONFIG_HOME/remotion/config.toml when it exists).")
    var config: String?

    @Option(help: "Seconds of silence after which a controller is dropped and its inputs released.")
    var timeout: Double = 2.5

    @Option(help: "Most controllers served at once.")
    var maxControllers = 16

    @Flag(help: "Write status as JSON lines (stderr) instead of the terminal view.")
    var json = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard timeout >= 0.5, timeout <= 60 else { throw ValidationError("--timeout must be between 0.5 and 60 seconds") }
        guard (1...256).contains(maxControllers) else { throw ValidationError("--max-controllers must be from 1 to 256") }
    }

    func run() async throws {
        let instance: InstanceName
        do {
            instance = try name.map { try InstanceName($0) }
                ?? DiscoveryBackend.defaultInstanceName(hostName: ProcessInfo.processInfo.hostName)
        } catch { throw UserError("--name: \(error)") }
        let environment = ProcessInfo.processInfo.environment
        let loaded = try ConfigLoader.load(explicitPath: config, environment: environment)
        var machine = HostStateMachine<SocketAddress>.Configuration()
        machine.timeout = .secondsDouble(timeout)
        machine.maximumSessions = maxControllers
        let logger = Logger(label: "remotion.host")
        let choice = inject
        let buttonMap = loaded.buttons
        let settings = loaded.settings
        let publisher = SnapshotPublisher()
        let name = ProcessInfo.processInfo.hostName
        let host: HostService<PlainFraming>
        do {
            host = try await HostService<PlainFraming>.start(
                host: bind, port: port, configuration: machine,
                makeFraming: { PlainFraming() },
                makeSink: {
                    let made = try InjectorFactory.make(choice, environment: environment) { print($0) }
                    let pipeline = HostPipeline(injector: Injector(backend: made.backend), buttonMap: buttonMap,
                                                settings: settings, logger: logger, injectorReason: made.reason,
                                                publisher: publisher)
                    pipeline.identity = (name: name, listen: "")
                    return pipeline
                })
        } catch let error as InjectionError {
            throw UserError(error.description)
        } catch {
            throw UserError("cannot listen on \(bind) port \(port): \(error)")
        }
        let reason = try await host.onLoop { ($0.sink as? HostPipeline)?.injectorReason ?? "" }
        printErr("remotion host: listening on \(host.localAddress.displayText) (UDP), injecting with \(reason)")
        if let path = loaded.path { printErr("remotion host: config \(path)") }
        // The terminal view only where stdout is a terminal and carries no injected-event log.
        let interactive = !json && isatty(STDOUT_FILENO) == 1 && choice != .log
        let status = StatusDisplay(publisher: publisher, name: name, addresses: StatusDisplay.addresses(for: host.localAddress),
                                   port: host.localAddress.port ?? port, interactive: interactive)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: HostRunner(host: host)), .init(service: status)]
                + (noDiscovery ? [] : [.init(service: HostAnnouncer(
                    name: instance, port: UInt16(host.localAddress.port ?? port),
                    txt: HostTXT(protocolVersion: 1, capabilities: ["attitude", "gyro", "buttons16", "reliable"])))]),
            gracefulShutdownSignals: [.sigint, .sigterm], logger: logger))
        try await group.run()
    }
}

/// Keeps the host running until SIGINT/SIGTERM, then stops it gracefully: every client
/// is told, every held input released, the socket closed.
struct HostRunner: Service {
    let host: HostService<PlainFraming>

    func run() async throws {
        try? await gracefulShutdown()
        let counts = try? await host.onLoop { handler -> (Int, Int) in
            let report = handler.report()
            return ((handler.sink as? HostPipeline)?.injectedEvents ?? 0, report.drops.total)
        }
        await host.shutdown()
        printErr("remotion host: stopped after injecting \(counts?.0 ?? 0) events (\(counts?.1 ?? 0) datagrams dropped); every held input released")
    }
}
