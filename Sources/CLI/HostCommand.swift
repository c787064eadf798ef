import ArgumentParser
import Foundation
import Logging
import NIOCore
import RemotionApp
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork
import RemotionSystem
import ServiceLifecycle

extension InjectorChoice: ExpressibleByArgument {}

struct HostCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "host",
        abstract: "Accept paired controllers over UDP and inject their motion and buttons into this desktop.")

    @Option(help: "Address to listen on (:: is IPv6 and IPv4 together where the OS allows).")
    var bind = "::"

    @Option(help: "UDP port to listen on (0 picks a free one).")
    var port = 7474

    @Option(help: "Name announced on the network (default: \"Remotion on <this machine>\").")
    var name: String?

    @Flag(help: "Do not announce the host with DNS-SD.")
    var noDiscovery = false

    @Option(help: "Injector: \(InjectorChoice.allCases.map(\.rawValue).joined(separator: ", ")).")
    var inject: InjectorChoice = .auto

    @Option(help: "Config file (default: $XDG_CONFIG_HOME/remotion/config.toml when it exists).")
    var config: String?

    @Option(help: "Seconds of silence after which a controller is dropped and its inputs released.")
    var timeout: Double = 2.5

    @Option(help: "Most controllers served at once.")
    var maxControllers = 16

    @Flag(help: "Write status as JSON lines (stderr) instead of the terminal view.")
    var json = false

    @Option(help: "Port of the web dashboard on 127.0.0.1 (0 picks a free one).")
    var dashboardPort = 7475

    @Flag(help: "Do not serve the web dashboard.")
    var noDashboard = false

    @Option(help: "HTTPS port of the web controller page that phones open from the QR code (0 picks a free one).")
    var webPort = 7476

    @Flag(help: "Do not serve the web controller page.")
    var noWeb = false

    @Flag(help: "Accept unencrypted, unauthenticated datagrams (debugging only: anyone on the network can inject input).")
    var insecure = false

    @Option(help: "Key directory (default: $XDG_DATA_HOME/remotion, i.e. ~/.local/share/remotion).")
    var dataDir: String?

    @Option(name: .customLong("dsu"), help: ArgumentHelp(
        "Read controllers from a DSU (cemuhook) server such as a phone app: ADDR[:PORT], port 26760 by default (repeatable; also [[dsu]] in config.toml).",
        valueName: "addr[:port]"))
    var dsu: [String] = []

    @Option(name: .customLong("dsu-serve"), help: ArgumentHelp(
        "Serve the controllers to emulators as DSU pads on [ADDR:]PORT (127.0.0.1 unless an address is given: DSU has no authentication).",
        valueName: "[addr:]port"))
    var dsuServe: String?

    func validate() throws {
        for text in dsu {
            do { _ = try DSUEndpoint.source(text) } catch { throw ValidationError("--dsu \(error.message)") }
        }
        if let dsuServe {
            do { _ = try DSUEndpoint.server(dsuServe) } catch { throw ValidationError("--dsu-serve \(error.message)") }
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard (0...65535).contains(webPort) else { throw ValidationError("--web-port must be from 0 to 65535") }
        guard timeout >= 0.5, timeout <= 60 else { throw ValidationError("--timeout must be between 0.5 and 60 seconds") }
        guard (1...256).contains(maxControllers) else { throw ValidationError("--max-controllers must be from 1 to 256") }
    }

    func run() async throws {
        let machineName = ProcessInfo.processInfo.hostName
        let instance: InstanceName
        do {
            instance = try name.map { try InstanceName($0) } ?? DiscoveryBackend.defaultInstanceName(hostName: machineName)
        } catch { throw UserError("--name: \(error)") }
        let environment = ProcessInfo.processInfo.environment
        let loaded = try ConfigLoader.load(explicitPath: config, environment: environment)
        var machine = HostStateMachine<SocketAddress>.Configuration()
        machine.timeout = .secondsDouble(timeout)
        machine.maximumSessions = maxControllers
        // The terminal view only where stdout is a terminal and carries no injected-event log;
        // while it is open everything the host says goes through the console, into the view.
        let console = HostConsole(interactive: !json && isatty(STDOUT_FILENO) == 1 && inject != .log)
        let logger = console.interactive ? Logger(label: "remotion.host") { ConsoleLogHandler(label: $0, console: console) }
                                         : Logger(label: "remotion.host")
        let choice = inject
        let buttonMap = loaded.buttons
        let settings = loaded.settings
        let publisher = SnapshotPublisher()
        let makeSink: @Sendable () throws -> HostPipeline = {
            let made = try InjectorFactory.make(choice, environment: environment, log: InjectionLogOutput(write: console.injected))
            let pipeline = HostPipeline(injector: Injector(backend: made.backend), buttonMap: buttonMap,
                                        settings: settings, logger: logger, injectorReason: made.reason,
                                        publisher: publisher)
            pipeline.identity = (name: instance.value, listen: "")
            return pipeline
        }
        let keyDirectory = dataDirectory(dataDir, environment: environment)
        var dsuSources: [DSUSourceConfig] = []
        for source in loaded.dsuSources + dsu.compactMap({ try? DSUSourceConfig(endpoint: DSUEndpoint.source($0), origin: "--dsu") }) {
            if let first = dsuSources.first(where: { $0.endpoint == source.endpoint }) {
                printErr("remotion host: \(source.origin) repeats the DSU source \(source.endpoint) of \(first.origin); reading it once")
            } else {
                dsuSources.append(source)
            }
        }
        var context = ServeContext(loaded: loaded, logger: logger, publisher: publisher, instance: instance,
                                   dataDirectory: keyDirectory, console: console,
                                   dsuSources: dsuSources, dsuServe: try dsuServe.map { try DSUEndpoint.server($0) })
        if insecure {
            printInsecureWarning("host")
            let host = try await startHost(machine: machine, makeFraming: { PlainFraming() }, makeSink: makeSink,
                                           dataDirectory: keyDirectory)
            context.controlHandlers = ControlService.insecureHandlers
            try await serve(host, context, note: "INSECURE plain datagrams", hostID: nil,
                            hint: "INSECURE: anyone on the network can inject input")
        } else {
            let store = KeyStore(directory: keyDirectory)
            let framing: @Sendable () throws -> NoiseHostFraming
            do { framing = try SecureHosting.framing(store: store) } catch { throw UserError("\(error)") }
            let paired = (try? store.pairedControllers().count) ?? 0
            let host = try await startHost(machine: machine, makeFraming: framing, makeSink: makeSink,
                                           dataDirectory: keyDirectory)
            context.controlHandlers = PairingCommands(host: host, store: store).handlers
            try await PairedNames(store: store).install(on: host)
            if paired == 0 && !console.interactive {
                printErr("remotion host: no controller is paired yet; run `remotion pair --listen` first (keys in \(store.directory.path))")
            }
            let fingerprint = (try? store.hostKey()).map { KeyFingerprint.fingerprint(of: $0.publicKey) }
            try await serve(host, context,
                            note: "encrypted (Noise IK), \(paired) paired controller(s), host key \(fingerprint ?? "?")",
                            hostID: fingerprint,
                            hint: paired == 0 ? "no controller paired yet: run remotion pair --listen"
                                              : "\(paired) paired controller(s); host key \(fingerprint ?? "?")")
        }
    }

    struct ServeContext {
        var loaded: ConfigLoader.Loaded
        var logger: Logger
        var publisher: SnapshotPublisher
        var instance: InstanceName
        var dataDirectory: URL
        var console: HostConsole
        var controlHandlers: [String: ControlHandler] = [:]
        var dsuSources: [DSUSourceConfig]
        var dsuServe: DSUEndpoint?
    }

    private func startHost<F: HostFraming>(machine: HostStateMachine<SocketAddress>.Configuration,
                                           makeFraming: @escaping @Sendable () throws -> F,
                                           makeSink: @escaping @Sendable () throws -> HostPipeline,
                                           dataDirectory: URL) async throws -> HostService<F, HostPipeline> {
        do {
            return try await HostService<F, HostPipeline>.start(host: bind, port: port, configuration: machine,
                                                  makeFraming: makeFraming, makeSink: makeSink)
        } catch let error as InjectionError {
            throw UserError(error.description)
        } catch {
            throw UserError(await BusyPort.message(for: error, bind: bind, port: port, dataDirectory: dataDirectory))
        }
    }

    /// Runs the host with its companions (status view, DNS-SD announcement) until
    /// SIGINT/SIGTERM. The TXT record's `id` is the host key's fingerprint, so a
    /// controller knows it found the host it paired with.
    private func serve<F: HostFraming>(_ host: HostService<F, HostPipeline>, _ context: ServeContext, note: String, hostID: String?,
                                       hint: String) async throws {
        let reason = try await host.onLoop { $0.sink.injectorReason }
        try await host.announceStart()
        let boundPort = host.localAddress.port ?? port
        let console = context.console
        console.note(.listening, "listening on \(host.localAddress.displayText) (UDP, \(note))")
        console.note(.injector, "injecting with \(reason)")
        if let path = context.loaded.path { console.note(.config, "config \(path)") }
        let dsuBridge = try await startDSU(host, context)
        let interactive = console.interactive
        let status = StatusDisplay(publisher: context.publisher, name: context.instance.value,
                                   addresses: StatusDisplay.addresses(for: host.localAddress),
                                   port: boundPort, console: console, pairingHint: hint)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: HostRunner(host: host, dsu: dsuBridge, console: console)),
                                                                          .init(service: status)]
        var controlHandlers = context.controlHandlers
        var phonePairing: (@Sendable () -> String?)?
        if !noWeb {
            do {
                let started = try await WebControllerService.start(
                    host: host, hostName: context.instance.value, bind: bind, port: webPort,
                    dataDirectory: context.dataDirectory, timeout: .secondsDouble(timeout))
                services.insert(.init(service: started.service), at: 1)
                controlHandlers.merge(started.service.controlHandlers) { a, _ in a }
                phonePairing = started.service.openPairing
                printErr("remotion host: web controller on \(started.url.prefix { $0 != "#" }) (certificate \(started.fingerprint)\(started.reissued ? ", newly issued" : ""))")
                announceWebPairing(url: started.url, interactive: interactive, phonePairing: status.phonePairing)
            } catch {
                // Like the dashboard: the controllers' UDP port is what the host is for.
                printErr("remotion host: web controller off (\(error))")
            }
        }
        if let control = await ControlService.start(dataDirectory: context.dataDirectory, handlers: controlHandlers,
                                                    status: ControlService.status(name: context.instance.value, port: boundPort, secure: !insecure),
                                                    note: { console.note(.control, $0) }) {
            services.append(.init(service: control))
        }
        if !noDashboard {
            let configPath = context.loaded.path ?? HostConfig.defaultPath(environment: ProcessInfo.processInfo.environment)
            do {
                let (dashboard, bound) = try await DashboardService.start(host: host, publisher: context.publisher,
                                                                          port: dashboardPort, configPath: configPath,
                                                                          phonePairing: phonePairing)
                services.append(.init(service: dashboard))
                console.note(.dashboard, DashboardNote.started(port: bound, configPath: configPath))
            } catch {
                console.note(.dashboard, "dashboard off: \(error); pick another port with --dashboard-port (0: any free port)")
            }
        } else {
            console.note(.dashboard, "dashboard off (--no-dashboard)")
        }
        if !noDiscovery {
            let txt = HostTXT(protocolVersion: 1, hostID: hostID,
                              capabilities: ["attitude", "gyro", "buttons16", "reliable", insecure ? "plain" : "noise-ik"])
            services.append(.init(service: HostAnnouncer(name: context.instance, port: UInt16(boundPort), txt: txt,
                                                         console: console)))
        } else {
            console.note(.discovery, "discovery off (--no-discovery): controllers connect by address")
        }
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigint, .sigterm],
                                                      logger: context.logger))
        try await group.run()
    }
}

/// Keeps the host running until SIGINT/SIGTERM, then stops it gracefully: every client
/// is told, every held input released, the socket closed.
extension HostCommand {
    /// Says where a phone pairs: a QR code and the URL in a terminal, one line
    /// `pair a phone: URL` on stdout otherwise (a JSON object with --json).
    func announceWebPairing(url: String, interactive: Bool, phonePairing: PhonePairingBox? = nil) {
        func out(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
        if json {
            out("{\"event\":\"web-pairing\",\"url\":\(JSONText.quote(url))}")
        } else if !interactive {
            out("pair a phone: \(url)")
        } else if let qr = try? QRCode(text: url) {
            // In a terminal the welcome view shows the code (the view owns the screen).
            phonePairing?.set(HostStatus.PhonePairing(url: url, qrLines: qr.terminalText().split(separator: "\n").map(String.init)))
        }
    }
}

struct HostRunner<F: HostFraming>: Service {
    let host: HostService<F, HostPipeline>
    var dsu: DSUBridge?
    let console: HostConsole

    func run() async throws {
        try? await gracefulShutdown()
        await dsu?.stop()
        let counts = try? await host.onLoop { handler -> (Int, Int, String, [String]) in
            let pipeline = handler.sink
            let l = pipeline.latencySummary()
            let latency = "one-way latency p50 \(Double(l.p50) / 1000) ms, p99 \(Double(l.p99) / 1000) ms over \(l.samples) samples"
            let report = handler.report()
            return (pipeline.injectedEvents, report.drops.total,
                    "\(report.kernelDrops) by the kernel (receive buffer full); " + latency, pipeline.adapterSummaries)
        }
        await host.shutdown()
        let adapters = (counts?.3 ?? []).map { "; \($0)" }.joined()
        console.finally("remotion host: stopped after injecting \(counts?.0 ?? 0) events (\(counts?.1 ?? 0) datagrams dropped by the protocol, \(counts?.2 ?? "")); every held input released\(adapters)")
    }
}

extension HostCommand {
    /// The DSU sources and server (docs/DSU.md), on the host's loop; nil when none is asked for.
    func startDSU<F: HostFraming>(_ host: HostService<F, HostPipeline>, _ context: ServeContext) async throws -> DSUBridge? {
        guard !context.dsuSources.isEmpty || context.dsuServe != nil else { return nil }
        if let serve = context.dsuServe, !serve.isLoopback {
            printErr("remotion host: WARNING: DSU has no authentication: anyone who can reach \(serve) can read every controller's motion and buttons (serve 127.0.0.1 unless you need the network)")
        }
        let bridge: DSUBridge
        do {
            bridge = try await DSUBridge.start(host: host, sources: context.dsuSources, serve: context.dsuServe,
                                               logger: context.logger, silenceTimeout: .secondsDouble(timeout))
        } catch {
            await host.shutdown()
            throw UserError("\(error)")
        }
        for s in context.dsuSources {
            printErr("remotion host: reading DSU controllers from \(s.endpoint) (\(s.origin))")
        }
        if let a = bridge.serverAddress { printErr("remotion host: serving DSU on \(a.displayText) (UDP, up to 4 controllers)") }
        return bridge
    }
}
