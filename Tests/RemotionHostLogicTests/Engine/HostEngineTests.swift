import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The host's engine with scripted controllers of every origin on virtual time
/// (`EngineHarness`): one table and one set of rules for a datagram session, the page, a
/// DSU slot and a local pad.
@Suite struct HostEngineTests {
    typealias Address = EngineHarness.Address
    static let phone = Address(host: "192.0.2.7", port: 51_234)
    static let dsuServer = Address(host: "127.0.0.1", port: 26_760)
    static let udp = SessionID(77)

    /// Turning about the phone's z axis at `radians` per second, at `micros` on its own clock.
    static func turn(_ radians: Float, at micros: UInt64, buttons: ButtonSet = .none) -> MotionSample {
        MotionSample(timestampMicros: micros, gyro: Vector3(x: 0, y: 0, z: radians), buttons: buttons)
    }

    /// Four players of four origins at once: each gets its own pad, made as it connects;
    /// each pad turns with its own controller's gyro and holds only its own controller's
    /// buttons; a player who leaves rests and removes only their pad.
    @Test func everyOriginGetsItsOwnPadAndNothingOfAnothers() throws {
        var h = EngineHarness()
        let players = try h.openOneOfEach(udp: Self.udp, from: Self.phone, dsu: Self.dsuServer)
        let (web, dsu, pad) = (players[1], players[2], players[3])
        #expect(h.opened == players)
        let identities = players.map { id in h.outputs(id).compactMap { if case let .padOpened(i) = $0 { i } else { nil } } }
        #expect(identities == [["address:192.0.2.7"], ["device:phone-2"], ["dsu:127.0.0.1:1"], ["pad:event7"]])

        for step in 1...5 {
            let t = UInt64(step) * 4_000
            h.now = h.now + .milliseconds(4)
            h.motion(Self.udp, from: Self.phone, Self.turn(1, at: t))
            h.send(.motion(Self.turn(2, at: t, buttons: ButtonSet([.a])), latencyMicros: nil), to: web)
            h.send(.motion(Self.turn(3, at: t), latencyMicros: nil), to: dsu)
            h.send(.motion(Self.turn(4, at: t), latencyMicros: nil), to: pad)
        }
        for (k, id) in players.enumerated() {
            let last = try #require(h.padStates(id).last)
            let expected = Float(k + 1) * 180 / .pi
            #expect(abs(last.motion.angularRate.y - expected) < 0.01, "player \(k + 1)'s pad turns with its own gyro")
            #expect(last.buttons == (id == web ? [.cross] : []), "only the page holds A, so only its pad shows Cross")
        }

        h.clear()
        h.send(.close(.clientDisconnected(.user)), to: web)
        #expect(h.outputs(web).contains(.releaseHeld))
        guard case let .padClosed(rest)? = h.outputs(web).last else { Issue.record("no rest for the page's pad: \(h.log)"); return }
        #expect(rest.isAtRest)
        #expect(h.closed.map(\.0) == [web])
        #expect(players.filter { $0 != web }.allSatisfy { h.outputs($0).isEmpty }, "the other pads are untouched")
    }

    /// Slots are one number for every origin: a datagram session and the page fill a host
    /// of two, so the DSU slot and a second datagram controller are refused.
    @Test func theSlotsAreSharedByEveryOrigin() throws {
        var h = EngineHarness(pads: nil, maximum: 2)
        h.connect(Self.udp, from: Self.phone)
        let openedOne = h.open(.web(device: "phone-2", peer: nil))
        _ = try #require(openedOne)
        #expect(h.open(.dsu(server: Self.dsuServer, slot: 0)) == nil)
        #expect(h.engine.refusedFull == 1)
        let other = Address(host: "192.0.2.8", port: 4_000)
        var actions: [HostAction<Address>] = []
        h.wire.sessionsElsewhere = h.engine.sessionsElsewhere
        h.wire.receive(.ping(clientTimeMicros: 1, clockOffsetMicros: 0), session: SessionID(78), from: other, now: h.now,
                       into: &actions)
        #expect(actions == [.send(.disconnect(.full), session: SessionID(78), to: other)])
        #expect(h.engine.core.sessions.count == 2)
    }

    /// A fast user switch silences every output the same way: each pad shows rest, the
    /// observers see every session close; while suspended no pad state and no observed sample
    /// leaves the engine; on resume the observers see them open again and the pads follow.
    @Test func aSuspendedHostSilencesEveryPadAndObserver() throws {
        var h = EngineHarness()
        h.connect(Self.udp, from: Self.phone)
        let openedWeb = h.open(.web(device: "phone-2", peer: nil))
        let web = try #require(openedWeb)
        h.send(.button(.a, isDown: true), to: web)
        h.clear()

        h.setSuspended(true)
        for id in [Self.udp, web] {
            #expect(h.padStates(id).count == 1 && h.padStates(id).allSatisfy(\.isAtRest), "rest, once")
            #expect(h.observed(id) == [.closed])
        }
        h.clear()
        h.now = h.now + .milliseconds(10)
        h.motion(Self.udp, from: Self.phone, Self.turn(1, at: 10_000))
        h.send(.motion(Self.turn(1, at: 10_000, buttons: ButtonSet([.a])), latencyMicros: nil), to: web)
        h.send(.button(.b, isDown: true), to: web)
        #expect(h.padStates(Self.udp).isEmpty && h.padStates(web).isEmpty, "no pad reports while suspended")
        #expect(h.observed(Self.udp).isEmpty && h.observed(web).isEmpty, "nothing observed while suspended")
        let observedSamples = h.log.compactMap { if case let .sample(_, m) = $0 { m.sample } else { nil } }
        #expect(observedSamples.isEmpty)

        h.setSuspended(false)
        #expect(h.observed(Self.udp) == [.opened(.udp(Self.phone))])
        #expect(h.observed(web) == [.opened(.web(device: "phone-2", peer: nil))])
        h.clear()
        h.now = h.now + .milliseconds(10)
        h.send(.motion(Self.turn(1, at: 20_000, buttons: ButtonSet([.a, .b])), latencyMicros: nil), to: web)
        let state = try #require(h.padStates(web).last)
        #expect(!state.buttons.isEmpty, "the pad shows what is really held again")
    }

    /// A controller's own clock is data: a far-future sample time from any origin traps
    /// nothing, and the pad's next states are on the host's clock, near now.
    @Test func aFarFutureTimestampFromAnyOriginLeavesThePadsOnTheHostsClock() throws {
        var h = EngineHarness()
        h.now = Instant.zero + .seconds(100)
        let players = try h.openOneOfEach(udp: Self.udp, from: Self.phone, dsu: Self.dsuServer)
        let (web, dsu, pad) = (players[1], players[2], players[3])
        let far = UInt64.max - 1
        h.motion(Self.udp, from: Self.phone, Self.turn(1, at: far))
        for id in [web, dsu, pad] { h.send(.motion(Self.turn(1, at: far), latencyMicros: Int64.max), to: id) }
        for step in 1...50 {
            h.now = h.now + .milliseconds(4)
            let t = UInt64(step) * 4_000
            h.motion(Self.udp, from: Self.phone, Self.turn(1, at: t))
            for id in [web, dsu, pad] { h.send(.motion(Self.turn(1, at: t), latencyMicros: nil), to: id) }
        }
        for id in players {
            let last = try #require(h.padStates(id).last)
            #expect(last.motion.time <= h.now + .seconds(1) && last.motion.time >= h.now - .seconds(1),
                    "\(id): the pad's time \(last.motion.time) is the host's, near \(h.now)")
        }
    }

    /// The backstop: a host stall (its loop blocked 12 s) closes nobody, while 10 s of a
    /// controller's real silence closes it with everything it held released.
    @Test func aHostStallClosesNobodyButSilenceDoes() throws {
        var h = EngineHarness(pads: nil)
        let openedWeb = h.open(.web(device: "phone-2", peer: nil))
        let web = try #require(openedWeb)
        let openedPad = h.open(.localPad("event7"))
        let pad = try #require(openedPad)
        h.send(.button(.a, isDown: true), to: web)
        h.advance(by: .milliseconds(500))
        h.clear()
        h.advance(by: .seconds(12), stalled: true)
        #expect(h.closed.isEmpty, "the host's own stall is not the controllers' silence")
        h.send(.heard, to: pad)
        h.advance(by: .seconds(9))
        #expect(h.closed.isEmpty)
        h.send(.heard, to: pad)
        h.advance(by: .seconds(2))
        #expect(h.closed.map(\.0) == [web] && h.closed.first?.1 == .timedOut, "the silent page, not the heard pad")
        let released = h.outputs(web)
        #expect(released.contains(.input(.button(.left, down: false))) && released.last == .releaseHeld,
                "A released (the standard map clicks left), then everything else it held: \(released)")
        #expect(h.engine.sessionsElsewhere == [pad])
    }

    /// The engine's deadline is the earliest of its own: nothing open, nothing to wait for;
    /// an open controller, a heartbeat within a second.
    @Test func itsDeadlineIsItsOwnAndBounded() throws {
        var h = EngineHarness(pads: nil)
        #expect(h.engine.nextDeadline == nil)
        let openedOne = h.open(.localPad("event7"))
        _ = try #require(openedOne)
        let deadline = try #require(h.engine.nextDeadline)
        #expect(deadline > h.now && deadline <= h.now + .seconds(10))
        h.advance(by: .seconds(1))
        #expect(try #require(h.engine.nextDeadline) <= h.now + .seconds(1))
    }

    /// A game lights the page's pad, then rumbles it 10 ms later for 400 ms, while the page
    /// sends nothing (a phone lying still, or a network that delivers in bursts — the page in
    /// the emulated guest of scripts/page-guest-test.sh lost its rumble this way): the rumble
    /// held back by the pacer's minimum interval goes at its deadline from the engine's timer,
    /// its refresh too, and its end; none of them waits for a sample.
    @Test func aRumbleHeldBackGoesFromTheTimerWithoutASample() throws {
        var h = EngineHarness()
        let opened = h.open(.web(device: "phone-2", peer: nil))
        let web = try #require(opened)
        let blue = FeedbackChange(lightbar: .init(red: 0, green: 0, blue: 255))
        // A parameter, not a capture: a captured `h` is one boxed variable, and the calls below
        // that modify two of its fields at once would be overlapping accesses to it.
        func feedback(_ h: EngineHarness) -> [ControllerFeedback] {
            h.outputs(web).compactMap { if case let .feedback(f) = $0 { f } else { nil } }
        }
        h.engine.padFeedback(web, blue, now: h.now, into: &h.log)
        h.advance(by: .milliseconds(10))
        h.engine.padFeedback(web, FeedbackChange(rumble: .init(low: 255, high: 128)), now: h.now, into: &h.log)
        #expect(feedback(h).count == 1, "the light at once, the rumble held back")
        h.advance(by: .milliseconds(39))
        #expect(feedback(h).count == 1)
        h.advance(by: .milliseconds(1))
        let rumble = ControllerFeedback(rumbleLow: 255, rumbleHigh: 128, lightbar: .init(red: 0, green: 0, blue: 255))
        #expect(feedback(h) == [ControllerFeedback(lightbar: .init(red: 0, green: 0, blue: 255)), rumble], "at 50 ms")
        h.advance(by: .milliseconds(360))
        h.engine.padFeedback(web, FeedbackChange(rumble: .init(low: 0, high: 0)), now: h.now, into: &h.log)
        h.advance(by: .seconds(2))
        #expect(feedback(h).dropFirst() == [rumble, ControllerFeedback(lightbar: .init(red: 0, green: 0, blue: 255))],
                "the rumble's end, once; no refresh after it")
    }
}
