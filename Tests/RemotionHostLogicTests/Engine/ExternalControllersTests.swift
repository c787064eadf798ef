import RemotionHostLogic
import RemotionProtocol
import Testing

/// Controllers on other transports (web, DSU, local pads) in the host's engine: slots shared
/// with the datagram sessions, ids never a datagram session's, edges once, the sample's
/// buttons the truth, everything released when one ends — also when its transport never ends it.
@Suite struct ExternalControllersTests {
    typealias Table = ExternalControllers<String>
    var rng = SplitMix64(seed: 7)

    @Test mutating func theyShareTheHostsSlotsWithTheDatagramSessionsAndNeverTakeTheirIds() throws {
        var t = Table()
        let datagram: Set<SessionID> = [SessionID(5)]
        func taken(_ id: SessionID) -> Bool { datagram.contains(id) }
        let (a, opened) = try #require(t.open(from: .web(device: "1", peer: nil), now: .zero, maximum: 2,
                                              datagramSessions: 1, taken: taken, random: &rng))
        #expect(opened == [.sessionOpened(a, .web(device: "1", peer: nil))])
        #expect(a != SessionID(5) && a.rawValue != 0)
        // One datagram session and one here: the host is full.
        #expect(t.open(from: .web(device: "2", peer: "192.0.2.1"), now: .zero, maximum: 2, datagramSessions: 1,
                       taken: taken, random: &rng) == nil)
        #expect(t.refusedFull == 1)
        // Ids a datagram session holds are drawn again: the first three draws are taken.
        var asked: [SessionID] = []
        let (b, _) = try #require(t.open(from: .localPad("js0"), now: .zero, maximum: 3, datagramSessions: 1,
                                         taken: { asked.append($0); return asked.count <= 3 }, random: &rng))
        #expect(asked.count == 4 && asked.last == b && b != a)
        #expect(t.ids == [a, b])
    }

    @Test mutating func buttonsAreDeliveredOnceAndReleasedWhenItEnds() throws {
        var t = Table()
        let (id, _) = try #require(t.open(from: .web(device: "phone", peer: nil), now: .zero, maximum: 16,
                                          datagramSessions: 0, taken: { _ in false }, random: &rng))
        #expect(t.button(id, .a, isDown: true, now: .zero) == [.button(id, .a, isDown: true)])
        #expect(t.button(id, .a, isDown: true, now: .zero).isEmpty)
        #expect(t.button(id, .c, isDown: true, now: .zero) == [.button(id, .c, isDown: true)])
        #expect(t.close(id, reason: .timedOut) == [
            .button(id, .a, isDown: false), .button(id, .c, isDown: false), .sessionClosed(id, .timedOut),
        ])
        #expect(t.close(id, reason: .timedOut).isEmpty)
        #expect(t.button(id, .b, isDown: true, now: .zero).isEmpty)
    }

    @Test mutating func theMotionSamplesButtonStateIsTheTruth() throws {
        var t = Table()
        let (id, _) = try #require(t.open(from: .web(device: "phone", peer: nil), now: .zero, maximum: 16,
                                          datagramSessions: 0, taken: { _ in false }, random: &rng))
        _ = t.button(id, .a, isDown: true, now: .zero)
        // The page's edges for "A up, B down" were lost; the sample says B is held.
        let sample = MotionSample(timestampMicros: 10, buttons: ButtonSet([.b]))
        #expect(t.motion(id, sample, latencyMicros: 3, now: .zero) == [
            .button(id, .a, isDown: false), .button(id, .b, isDown: true), .motion(id, sample, latencyMicros: 3),
        ])
        // A latency no shared clock can give is not one.
        #expect(t.motion(id, sample, latencyMicros: 86_400_000_000, now: .zero) == [.motion(id, sample, latencyMicros: nil)])
    }

    @Test mutating func closeAllReleasesEveryController() throws {
        var t = Table()
        let (id, _) = try #require(t.open(from: .dsu(server: "127.0.0.1:26760", slot: 0), now: .zero, maximum: 16,
                                          datagramSessions: 0, taken: { _ in false }, random: &rng))
        _ = t.button(id, .e, isDown: true, now: .zero)
        #expect(t.closeAll(reason: .hostShutdown) == [.button(id, .e, isDown: false), .sessionClosed(id, .hostShutdown)])
        #expect(t.count == 0)
    }

    /// A transport that never ends its controller (a WebSocket whose watchdog is stuck on a
    /// phone that stopped reading) must not keep a button held.
    @Test mutating func theBackstopClosesASilentControllerAndReleasesItsButtons() throws {
        var t = Table()
        t.timeout = .seconds(10)
        let (quiet, _) = try #require(t.open(from: .web(device: "quiet", peer: nil), now: .zero, maximum: 16,
                                             datagramSessions: 0, taken: { _ in false }, random: &rng))
        let (alive, _) = try #require(t.open(from: .localPad("/dev/input/js0"), now: .zero, maximum: 16,
                                             datagramSessions: 0, taken: { _ in false }, random: &rng))
        _ = t.button(quiet, .a, isDown: true, now: .seconds(1))
        #expect(t.nextDeadline == .seconds(2), "the heartbeat: a second after the host last ran")
        // Keep-alives (the page's pings) keep an idle controller open; edges and motion too.
        for s in stride(from: 2.0, through: 11, by: 1) { t.heard(alive, now: .seconds(s)) }
        #expect(t.expire(now: .seconds(10.5)).isEmpty, "the quiet one was heard at 1 s")
        #expect(t.expire(now: .seconds(11)) == [.button(quiet, .a, isDown: false), .sessionClosed(quiet, .timedOut)])
        #expect(t.controllers[alive] != nil && t.controllers[quiet] == nil)
        #expect(t.nextDeadline == .seconds(12), "the heartbeat (the alive one's limit: 21 s)")
        #expect(t.button(quiet, .a, isDown: true, now: .seconds(12)).isEmpty, "nothing reaches a closed controller")
    }

    /// The host itself stopped running (its loop blocked draining a loaded pad's backlog, a
    /// starved machine): that time is not the controllers' silence. Seen in a TCG guest: a
    /// local pad read all along was closed as silent, and stayed dead until plugged in again.
    @Test mutating func aStalledHostDoesNotCloseItsControllers() throws {
        var t = Table()
        t.timeout = .seconds(10)
        let (pad, _) = try #require(t.open(from: .localPad("/dev/input/event4"), now: .zero, maximum: 16,
                                           datagramSessions: 0, taken: { _ in false }, random: &rng))
        _ = t.button(pad, .a, isDown: true, now: .seconds(1))
        // The heartbeats at 2 and 3 s, then nothing runs for 12 s (every event of the drain
        // carried the time it began, 3 s).
        #expect(t.expire(now: .seconds(2)).isEmpty && t.expire(now: .seconds(3)).isEmpty)
        #expect(t.expire(now: .seconds(15)).isEmpty, "a 12 s stall of the host is not 10 s of silence")
        #expect(t.controllers[pad]?.lastHeard == .seconds(13))
        // Awake again, the pad's silence counts from where the stall left it.
        for s in 16...22 { #expect(t.expire(now: .seconds(Double(s))).isEmpty) }
        #expect(t.expire(now: .seconds(23)) == [.button(pad, .a, isDown: false), .sessionClosed(pad, .timedOut)])
    }

    /// Times never go backwards here, but a caller's stale `now` (an older one after a newer
    /// one) neither counts as a stall nor moves the host's clock back.
    @Test mutating func anOlderTimeIsNeitherAStallNorAClockStep() throws {
        var t = Table()
        let (pad, _) = try #require(t.open(from: .localPad("/dev/input/event4"), now: .seconds(5), maximum: 16,
                                           datagramSessions: 0, taken: { _ in false }, random: &rng))
        t.heard(pad, now: .seconds(1))
        #expect(t.nextDeadline == .seconds(6))
        #expect(t.expire(now: .seconds(6)).isEmpty)
        #expect(t.controllers[pad]?.lastHeard == .seconds(1))
    }

    @Test mutating func aControllerKeepsItsOrigin() throws {
        var t = Table()
        let origin = ControllerOrigin<String>.dsu(server: "10.0.0.2:26760", slot: 3)
        let (id, opened) = try #require(t.open(from: origin, now: .zero, maximum: 16, datagramSessions: 0,
                                               taken: { _ in false }, random: &rng))
        #expect(opened == [.sessionOpened(id, origin)])
        #expect(t.controllers[id]?.origin == origin)
        #expect(origin.address == "10.0.0.2:26760" && origin.kind == "dsu")
        #expect(ControllerOrigin<String>.web(device: "d", peer: nil).address == nil)
        #expect(ControllerOrigin<String>.localPad("js0").address == nil)
    }
}
