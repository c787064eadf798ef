import Logging
import NIOCore
import NIOEmbedded
@testable import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import Synchronization
import Testing

/// Every way in, one host, one rule — on virtual time (one EmbeddedEventLoop): a UDP
/// controller (plain datagrams into the host's handler), a DSU server's slot (its channel on
/// the same loop), a phone's page and a gamepad on this computer (the pipeline's verbs, as
/// their adapters call them), each holding a button and each with its virtual pad. Whatever
/// ends their input — a fast user switch, the host stopping, a silent transport — ends it
/// for every origin alike: released, pads at rest, nothing after.
@Suite struct EveryOriginTests {
    static let udp = try! SocketAddress(ipAddress: "127.0.0.1", port: 40000)

    /// The pad states handed to the pads, by session.
    final class RecordingPads: HostOutput {
        var states: [(SessionID, GamepadState)] = []
        /// Sessions whose pad went, with the state it showed last.
        var closed: [(SessionID, GamepadState)] = []
        /// Pad states handed over after the host stopped it (none may be).
        var afterStop = 0
        var stopped = false
        var accepts: PipelineOutput.Kind { .pad }
        func stop() { stopped = true }
        func perform(_ output: PipelineOutput, session: SessionID, now: Instant) {
            if stopped { afterStop += 1 }
            if case let .pad(state) = output { states.append((session, state)) }
            if case let .padClosed(rest) = output { closed.append((session, rest)) }
        }
    }

    struct Host {
        let rig = DSURig()
        let pads = RecordingPads()
        var dsu: EmbeddedChannel!
        var localPads: LocalPadSessions!
        /// What went back to the local pad's reader (its key, the rumble).
        let rumbles = RumbleLog()
        var web: SessionID!

        /// Four controllers, one of each origin, each holding its button (A, or cross on DSU).
        init() throws {
            rig.pipeline.addOutput(pads, pads: VirtualPadSettings(forEvery: true))
            let rig = self.rig
            func datagram(_ m: Message) throws {
                try rig.hostChannel.receive(PlainDatagram(session: SessionID(0xD1), message: m).encode(), from: EveryOriginTests.udp)
            }
            try datagram(.ping(clientTimeMicros: 1, clockOffsetMicros: 0))
            try datagram(.buttons([ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 1)]))
            (_, dsu) = try rig.addSource()
            rig.advance(by: .milliseconds(10))
            try dsu.receive(padData(slot: 0, counter: 1, micros: 10_000, buttons: [.cross]), from: DSURig.dsuServer)
            web = try #require(rig.pipeline.open(from: .web(device: "phone", peer: nil), name: "phone", now: rig.now))
            rig.pipeline.button(web, .a, isDown: true, now: rig.now)
            let rumbles = self.rumbles
            localPads = LocalPadSessions(pipeline: rig.pipeline, logger: RecordingLog().logger, rumble: { key, r in
                rumbles.sent.withLock { $0.append((key, r)) }
            }, light: { key, colour in
                rumbles.lights.withLock { $0.append((key, colour)) }
            })
            localPads.handle(.opened(key: "/dev/input/event7", name: "Pro Controller"), now: rig.now)
            localPads.handle(.events(key: "/dev/input/event7", [.button(.a, isDown: true)]), now: rig.now)
        }

        var held: Int { rig.pipeline.injector.held.values.reduce(0) { $0 + $1.count } }
        var origins: Set<String> { Set(rig.pipeline.sessions.values.map { $0.telemetry.address.split(separator: " ")[0].description }) }
    }

    /// What went back to a local pad's reader (a Sendable box: the sessions' closure runs on
    /// the host's loop, which here is the test's own thread).
    final class RumbleLog: Sendable {
        let sent = Mutex<[(String, LocalPadRumble)]>([])
        let lights = Mutex<[(String, ControllerFeedback.Color)]>([])
    }

    @Test func fourOriginsOneHostEachHoldingItsButton() throws {
        let host = try Host()
        #expect(host.rig.pipeline.sessions.count == 4 && host.held == 4, "\(host.rig.pipeline.injector.held)")
        #expect(host.origins.count == 4, "udp, dsu, web, local pad: \(host.origins)")
        #expect(Set(host.pads.states.map(\.0)).count == 4, "each has its own pad")
    }

    /// A game rumbles each controller's virtual pad: the local pad's goes back to its reader,
    /// by its node, in the kernel's range; the datagram controller's to its transport.
    @Test func aGamesRumbleGoesBackToTheLocalPadItself() throws {
        let host = try Host()
        let rig = host.rig
        let byAddress = Dictionary(uniqueKeysWithValues: rig.pipeline.sessions.map { ($0.value.telemetry.address, $0.key) })
        let pad = try #require(byAddress.first { $0.key.hasSuffix("/dev/input/event7") }?.value)
        rig.pipeline.padFeedback(pad, FeedbackChange(rumble: .init(low: 255, high: 128)), now: rig.now)
        let sent = host.rumbles.sent.withLock { $0 }
        #expect(sent.count == 1 && sent.first?.0 == "/dev/input/event7" && sent.first?.1 == LocalPadRumble(strong: 0xFFFF, weak: 0x8080))
        rig.advance(by: .milliseconds(100))
        rig.pipeline.padFeedback(pad, FeedbackChange(rumble: .init(low: 0, high: 0)), now: rig.now)
        #expect(host.rumbles.sent.withLock { $0.last?.1.isOff } == true, "the game's stop reaches the pad too")
    }

    /// A game sets the light of the local pad's virtual pad: the colour goes back to its reader
    /// by its node (the reader writes it to the pad's LEDs only when it changed).
    @Test func aGamesLightGoesBackToTheLocalPadItself() throws {
        let host = try Host()
        let rig = host.rig
        let pad = try #require(rig.pipeline.sessions.first { $0.value.telemetry.address.hasSuffix("/dev/input/event7") }?.key)
        let orange = ControllerFeedback.Color(red: 255, green: 64, blue: 16)
        rig.pipeline.padFeedback(pad, FeedbackChange(lightbar: orange), now: rig.now)
        let lights = host.rumbles.lights.withLock { $0 }
        #expect(lights.count == 1 && lights.first?.0 == "/dev/input/event7" && lights.first?.1 == orange)
        #expect(host.rumbles.sent.withLock { $0.last?.1.isOff } == true, "a colour alone leaves the motors off")
    }

    @Test func aUserSwitchReleasesEveryOriginAndSilencesEveryPad() throws {
        let host = try Host()
        let rig = host.rig
        rig.pipeline.setDesktopSessionActive(false, now: rig.now)
        #expect(host.held == 0, "every origin's button released")
        let rests = host.pads.states.suffix(4)
        #expect(Set(rests.map(\.0)) == Set(rig.pipeline.sessions.keys) && rests.allSatisfy { $0.1 == $0.1.rest(at: $0.1.motion.time) })
        let events = rig.log.lines.count, padStates = host.pads.states.count
        // Each origin goes on sending: nothing is injected, no pad moves.
        try rig.hostChannel.receive(PlainDatagram(session: SessionID(0xD1),
                                                  message: .buttons([ButtonEvent(sequence: 2, button: .b, isDown: true, timestampMicros: 2)])).encode(),
                                    from: EveryOriginTests.udp)
        rig.advance(by: .milliseconds(10))
        try host.dsu.receive(padData(slot: 0, counter: 2, micros: 20_000, yaw: 90, buttons: [.cross, .circle]), from: DSURig.dsuServer)
        rig.pipeline.perform(.motion(MotionSample(timestampMicros: 30_000, gyro: Vector3(x: 0, y: 0, z: 2)), latencyMicros: nil),
                             for: host.web, now: rig.now)
        host.localPads.handle(.events(key: "/dev/input/event7", [.button(.b, isDown: true)]), now: rig.now)
        #expect(rig.log.lines.count == events && host.pads.states.count == padStates && host.held == 0)
    }

    @Test func stoppingTheHostReleasesEveryOriginAndRestsEveryPad() throws {
        let host = try Host()
        let rig = host.rig
        let ids = Set(rig.pipeline.sessions.keys)
        rig.host.shutdown()
        #expect(host.held == 0 && rig.pipeline.sessions.isEmpty, "\(rig.pipeline.injector.held)")
        #expect(rig.pipeline.closedTotals.sessions == 4)
        #expect(Set(host.pads.closed.map(\.0)) == ids && host.pads.closed.allSatisfy { $0.1 == $0.1.rest(at: $0.1.motion.time) },
                "every pad shown at rest, then gone")
        #expect(host.pads.stopped && host.pads.afterStop == 0, "the pads stopped by the host's one rule, after their sessions closed")
    }

    @Test func aSilentTransportIsClosedByTheBackstopWhateverItsOrigin() throws {
        let host = try Host()
        let rig = host.rig
        // The UDP controller keeps pinging and the DSU server keeps sending; the page and the
        // local pad's transports go silent and never close their controllers.
        for i in 0..<11 {
            rig.advance(by: .seconds(1))
            try rig.hostChannel.receive(PlainDatagram(session: SessionID(0xD1),
                                                      message: .ping(clientTimeMicros: UInt64(i), clockOffsetMicros: 0)).encode(),
                                        from: EveryOriginTests.udp)
            try host.dsu.receive(padData(slot: 0, counter: UInt32(i + 2), micros: UInt64(i + 2) * 1_000_000, buttons: [.cross]),
                                 from: DSURig.dsuServer)
        }
        #expect(rig.pipeline.sessions.count == 2 && host.held == 2, "the page and the pad released and closed after 10 s")
        #expect(rig.pipeline.sessions[host.web] == nil && host.pads.closed.count == 2)
    }
}
