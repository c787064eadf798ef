import Logging
import NIOCore
import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import Testing

/// Controllers of other transports (the page, DSU, local pads) join the pipeline on the
/// host's loop: they take slots beside the datagram sessions, release what they held however
/// they end, and the UDP handler is only told, never passed through.
@Suite struct HostPipelineExternalSessionsTests {
    static let screen = ScreenGeometry(width: 1920, height: 1080)

    static func pipeline() -> (HostPipeline, VirtualScreenBackend, RecordingSinkDriver) {
        let backend = VirtualScreenBackend(geometry: screen)
        let p = HostPipeline(injector: Injector(backend: backend), profile: MappingProfile(), logger: Logger(label: "test"))
        let driver = RecordingSinkDriver()
        p.attached(to: driver)
        return (p, backend, driver)
    }

    @Test func slotsAreSharedWithDatagramSessionsAndTheHandlerIsToldOfEveryChange() throws {
        let (p, _, driver) = Self.pipeline()
        p.maximumControllers = 2
        let udp = try SocketAddress(ipAddress: "192.0.2.7", port: 4000)
        p.handle(.sessionOpened(SessionID(9), .udp(udp)), now: .zero)         // a datagram session
        let phone = try #require(p.open(from: .web(device: "phone", peer: nil), name: "phone", now: .milliseconds(1)))
        #expect(phone != SessionID(9))
        #expect(p.sessionsElsewhere == [phone], "the handler's machine counts it and never gives its id away")
        #expect(driver.changes.map(\.membership) == [true])
        #expect(p.sessions[phone]?.telemetry.name == "phone")
        #expect(p.open(from: .localPad("/dev/input/event7"), name: "pad", now: .milliseconds(2)) == nil, "full")
        p.perform(.motion(MotionSample(timestampMicros: 1), latencyMicros: nil), for: phone, now: .milliseconds(3))
        #expect(driver.changes.map(\.membership) == [true, false], "motion re-arms the timer, no slot change")
        p.close(phone, reason: .clientDisconnected(.user), now: .milliseconds(4))
        #expect(p.sessionsElsewhere.isEmpty && p.sessions[phone] == nil)
        #expect(driver.changes.map(\.membership) == [true, false, true])
        p.close(phone, reason: .clientDisconnected(.user), now: .milliseconds(5))
        #expect(driver.changes.count == 3, "closing twice tells nothing")
    }

    /// Every way a controller of another transport ends releases what it held: its
    /// transport closes it, the backstop finds it silent, the host stops.
    @Test func everyEndReleasesWhatItHeld() throws {
        let (p, _, _) = Self.pipeline()
        let a = try #require(p.open(from: .web(device: "a", peer: nil), name: "a", now: .zero))
        let b = try #require(p.open(from: .dsu(server: try SocketAddress(ipAddress: "127.0.0.1", port: 26760), slot: 0),
                                    name: "b", now: .zero))
        let c = try #require(p.open(from: .localPad("/dev/input/event3"), name: "c", now: .zero))
        for id in [a, b, c] { p.button(id, .a, isDown: true, now: .seconds(1)) }
        #expect(Set(p.injector.held.keys) == [a, b, c])
        p.close(a, reason: .clientDisconnected(.user), now: .seconds(2))
        #expect(p.injector.held[a] == nil, "closed by its transport")
        // b stays alive by keep-alives; c goes silent and the backstop closes it.
        for s in stride(from: 3.0, through: 11.5, by: 0.5) { p.heard(b, now: .seconds(s)) }
        #expect(p.nextDeadline == .seconds(11), "c's silence limit, 10 s after its last edge")
        p.tick(now: .seconds(11))
        #expect(p.injector.held[c] == nil && p.sessions[c] == nil, "closed by the backstop")
        #expect(p.injector.held[b] != nil && p.sessions[b] != nil)
        p.shutdown(now: .seconds(12))
        #expect(p.injector.held.values.allSatisfy { $0.isEmpty } && p.sessions.isEmpty, "closed when the host stops")
    }

    /// A transport's command becomes the pipeline's own verb through its one entry
    /// (`perform`), answered by at most one value; an unknown session answers what the
    /// verbs say for it.
    @Test func aCommandIsThePipelinesOwnVerbAnsweredOnce() throws {
        let (p, _, driver) = Self.pipeline()
        let phone = try #require(p.open(from: .web(device: "phone", peer: nil), name: "phone", now: .zero))
        #expect(p.perform(.button(.a, isDown: true), for: phone, now: .milliseconds(1)) == nil)
        #expect(p.injector.held[phone]?.isEmpty == false && driver.changes.map(\.membership) == [true, false])
        #expect(p.perform(.mode(set: .fps), for: phone, now: .milliseconds(2)) == .mode(.fps))
        #expect(p.perform(.mode(set: nil), for: phone, now: .milliseconds(2)) == .mode(.fps))
        #expect(p.perform(.gyroStick(.left), for: phone, now: .milliseconds(2)) == .gyroStick(.left))
        #expect(p.perform(.pad(on: true), for: phone, now: .milliseconds(2)) == .pad(nil), "this host makes no pads")
        #expect(p.perform(.buttonLabels, for: phone, now: .milliseconds(2)) == .reply(.buttons(of: p.buttonMap)))
        let gone = SessionID(0xDEAD)
        #expect(p.perform(.mode(set: nil), for: gone, now: .milliseconds(3)) == .mode(.pointer))
        #expect(p.perform(.gyroStick(.left), for: gone, now: .milliseconds(3)) == .gyroStick(.off))
        #expect(p.perform(.calibrate, for: gone, now: .milliseconds(3)) == nil)
        #expect(p.perform(.close(.clientDisconnected(.user)), for: phone, now: .milliseconds(4)) == nil)
        #expect(p.injector.held[phone] == nil && p.sessions[phone] == nil, "released and closed")
    }

    /// On a real host: a phone's page holds the only slot, so a UDP controller is told the
    /// host is full; when the page leaves, the UDP controller gets in.
    @Test func aDatagramControllerFindsTheSlotThePageHolds() async throws {
        let rig = try await PipelineRig.start(maximum: 1)
        let loop = HostLoop(rig.host)
        let controllers = HostControllers(loop: loop, name: "test-host")
        // The page pings as a live page does, every second from the moment it opens, on the
        // host's own loop (where the backstop's timer runs too): however long a loaded machine
        // takes to resume this task and bring the UDP controller's hello (34 s once), the
        // backstop (10 s of silence; its own test is on virtual time above) never closes it.
        let eventLoop = loop.eventLoop
        let phone = try await loop.onLoop { pipeline, now -> (SessionID, RepeatedTask)? in
            guard let page = pipeline.open(from: .web(device: "phone", peer: nil), name: "phone", now: now) else { return nil }
            let pings = eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
                controllers.send(.heard, for: page)
            }
            return (page, pings)
        }
        let (page, pings) = try #require(phone)
        let plan = StreamPlan(source: SyntheticMotion(shape: .circle), rate: 50, duration: 5, presses: PressScript(presses: []))
        let refused = try await ClientService<PlainClientFraming>.start(
            host: rig.host.localAddress, sessionID: SessionID(0xC0FFEE), plan: plan, makeFraming: { PlainClientFraming() })
        var first: ClientEvent?
        for await e in refused.events { first = e; break }
        #expect(first == .disconnected(.full))
        await refused.close()
        pings.cancel()
        controllers.send(.close(.clientDisconnected(.user)), for: page)
        let admitted = try await ClientService<PlainClientFraming>.start(
            host: rig.host.localAddress, sessionID: SessionID(0xBEEF), plan: plan, makeFraming: { PlainClientFraming() })
        var next: ClientEvent?
        for await e in admitted.events { next = e; break }
        #expect(next == .connected)
        await admitted.close()
        await rig.stop()
    }
}
