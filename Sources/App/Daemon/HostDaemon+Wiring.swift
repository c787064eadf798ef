import Foundation
import Logging
import NIOCore
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import RemotionSystem
import ServiceLifecycle

extension HostDaemon {
    /// The one place the host's services are wired, in order: the outputs, the driver and
    /// the controllers' socket are made by `start` (`HostRoot`), then the other sources (the
    /// DSU adapters — its server, an output, before its sources — and the local pads), the status view, the web controller page, the
    /// control socket, the dashboard and the DNS-SD announcement; then the readiness record.
    /// A companion that cannot start (a busy dashboard port) is said once and left off; the
    /// controllers' socket is what the host is for.
    struct Wiring {
        let options: Options
        let console: HostConsole
        let logger: Logger
        let publisher: SnapshotPublisher
        var loop: HostLoop?
        var pairingCommands = ControlCommands.Pairing.off
        var securityNote = ""
        var hint = ""
        var hostID: String?

        init(options: Options, console: HostConsole, logger: Logger, publisher: SnapshotPublisher) {
            self.options = options
            self.console = console
            self.logger = logger
            self.publisher = publisher
        }

        func assemble() async throws -> HostDaemon {
            guard let loop else { throw HostStartError("the host's socket is not bound") }
            let reason = try await loop.onLoop { pipeline, _ in pipeline.injectorReason }
            try await loop.announceStart()
            let boundPort = loop.localAddress.port ?? options.controllers.port
            console.note(.listening, "listening on \(loop.localAddress.displayText) (UDP, \(securityNote))")
            // Before the web server: a neighbour's idle connections must not take every
            // descriptor (docs/SECURITY.md §9). One stderr line once listening (an error before
            // stays one line); not a fact in the terminal view (its welcome screen is fixed).
            let openFiles = FileDescriptorLimit.raiseToHard()
            if !console.interactive { logger.info("\(openFiles.description)") }
            console.note(.injector, "injecting with \(reason)")
            if let path = options.injection.configPath { console.note(.config, "config \(path)") }
            var ready = HostReady(udp: loop.localAddress.displayText, udpPort: boundPort)
            // The outputs (the pads among them) were made before the driver and the UDP
            // socket (HostRoot); the other sources follow.
            try announceGamepads()
            let dsu = try await startDSU(loop)
            let localPads = try await startLocalPads(loop)
            ready.dsuServe = dsu?.serverAddress?.displayText
            let status = StatusDisplay(publisher: publisher, name: options.instance.value,
                                       addresses: StatusDisplay.addresses(for: loop.localAddress),
                                       port: boundPort, console: console, pairingHint: hint)
            var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
                .init(service: HostRunner(loop: loop, dsu: dsu, localPads: localPads, console: console)), .init(service: status)]
            var webCommands: ControlCommands.Web?
            var phonePairing: (@Sendable () -> String?)?
            // Who may drive the host, for the dashboard's pairing card and the terminal view's keys.
            var devices = PairedDevices(registry: nil, keys: KeyStore(directory: options.dataDirectory))
            if let webPort = options.web.port {
                do {
                    let console = self.console, json = options.json
                    let started = try await WebControllerService.start(
                        host: loop, hostName: options.instance.value, bind: options.controllers.bind, port: webPort,
                        dataDirectory: options.dataDirectory, timeout: options.controllers.timeout, rtcPorts: options.web.rtcPorts,
                        pairAtStart: options.web.pairAtStart, interactive: console.interactive,
                        onRequest: { Self.announce(request: $0, console: console, json: json) },
                        onPaired: { Self.announce(paired: $0, console: console, json: json) })
                    services.insert(.init(service: started.service), at: 1)
                    webCommands = started.service.controlHandlers
                    phonePairing = started.service.openPairing
                    devices = PairedDevices(registry: started.service.server.registry, keys: devices.keys)
                    status.consent.set(devices)
                    #if os(Linux)
                    // A phone that asks to pair, as a desktop notification with Accept and Deny.
                    services.append(.init(service: ConsentNotificationService(
                        devices: devices, logger: logger, environment: options.injection.environment)))
                    #endif
                    ready.webPort = started.port
                    ready.pairingURL = started.url
                    let page = "https://\(started.service.reachable.contains(":") ? "[\(started.service.reachable)]" : started.service.reachable):\(started.port)/"
                    logger.info("web controller on \(page) (certificate \(started.fingerprint)\(started.reissued ? ", newly issued" : ""))")
                    logger.info("web controller CA SHA-256 \(started.caFingerprint) (check it in the phone's certificate details before trusting it)")
                    if let why = started.dataChannelsUnavailable {
                        logger.info("web controller: WebSocket only, no data channels for phones (\(why))")
                    }
                    if let why = started.replacedCA {
                        let reason = why == .unconstrained ? "the old one could vouch for any site (no name constraints)" : "the old one was about to expire"
                        logger.info("web controller made a new local CA: \(reason). On each phone: remove the old \"Remotion local CA\" profile or certificate, open the page, install the new one from /ca.mobileconfig (iPhone) or /ca.crt, and trust it (iPhone: Settings → General → About → Certificate Trust Settings)")
                    }
                    announceWebPairing(url: started.url, phonePairing: status.phonePairing)
                } catch {
                    logger.warning("web controller off (\(error))")
                }
            }
            #if os(Linux)
            // Only an injector into the real desktop (XTest, uinput) follows the session:
            // --inject log or virtual reach nobody's screen.
            let backend = try await loop.onLoop { pipeline, _ in pipeline.injector.backend.name }
            if backend == "xtest" || backend == "uinput" {
                services.append(.init(service: LogindSessionWatch(
                    environment: options.injection.environment,
                    onChange: { active in loop.execute { $0.setDesktopSessionActive(active, now: $1) } },
                    logger: logger)))
            }
            #endif
            // [[profile]]: the focused application switches the controllers' mapping. With none
            // in the file the watcher waits until the dashboard saves the first one.
            let focusTrigger = FocusWatchTrigger(started: !options.injection.profiles.isEmpty)
            if !options.injection.profiles.isEmpty || options.dashboardPort != nil {
                services.append(.init(service: FocusWatchService(
                    environment: options.injection.environment,
                    onFocus: { app in loop.execute { $0.focus(app, now: $1) } },
                    logger: logger, trigger: focusTrigger)))
            }
            let whoAmI = ControlService.status(name: options.instance.value, port: boundPort, secure: !options.controllers.insecure)
            let commands = ControlCommands(status: { _, _ in .success(whoAmI) }, pairing: pairingCommands, web: webCommands)
            if let control = await ControlService.start(dataDirectory: options.dataDirectory, commands: commands,
                                                        note: { console.note(.control, $0) }) {
                services.append(.init(service: control))
                ready.controlSocket = control.server.path
            }
            if let dashboardPort = options.dashboardPort {
                let configPath = options.injection.configPath ?? HostConfig.defaultPath(environment: options.injection.environment)
                let addressFile = DashboardAddressFile.path(dataDirectory: options.dataDirectory,
                                                            environment: options.injection.environment)
                do {
                    let (dashboard, bound, url) = try await DashboardService.start(
                        host: loop, publisher: publisher, port: dashboardPort, configPath: configPath,
                        addressFile: addressFile, dataDirectory: options.dataDirectory,
                        phonePairing: phonePairing, devices: devices, profilesInUse: { focusTrigger.fire() })
                    services.append(.init(service: dashboard))
                    ready.dashboardPort = bound
                    ready.dashboardURL = url
                    console.note(.dashboard, DashboardNote.started(port: bound, configPath: configPath))
                    if addressFile == nil { console.note(.dashboard, DashboardNote.addressNotKept) }
                } catch {
                    console.note(.dashboard, "dashboard off: \(error); pick another port with --dashboard-port (0: any free port)")
                }
            } else {
                console.note(.dashboard, "dashboard off (--no-dashboard)")
            }
            if options.discovery {
                let txt = HostTXT(protocolVersion: 1, hostID: hostID,
                                  capabilities: ["attitude", "gyro", "buttons16", "reliable", options.controllers.insecure ? "plain" : "noise-ik"])
                services.append(.init(service: HostAnnouncer(name: options.instance, port: UInt16(boundPort), txt: txt,
                                                             console: console)))
            } else {
                console.note(.discovery, "discovery off (--no-discovery): controllers connect by address")
            }
            // Last: the readiness record, given from inside `run` once signals are handled.
            services.append(.init(service: ReadyAnnouncement(ready: ready, path: options.readyFile, json: options.json,
                                                            console: console)))
            return HostDaemon(loop: loop, ready: ready, console: console, services: services, logger: logger)
        }

        /// Says where a phone pairs: the QR code in the terminal view when a window was opened
        /// for it; otherwise where to get one. The link itself (a one-time secret) never goes
        /// to stdout, stderr or a JSON event: under a user unit those are the journal.
        func announceWebPairing(url: String?, phonePairing: PhonePairingBox) {
            if console.interactive, let url, let qr = try? QRCode(text: url) {
                phonePairing.set(HostStatus.PhonePairing(url: url, qrLines: qr.terminalText().split(separator: "\n").map(String.init)))
            } else {
                logger.info("pair a phone: run `remotion pair --web` (it shows a QR code; the phone is then accepted on this computer)")
            }
        }

        /// A phone asks to pair: who and from where, and how to answer (docs/SECURITY.md §9).
        static func announce(request r: WebPairingConsent.Request, console: HostConsole, json: Bool) {
            let name = TextFormat.sanitize(r.name)
            let answer = "accept in the dashboard (`remotion dashboard`), or with `remotion devices --accept \(r.reference)`, "
                + "refuse with `--deny \(r.reference)` (within \(Int(WebPairingConsent.wait)) s)"
            console.logger().notice("phone '\(name)' at \(r.address) asks to pair (code \(r.code)): \(answer)")
            if json {
                console.event("{\"event\":\"pair-request\",\"code\":\(JSONText.quote(r.code)),\"request\":\(JSONText.quote(r.id)),"
                              + "\"name\":\(JSONText.quote(r.name)),"
                              + "\"address\":\(JSONText.quote(r.address))}")
            }
        }

        /// Every new pairing is announced.
        static func announce(paired device: WebDevice, console: HostConsole, json: Bool) {
            console.logger().notice("paired phone '\(TextFormat.sanitize(device.name))' (\(device.id)); `remotion devices --revoke \(device.id)` removes it")
            if json {
                console.event("{\"event\":\"paired\",\"id\":\(JSONText.quote(device.id)),\"name\":\(JSONText.quote(device.name))}")
            }
        }

        /// `--gamepad`: the virtual pads, an output of the pipeline, added by the composition root
        /// on the host's loop before the driver and any source exist (docs/GAMEPAD.md).
        static func addGamepads(_ options: Options, to pipeline: HostPipeline, driver: HostDriverHandle, logger: Logger) {
            #if os(Linux)
            guard let bus = options.gamepad.pad else { return }
            // A game's rumble and light come on the pad's thread; the loop paces and sends them.
            let onFeedback: @Sendable (SessionID, FeedbackChange) -> Void = { id, change in
                driver.execute { $0.padFeedback(id, change, now: $1) }
            }
            let pads: VirtualPadOutput
            var null: NullPadSink?
            switch options.gamepadSink {
            case .uhid:
                pads = VirtualPadOutput(bus: bus, logger: logger, onFeedback: onFeedback)
            case .null:
                let made = NullPadSink()
                null = made
                pads = VirtualPadOutput(bus: bus, logger: logger, onFeedback: onFeedback,
                                        makePad: { identity, bus, _ in try made.makePad(identity: identity, bus: bus) })
            }
            pipeline.addOutput(pads, pads: VirtualPadSettings(forEvery: options.gamepad.forEvery))
            pipeline.dropReporters.append(pads)
            // Its counts and times on the stop line, after the pads' (scripts/bench-gamepad.sh reads them).
            if let null { pipeline.dropReporters.append(null) }
            #endif
        }

        /// `--gamepad`: what the host says about its pads (they were made with the outputs).
        func announceGamepads() throws {
            #if os(Linux)
            guard let bus = options.gamepad.pad else { return }
            let gyroStick = options.injection.profile.settings.gyroStick
            let forEvery = options.gamepad.forEvery, sink = options.gamepadSink
            // The host profile's gyro stick; a session's own profile may switch it (gyro_stick.*).
            let stick = gyroStick.stick.map { ", gyro as its \($0.side.rawValue) stick (full at \(Int($0.fullRate)) °/s)" } ?? ""
            let who = forEvery ? "each controller gets" : "a controller that asks (the page's Gamepad mode, the dashboard) gets"
            let through = sink == .uhid ? "/dev/uhid" : "/dev/null (--gamepad-sink null: a benchmark's stand-in for /dev/uhid)"
            logger.info("gamepad: \(who) a virtual DualSense (\(bus.rawValue)) through \(through)\(stick)")
            #else
            if options.gamepad.pad != nil { throw HostStartError("--gamepad needs Linux (/dev/uhid)") }
            #endif
        }

        /// `--local-pads`: the gamepads plugged in here as controllers (docs/LOCAL-PADS.md).
        func startLocalPads(_ loop: HostLoop) async throws -> LocalPadBridge? {
            guard options.localPads.enabled else { return nil }
            #if os(Linux)
            let bridge: LocalPadBridge
            do {
                bridge = try await LocalPadBridge.start(host: loop, config: options.localPads, logger: logger)
            } catch {
                await loop.shutdown()
                throw HostStartError("--local-pads: \(error)")
            }
            let grab = options.localPads.grab ? " (grabbed: only Remotion sees them)" : ""
            logger.info("local pads: gamepads with motion sensors plugged into this computer become controllers\(grab)")
            return bridge
            #else
            throw HostStartError("--local-pads needs Linux (evdev)")
            #endif
        }

        /// The DSU sources and server (docs/DSU.md), on the host's loop; nil when none is asked for.
        func startDSU(_ loop: HostLoop) async throws -> DSUBridge? {
            guard !options.dsu.sources.isEmpty || options.dsu.serve != nil else { return nil }
            if let serve = options.dsu.serve, !serve.isLoopback {
                logger.warning("DSU has no authentication: anyone who can reach \(serve) can read every controller's motion and buttons (serve 127.0.0.1 unless you need the network)")
            }
            let bridge: DSUBridge
            do {
                bridge = try await DSUBridge.start(host: loop, sources: options.dsu.sources, serve: options.dsu.serve,
                                                   logger: logger, silenceTimeout: options.controllers.timeout)
            } catch {
                await loop.shutdown()
                throw HostStartError("\(error)")
            }
            for s in options.dsu.sources { logger.info("reading DSU controllers from \(s.endpoint) (\(s.origin))") }
            if let a = bridge.serverAddress { logger.info("serving DSU on \(a.displayText) (UDP, up to 4 controllers)") }
            return bridge
        }
    }
}

/// Keeps the host running until SIGINT/SIGTERM, then stops it gracefully: every client
/// is told, every held input released, the socket closed, and the stop line said.
struct HostRunner: Service {
    let loop: HostLoop
    var dsu: DSUBridge?
    var localPads: LocalPadBridge?
    let console: HostConsole

    func run() async throws {
        try? await gracefulShutdown()
        await dsu?.stop()
        await localPads?.stop()
        let report = try? await loop.report()
        let totals = try? await loop.onLoop { pipeline, _ in
            StopTotals(injected: pipeline.injectedEvents, protocolDrops: report?.drops.total ?? 0,
                       kernelDrops: report?.kernelDrops ?? 0, received: report?.datagramsReceived ?? 0,
                       sent: report?.datagramsSent ?? 0,
                       latency: pipeline.latencyText + (pipeline.sampleClockText.map { "; \($0)" } ?? ""),
                       adapters: pipeline.adapterSummaries)
        }
        await loop.shutdown()
        let t = totals ?? StopTotals()
        let adapters = t.adapters.map { "; \($0)" }.joined()
        console.finally("remotion host: stopped after injecting \(t.injected) events (\(t.received) datagrams received, \(t.sent) sent; \(t.protocolDrops) dropped by the protocol, \(t.kernelDrops) by the kernel (receive buffer full); \(t.latency)); every held input released\(adapters)")
    }
}

/// What the stop line says, read on the host's loop before it closes.
struct StopTotals: Sendable {
    var injected = 0
    var protocolDrops = 0
    var kernelDrops = 0
    var received = 0
    var sent = 0
    var latency = "one-way latency not measured (no shared or estimated clock)"
    var adapters: [String] = []
}
