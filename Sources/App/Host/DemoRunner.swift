import Foundation
import Logging
import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// `remotion demo`: a host and a controller in one process over real UDP on loopback.
/// The host injects into a virtual screen, so it needs no privileges and no display.
/// The controller pairs with the host through the real XXpsk3 flow (keys in a temporary
/// directory, the host's confirmation given automatically) and then streams over an
/// encrypted Noise IK session.
package enum DemoRunner {
    package struct Options: Sendable {
        package var source: any MotionSource = SyntheticMotion(shape: .figureEight, noise: 0.002)
        package var sourceName = "synthetic:figure-eight"
        package var rate: Double = 120
        package var duration: Double = 4
        package var presses: [PressScript.Press] = Options.defaultPresses(duration: 4)
        package var screen = ScreenGeometry(width: 1920, height: 1080)
        package var settings = MappingSettings()
        /// Where the host publishes status snapshots (for a dashboard), if anywhere.
        package var publisher: SnapshotPublisher?
        /// Called once the host is serving (the demo command starts the dashboard here).
        package var onHostReady: (@Sendable (HostService<NoiseHostFraming, HostDriver>) async throws -> Void)?
        package init() {}

        /// A left click, a right click and the Left key (A, B, C) in the first 2.7 s of a
        /// 4 s stream; a shorter stream gets them scaled to fit, so `--duration 1` streams
        /// one second (the presses never lengthen the stream).
        package static func defaultPresses(duration: Double) -> [PressScript.Press] {
            let s = min(1, duration / 4)
            return [.init(button: .a, at: 1.0 * s, hold: 0.5 * s), .init(button: .b, at: 2.0 * s, hold: 0.3 * s),
                    .init(button: .c, at: 2.5 * s, hold: 0.2 * s)]
        }

        /// The presses that end after `duration` (they would make the stream longer).
        package var pressesPastTheEnd: [PressScript.Press] {
            presses.filter { $0.at + $0.hold > duration }
        }
    }

    /// How long the in-process pairing may take once the controller asks: ~0.5 s normally,
    /// but the demo shares its event loops with whatever else the process runs (the test
    /// suite's parallel tests).
    static let pairingTimeout: Duration = .seconds(30)
    /// How long the host's pairing window stays open from its start. Longer than the timeout:
    /// between the host's start and the controller's first message the demo's task waits its
    /// turn on the concurrency pool, which a loaded machine running the suite kept busy for
    /// over 30 s (the window closed before the controller asked). The secret is made here,
    /// never shown and used once, on loopback: a long window exposes nothing.
    static let pairingWindow: Duration = .seconds(300)

    package struct Result: Sendable {
        package var hostAddress: String
        package var client: ClientStats
        package var connected: Bool
        /// Datagrams the host received from the streaming controller (after pairing).
        package var hostDatagramsReceived: Int
        /// Datagrams of the pairing handshake (XXpsk3 messages 0 and 2, retransmissions)
        /// the host received before the controller streamed.
        package var pairingDatagrams: Int
        package var hostDrops: DropCounters
        package var motionDelivered: Int
        package var staleMotion: Int
        package var edgesDelivered: Int
        package var injectedButtons: [String]
        package var path: [(x: Int, y: Int)]
        package var latencyP50Micros: UInt64
        package var latencyP99Micros: UInt64
        package var heldAfterEnd: Int
        /// "controller <fp> paired with host <fp>".
        package var pairing: String
    }

    package static func run(_ options: Options, logger: Logger) async throws -> Result {
        let screen = options.screen
        let settings = options.settings
        let publisher = options.publisher
        let keys = FileManager.default.temporaryDirectory.appendingPathComponent("remotion-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: keys) }
        let hostStore = KeyStore(directory: keys.appendingPathComponent("host"))
        let clientStore = KeyStore(directory: keys.appendingPathComponent("controller"))
        let secret = SecureHosting.newSecret()
        // The demo's "user" confirms the controller automatically, on the host's loop; a real
        // host asks (remotion pair --listen).
        let desk = PairingDesk(automatic: { request in
            (try? hostStore.addPaired(name: request.name, publicKey: request.publicKey)) != nil
        })
        // The host's one composition root, as `remotion host` starts it: outputs, driver, socket.
        let host = try await HostRoot.start(
            bind: "127.0.0.1", port: 0, maximumControllers: HostStateMachine<SocketAddress>.Configuration().maximumSessions,
            makeFraming: try SecureHosting.framing(store: hostStore, pairing: (secret, Self.pairingWindow), desk: desk),
            makeOutputs: { _ in
                let pipeline = HostPipeline(injector: Injector(backend: VirtualScreenBackend(geometry: screen)),
                                            buttonMap: .seedDefault, settings: settings, logger: logger,
                                            injectorReason: "virtual screen", publisher: publisher)
                pipeline.identity = (name: "Remotion demo", listen: "")
                return pipeline
            })
        try await host.announceStart()
        let names = PairedNames(store: hostStore)
        try await host.onLoop { $0.sink.pairedNames = names }
        try await options.onHostReady?(host)
        let code = PairingCode(hostKey: try hostStore.hostKey().publicKey, secret: secret,
                               address: host.localAddress.displayText)
        let clientKey = try clientStore.clientKey()
        let hostKey = try await PairingConnector.pair(code: code, staticKey: clientKey, name: "demo controller",
                                                      timeout: Self.pairingTimeout)
        desk.finish()
        let pairingDatagrams = try await host.report().datagramsReceived
        _ = try clientStore.addKnownHost(publicKey: hostKey, address: code.address)
        let pairing = "controller \(KeyFingerprint.fingerprint(of: clientKey.publicKey)) paired with host \(KeyFingerprint.fingerprint(of: hostKey))"
        logger.info("\(pairing)")
        let plan = StreamPlan(source: options.source, rate: options.rate, duration: options.duration,
                              presses: PressScript(presses: options.presses))
        let client = try await ClientService<NoiseClientFraming>.start(
            host: host.localAddress, sessionID: SessionID(UInt32.random(in: 1...UInt32.max)), plan: plan,
            makeFraming: { NoiseClientFraming(staticKey: clientKey, hostStatic: hostKey) })
        var stats = ClientStats()
        var connected = false
        for await event in client.events {
            switch event {
            case .connected: connected = true
            case .finished(let s): stats = s
            case .timedOut, .disconnected, .feedback: break
            }
        }
        await client.close()
        // The host closes the session when the client's disconnect arrives: wait for that
        // (bounded), then read the host's view on its own loop.
        for _ in 0..<200 {
            if try await host.onLoop({ $0.sink.sessions.isEmpty && $0.sink.closedTotals.sessions > 0 }) { break }
            try await Task.sleep(for: .milliseconds(10))
        }
        let view = try await host.onLoop { handler -> HostView in
            let report = handler.report()
            let pipeline = handler.sink
            let totals = pipeline.closedTotals
            let latency = pipeline.latencySummary()
            let screenBackend = pipeline.injector.backend as? VirtualScreenBackend
            let buttons = screenBackend?.events.compactMap { entry -> String? in
                switch entry.event {
                case let .button(b, down): "mouse-\(b)\(down ? "↓" : "↑")"
                case let .key(k, down): "key-\(k)\(down ? "↓" : "↑")"
                default: nil
                }
            } ?? []
            return HostView(
                received: report.datagramsReceived, drops: report.drops,
                motion: totals.motionPackets,
                stale: report.drops[.staleMotion],
                edges: totals.buttonEdges,
                buttons: buttons,
                path: screenBackend?.path.map { (x: $0.x, y: $0.y) } ?? [],
                p50: latency?.p50 ?? 0, p99: latency?.p99 ?? 0,
                held: pipeline.injector.held.values.reduce(0) { $0 + $1.count })
        }
        await host.shutdown()
        return Result(hostAddress: host.localAddress.displayText, client: stats, connected: connected,
                      hostDatagramsReceived: view.received - pairingDatagrams, pairingDatagrams: pairingDatagrams,
                      hostDrops: view.drops,
                      motionDelivered: view.motion, staleMotion: view.stale, edgesDelivered: view.edges,
                      injectedButtons: view.buttons, path: view.path,
                      latencyP50Micros: view.p50, latencyP99Micros: view.p99, heldAfterEnd: view.held, pairing: pairing)
    }

    struct HostView: Sendable {
        var received: Int
        var drops: DropCounters
        var motion: Int
        var stale: Int
        var edges: Int
        var buttons: [String]
        var path: [(x: Int, y: Int)]
        var p50: UInt64
        var p99: UInt64
        var held: Int
    }
}
