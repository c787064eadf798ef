import RemotionProtocol
import Testing

/// Controllers on other transports (web, DSU) share the state machine's slots and its
/// release-on-close guarantee.
@Suite struct ExternalSessionTests {
    typealias Machine = HostStateMachine<String>
    var rng = SplitMix64(seed: 7)

    @Test mutating func externalSessionsCountTowardTheLimitAndTheirIdsAreNeverReused() throws {
        var c = Machine.Configuration()
        c.maximumSessions = 2
        var m = Machine(configuration: c)
        let (a, opened) = try #require(m.openExternal(from: .web(device: "1", peer: nil), now: .zero, random: &rng))
        #expect(opened == [.sessionOpened(a, .web(device: "1", peer: nil))])
        // One datagram session fits, then the host is full for both kinds.
        let ping = Message.ping(clientTimeMicros: 1, clockOffsetMicros: 0)
        #expect(m.receive(ping, session: SessionID(5), from: "udp:1", now: .zero).contains(.sessionOpened(SessionID(5), .udp("udp:1"))))
        #expect(m.openExternal(from: .web(device: "2", peer: "192.0.2.1"), now: .zero, random: &rng) == nil)
        #expect(m.receive(ping, session: SessionID(6), from: "udp:2", now: .zero) == [.send(.disconnect(.full), session: SessionID(6), to: "udp:2")])
        #expect(m.drops[.tooManySessions] == 2)
        // A datagram cannot claim an external session's id.
        #expect(m.receive(ping, session: a, from: "udp:3", now: .zero).isEmpty)
        #expect(m.drops[.unknownSession] == 1)
    }

    @Test mutating func buttonsAreDeliveredOnceAndReleasedWhenTheSessionEnds() throws {
        var m = Machine()
        let (id, _) = try #require(m.openExternal(from: .web(device: "phone", peer: nil), now: .zero, random: &rng))
        #expect(m.externalButton(id, .a, isDown: true, now: .zero) == [.button(id, .a, isDown: true)])
        #expect(m.externalButton(id, .a, isDown: true, now: .zero).isEmpty)
        #expect(m.externalButton(id, .c, isDown: true, now: .zero) == [.button(id, .c, isDown: true)])
        #expect(m.closeExternal(id, reason: .timedOut) == [
            .button(id, .a, isDown: false), .button(id, .c, isDown: false), .sessionClosed(id, .timedOut),
        ])
        #expect(m.closeExternal(id, reason: .timedOut).isEmpty)
        #expect(m.externalButton(id, .b, isDown: true, now: .zero).isEmpty)
    }

    @Test mutating func theMotionSamplesButtonStateIsTheTruth() throws {
        var m = Machine()
        let (id, _) = try #require(m.openExternal(from: .web(device: "phone", peer: nil), now: .zero, random: &rng))
        _ = m.externalButton(id, .a, isDown: true, now: .zero)
        // The page's edges for "A up, B down" were lost; the sample says B is held.
        let sample = MotionSample(timestampMicros: 10, buttons: ButtonSet([.b]))
        #expect(m.externalMotion(id, sample, latencyMicros: 3, now: .zero) == [
            .button(id, .a, isDown: false), .button(id, .b, isDown: true), .motion(id, sample, latencyMicros: 3),
        ])
    }

    @Test mutating func shutdownReleasesExternalSessionsToo() throws {
        var m = Machine()
        let (id, _) = try #require(m.openExternal(from: .dsu(server: "127.0.0.1:26760", slot: 0), now: .zero, random: &rng))
        _ = m.externalButton(id, .e, isDown: true, now: .zero)
        #expect(m.shutdown() == [.button(id, .e, isDown: false), .sessionClosed(id, .hostShutdown)])
        #expect(m.sessionCount == 0)
    }

    /// Issue 25 item 3: a transport that never ends its session (a WebSocket whose
    /// watchdog is stuck on a phone that stopped reading) must not keep a button held.
    @Test mutating func theBackstopClosesASilentExternalSessionAndReleasesItsButtons() throws {
        var c = Machine.Configuration()
        c.externalTimeout = .seconds(10)
        var m = Machine(configuration: c)
        let (quiet, _) = try #require(m.openExternal(from: .web(device: "quiet", peer: nil), now: .zero, random: &rng))
        let (alive, _) = try #require(m.openExternal(from: .localPad("/dev/input/js0"), now: .zero, random: &rng))
        _ = m.externalButton(quiet, .a, isDown: true, now: .seconds(1))
        #expect(m.nextDeadline == .seconds(10), "the oldest external session's silence limit")
        // Keep-alives (the page's pings) keep an idle session open; edges and motion too.
        for t in stride(from: 2.0, through: 11, by: 1) { m.externalHeard(alive, now: .seconds(t)) }
        #expect(m.tick(now: .seconds(10.5)).isEmpty, "the quiet one was heard at 1 s")
        #expect(m.tick(now: .seconds(11)) == [.button(quiet, .a, isDown: false), .sessionClosed(quiet, .timedOut)])
        #expect(m.externalSessions[alive] != nil && m.externalSessions[quiet] == nil)
        #expect(m.nextDeadline == .seconds(21))
        #expect(m.externalButton(quiet, .a, isDown: true, now: .seconds(12)).isEmpty, "nothing reaches a closed session")
    }

    @Test mutating func anExternalSessionKeepsItsOrigin() throws {
        var m = Machine()
        let origin = ControllerOrigin<String>.dsu(server: "10.0.0.2:26760", slot: 3)
        let (id, opened) = try #require(m.openExternal(from: origin, now: .zero, random: &rng))
        #expect(opened == [.sessionOpened(id, origin)])
        #expect(m.externalSessions[id]?.origin == origin)
        #expect(origin.address == "10.0.0.2:26760" && origin.kind == "dsu")
        #expect(ControllerOrigin<String>.web(device: "d", peer: nil).address == nil)
        #expect(ControllerOrigin<String>.localPad("js0").address == nil)
    }
}
