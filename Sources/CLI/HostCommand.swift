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

/// `remotion host`: parses the flags and the config file, then runs `HostDaemon` (RemotionApp).
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

    @Option(help: "Wayland output the pointer covers, e.g. DP-1 or HEADLESS-2 (wlroots injector; default: [inject] output in config.toml, else the whole layout; `remotion doctor` lists them).")
    var output: String?

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

    @Flag(help: "Phones may not type: their pages' text field and keys (Return, Tab, …) inject nothing (buttons still work).")
    var noTyping = false

    @Flag(help: ArgumentHelp("Open a phone pairing window at start even when not interactive (its link goes to --ready-file only; for scripts). Each phone is still accepted on the computer.", visibility: .hidden))
    var pairAtStart = false

    @Option(help: "UDP ports the web controller's data channels may use, FIRST-LAST (one per phone; docs/WEB-CONTROLLER.md).")
    var webRtcPorts = "7477-7486"

    @Flag(help: "Web controller over the WebSocket only (no WebRTC data channels).")
    var noWebRtc = false

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

    @Option(help: ArgumentHelp(
        "Give each controller a virtual gamepad through /dev/uhid (docs/GAMEPAD.md): dualsense (Bluetooth framing), dualsense-usb, or none (overrides [gamepad] in config.toml).",
        valueName: "type"))
    var gamepad: String?

    @Option(name: .customLong("gamepad-for"), help: "Which controllers get a virtual pad: every (the default) or asked (only those that ask: the page's Gamepad mode, the dashboard); overrides [gamepad] for.")
    var gamepadFor: String?

    @Option(help: ArgumentHelp("Where the virtual pads' reports go: uhid, or null for benchmarks only (each report written to /dev/null and timed, a stand-in where the kernel has no /dev/uhid; scripts/bench-gamepad.sh).",
                               valueName: "sink", visibility: .hidden))
    var gamepadSink = "uhid"

    @Flag(help: "Gyro as each virtual pad's right stick, for games that read no gyro (docs/GAMEPAD.md): gyro_stick.target = \"right\" in the host's profile (the stick's settings: gyro_stick.* in [mapping], or [gamepad] of config.toml).")
    var gyroStick = false

    @Flag(help: "Gamepads plugged into this computer (DualSense, DualShock 4, Switch Pro, Steam Deck) become controllers: their own gyro drives the pointer, DSU and the virtual pad (docs/LOCAL-PADS.md; or [local-pads] in config.toml).")
    var localPads = false

    @Flag(help: "With --local-pads: grab each pad (EVIOCGRAB) so only Remotion sees it and a game does not see it twice.")
    var localPadsGrab = false

    @Option(help: ArgumentHelp(
        "Once every listener is up, write one JSON object with every bound port (UDP, web, dashboard, control socket, DSU server) to this file (0600, atomically); scripts wait for it.",
        valueName: "path"))
    var readyFile: String?

    func validate() throws {
        for text in dsu {
            do { _ = try DSUEndpoint.source(text) } catch { throw ValidationError("--dsu \(error.message)") }
        }
        if let dsuServe {
            do { _ = try DSUEndpoint.server(dsuServe) } catch { throw ValidationError("--dsu-serve \(error.message)") }
        }
        if let gamepadFor, !["every", "asked"].contains(gamepadFor) {
            throw ValidationError("--gamepad-for must be every or asked")
        }
        if let gamepad, !["dualsense", "dualsense-usb", "none"].contains(gamepad) {
            throw ValidationError("--gamepad must be dualsense, dualsense-usb or none")
        }
        guard let sink = GamepadSink(rawValue: gamepadSink) else { throw ValidationError("--gamepad-sink must be uhid or null") }
        if sink == .null, gamepad == nil || gamepad == "none" {
            throw ValidationError("--gamepad-sink null needs --gamepad dualsense or dualsense-usb")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
        guard (0...65535).contains(webPort) else { throw ValidationError("--web-port must be from 0 to 65535") }
        guard WebControllerService.rtcPorts(webRtcPorts) != nil else { throw ValidationError("--web-rtc-ports must be FIRST-LAST, two ports from 1 to 65535") }
        guard timeout >= 0.5, timeout <= 60 else { throw ValidationError("--timeout must be between 0.5 and 60 seconds") }
        guard (1...256).contains(maxControllers) else { throw ValidationError("--max-controllers must be from 1 to 256") }
    }

    func run() async throws {
        // A closed pipe (`remotion host | head`) is an error for the write, not the host's end.
        StandardStreams.ignoreBrokenPipe()
        let machineName = ProcessInfo.processInfo.hostName
        let instance: InstanceName
        do {
            instance = try name.map { try InstanceName($0) } ?? DiscoveryBackend.defaultInstanceName(hostName: machineName)
        } catch { throw UserError("--name: \(error)") }
        let environment = ProcessInfo.processInfo.environment
        let loaded = try ConfigLoader.load(explicitPath: config, environment: environment)
        // The terminal view only where stdout is a terminal and carries no injected-event log;
        // while it is open everything the host says goes through the console, into the view.
        let console = HostConsole(interactive: !json && isatty(STDOUT_FILENO) == 1 && inject != .log)
        var options = HostDaemon.Options(instance: instance, dataDirectory: dataDirectory(dataDir, environment: environment))
        options.controllers.bind = bind
        options.controllers.port = port
        options.injection.choice = inject
        options.injection.output = output ?? loaded.inject.output
        options.injection.outputFromCommandLine = output != nil
        options.injection.environment = environment
        options.injection.profile = MappingProfile(settings: loaded.settings, buttons: loaded.buttons)
        options.injection.configPath = loaded.path
        options.injection.profiles = loaded.profiles
        options.controllers.timeout = .secondsDouble(timeout)
        options.controllers.maximum = maxControllers
        options.json = json
        options.dashboardPort = noDashboard ? nil : dashboardPort
        options.web.port = noWeb ? nil : webPort
        if pairAtStart { options.web.pairAtStart = true }
        if noTyping { options.web.typing = false }
        options.web.rtcPorts = noWebRtc ? nil : WebControllerService.rtcPorts(webRtcPorts)
        options.discovery = !noDiscovery
        options.controllers.insecure = insecure
        options.readyFile = readyFile
        for source in loaded.dsuSources + dsu.compactMap({ try? DSUSourceConfig(endpoint: DSUEndpoint.source($0), origin: "--dsu") }) {
            if let first = options.dsu.sources.first(where: { $0.endpoint == source.endpoint }) {
                console.logger().info("\(source.origin) repeats the DSU source \(source.endpoint) of \(first.origin); reading it once")
            } else {
                options.dsu.sources.append(source)
            }
        }
        options.dsu.serve = try dsuServe.map { try DSUEndpoint.server($0) }
        // The flag wins over the file's [gamepad]; `none` turns the file's pad off.
        switch gamepad {
        case nil: options.gamepad.pad = loaded.gamepad.pad
        case "none": options.gamepad.pad = nil
        case "dualsense-usb": options.gamepad.pad = .usb
        default: options.gamepad.pad = .bluetooth
        }
        options.gamepad.forEvery = gamepadFor.map { $0 == "every" } ?? loaded.gamepad.forEvery
        // Gyro as a stick is a mapping setting (`gyro_stick.*`, per profile); `--gyro-stick` turns
        // it on in the host's profile, on the right stick, with the file's rates if it has any.
        if gyroStick { options.injection.profile.settings.gyroStick.target = .right }
        options.gamepadSink = GamepadSink(rawValue: gamepadSink) ?? .uhid
        options.localPads = loaded.localPads
        if localPads { options.localPads.enabled = true }
        if localPadsGrab { options.localPads.grab = true }
        if options.localPads.grab && !options.localPads.enabled {
            throw UserError("--local-pads-grab (or [local-pads] grab = true) needs --local-pads or [local-pads] enabled = true")
        }
        // A start that fails, or a readiness record that cannot be written once it runs.
        do {
            let daemon = try await HostDaemon.start(options, console: console)
            try await daemon.run()
        } catch let error as HostStartError {
            throw UserError(error.description)
        }
    }
}
