import Foundation
import Logging
import NIOCore
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import RemotionSystem
import ServiceLifecycle

/// Why the host could not start, as one line that says what to fix (no library internals).
package struct HostStartError: Error, CustomStringConvertible, Sendable {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// `remotion host` as a library function: `HostDaemon.start(options)` binds every
/// listener, wires the services and returns them with the readiness record; `run()`
/// serves until SIGINT/SIGTERM, and gives that record (`--ready-file`, `--json`) once its
/// signal handlers listen (`ReadyAnnouncement`). The CLI parses flags and calls it; tests
/// call it too.
/// Everything the host says goes through its `HostConsole` (the one output seam).
package struct HostDaemon: Sendable {
    /// What `remotion host`'s flags and config file decide.
    package let loop: HostLoop
    package let ready: HostReady
    package let console: HostConsole
    let services: [ServiceGroupConfiguration.ServiceConfiguration]
    let logger: Logger

    /// Serves until SIGINT/SIGTERM/SIGHUP, then stops every service gracefully: controllers
    /// are told, held input is released, keycodes borrowed for typing are given back, the
    /// stop line is said. (SIGHUP: the terminal closed; it used to kill the host outright.)
    package func run() async throws {
        let group = ServiceGroup(configuration: .init(services: services, gracefulShutdownSignals: [.sigint, .sigterm, .sighup],
                                                      logger: logger))
        try await group.run()
    }

    /// Binds and wires everything; throws `HostStartError` when the host cannot serve.
    package static func start(_ options: Options, console: HostConsole) async throws -> HostDaemon {
        let logger = console.logger()
        let publisher = SnapshotPublisher()
        #if os(Linux)
        // --gamepad without /dev/uhid, or on a kernel without hid-playstation: one line with
        // the fix, before anything is bound.
        if options.gamepad.pad != nil && options.gamepadSink == .uhid {
            do { try UHIDDualSense.checkAccess() } catch { throw HostStartError("--gamepad: \(error.description)") }
            if let problem = UHIDDriverProbe.facts().problem { throw HostStartError("--gamepad: \(problem)") }
        }
        #endif
        // --max-controllers is the driver's (HostRoot), once: the engine's and the wire machine's slots.
        var machine = HostStateMachine<SocketAddress>.Configuration()
        machine.timeout = options.controllers.timeout
        let choice = options.injection.choice, environment = options.injection.environment, profile = options.injection.profile
        let focusProfiles = options.injection.profiles
        for note in focusProfiles.shadowNotes(path: options.injection.configPath ?? "config.toml") { logger.warning("\(note)") }
        let instanceName = options.instance.value
        // Controllers' gyro calibrations, remembered across runs (docs/MOTION.md, "Calibration memory").
        let calibrationDirectory = options.dataDirectory.path
        let (calibrationMemory, calibrationNote) = CalibrationStore.load(directory: calibrationDirectory,
                                                                         now: Date().timeIntervalSince1970)
        if let calibrationNote { logger.warning("\(calibrationNote)") }
        // The outputs, made first on the host's loop (HostRoot): the injector, the pipeline
        // around it, the laser, the virtual pads; then the driver; then the sources.
        let makeOutputs: @Sendable (HostDriverHandle) throws -> HostPipeline = { driver in
            let made = try InjectorFactory.make(choice, environment: environment, output: options.injection.output,
                                                log: InjectionLogOutput(write: console.injected),
                                                dataDirectory: options.dataDirectory.path)
            let pipeline = HostPipeline(injector: Injector(backend: made.backend), profile: profile, logger: logger,
                                        injectorReason: made.reason, publisher: publisher)
            pipeline.identity = (name: instanceName, listen: "")
            pipeline.setProfiles(focusProfiles, now: .zero)   // no controller yet: nothing is decided with the time
            pipeline.typingAllowed = options.web.typing
            pipeline.outputFromCommandLine = options.injection.outputFromCommandLine
            pipeline.calibrations = CalibrationStore(memory: calibrationMemory, directory: calibrationDirectory,
                                                     onError: { logger.warning("\($0)") })
            // The presenter's laser: an overlay takes a session's pointer events while its laser is held.
            let injector = pipeline.injector
            let laser = LaserOverlayHook(logger: logger, screen: { injector.screen },
                                         // The output chosen now (the dashboard may have chosen anew), else the start's.
                                         open: { LaserOverlays.open(environment: environment,
                                                                    output: injector.backend.outputChoosing?.chosenOutput
                                                                        ?? options.injection.output) })
            pipeline.laser = laser
            Wiring.addGamepads(options, to: pipeline, driver: driver, logger: logger)
            return pipeline
        }
        var wiring = Wiring(options: options, console: console, logger: logger, publisher: publisher)
        if options.controllers.insecure {
            console.warnInsecure()
            let service = try await bindUDP(options, machine: machine, makeFraming: { PlainFraming() }, makeOutputs: makeOutputs)
            wiring.loop = HostLoop(service)
            wiring.pairingCommands = .off
            wiring.securityNote = "INSECURE plain datagrams"
            wiring.hint = "INSECURE: anyone on the network can inject input"
        } else {
            let store = KeyStore(directory: options.dataDirectory)
            let framing: @Sendable () throws -> NoiseHostFraming
            do { framing = try SecureHosting.framing(store: store) } catch { throw HostStartError("\(error)") }
            let paired = (try? store.pairedControllers().count) ?? 0
            // Phones pair through the web page; they count as paired controllers too.
            let phones = options.web.port == nil ? 0 : ((try? WebCredentialStore(directory: options.dataDirectory).devices().count) ?? 0)
            let service = try await bindUDP(options, machine: machine, makeFraming: framing, makeOutputs: makeOutputs)
            wiring.loop = HostLoop(service)
            wiring.pairingCommands = PairingCommands(host: service, store: store).handlers
            // Datagram sessions are named after the controller's paired name (by its static key).
            let names = PairedNames(store: store)
            try await service.onLoop { $0.sink.pairedNames = names }
            // The phone's way first (most people hold a phone), the UDP controller's second.
            let howToPair = options.web.port == nil
                ? "run `remotion pair --listen`"
                : "pair a phone with `remotion pair --web` (a QR code to scan), a UDP controller with `remotion pair --listen`"
            if paired + phones == 0 && !console.interactive {
                console.logger().info("no controller is paired yet: \(howToPair) (keys in \(store.directory.path))")
            }
            let fingerprint = (try? store.hostKey()).map { KeyFingerprint.fingerprint(of: $0.publicKey) }
            wiring.hostID = fingerprint
            wiring.securityNote = "encrypted (Noise IK), \(paired) paired controller(s), host key \(fingerprint ?? "?")"
            wiring.hint = paired + phones == 0 ? "no controller paired yet: \(howToPair)"
                                               : "\(paired) paired controller(s)\(phones > 0 ? ", \(phones) phone(s)" : ""); host key \(fingerprint ?? "?")"
        }
        return try await wiring.assemble()
    }

    private static func bindUDP<F: HostFraming>(_ options: Options, machine: HostStateMachine<SocketAddress>.Configuration,
                                                makeFraming: @escaping @Sendable () throws -> F,
                                                makeOutputs: @escaping @Sendable (HostDriverHandle) throws -> HostPipeline) async throws
        -> HostService<F, HostDriver> {
        do {
            return try await HostRoot.start(bind: options.controllers.bind, port: options.controllers.port, configuration: machine,
                                            maximumControllers: options.controllers.maximum,
                                            makeFraming: makeFraming, makeOutputs: makeOutputs)
        } catch let error as InjectionError {
            throw HostStartError(error.description)
        } catch {
            throw HostStartError(await BusyPort.message(for: error, bind: options.controllers.bind, port: options.controllers.port,
                                                        dataDirectory: options.dataDirectory))
        }
    }
}
