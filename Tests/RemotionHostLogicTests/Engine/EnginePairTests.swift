import Testing
import RemotionHostFuzzChecks
import RemotionProtocol
import RemotionHostLogic

/// The engine with every transport's session machine in front of it, on virtual time
/// (`EnginePair`, after quinn-proto's `Pair`): UDP controllers through real Noise IK and the
/// wire machine, a page through `WebSession`, DSU servers through the DSU source machine,
/// local pads through `LocalPad`. Each test asserts what reaches the outputs.
@Suite struct EnginePairTests {
    static let phone = PeerAddress(192, 0, 2, 7, port: 51_234)
    static let otherPhone = PeerAddress(192, 0, 2, 8, port: 40_000)
    static let dsuServer = PeerAddress(127, 0, 0, 1, port: 26_760)

    /// A sample turning about z at `radians` per second, at `micros` on its controller's clock.
    static func turn(_ radians: Float, at micros: UInt64) -> MotionSample {
        MotionSample(timestampMicros: micros, gyro: Vector3(x: 0, y: 0, z: radians), acceleration: Vector3(x: 0, y: 0, z: 1))
    }

    /// The pad states recorded for `id`, in order.
    static func padStates(_ pair: EnginePair, _ id: SessionID) -> [GamepadState] {
        pair.records.compactMap { if case let .pad(s, state) = $0, s == id { state } else { nil } }
    }

    /// The events the injector posted for `id`, in order.
    static func injected(_ pair: EnginePair, _ id: SessionID) -> [InputEvent] {
        pair.records.compactMap { if case let .injected(s, e) = $0, s == id { e } else { nil } }
    }

    /// The time of the first record matching `body`.
    static func time(_ pair: EnginePair, _ body: (PairRecord) -> Bool) -> Instant? {
        pair.log.first { body($0.what) }?.at
    }

    /// One controller of each origin on one engine of four slots: a UDP phone after its Noise
    /// handshake, a page, a DSU server's slot 0 and a local pad. A fifth of any origin is
    /// refused (the UDP one is told `full`, sealed for it), and all four turn at once: each
    /// pad turns with its own controller's gyro, on the host's clock.
    @Test func everyOriginAtOnceSharesTheSlotsAndTheClock() throws {
        let pair = EnginePair(maximum: 4)
        let udp = pair.addUDPPeer(at: Self.phone)
        #expect(pair.udpConnect(udp))
        let page = pair.openPage(device: "phone-2", peer: Self.otherPhone)
        let dsu = pair.addDSUServer(at: Self.dsuServer)
        pair.dsuPad(dsu, slot: 0, timestampMicros: 1_000)
        let padID = pair.plugPad("event7")
        #expect(pair.sessionCount == 4)
        let ids = pair.records.compactMap { if case let .opened(id, _) = $0 { id } else { nil } }
        #expect(ids.count == 4 && Set(ids).count == 4)
        let udpID = ids[0]
        let pageID = try #require(pair.pages[page].id)
        let dsuID = try #require(pair.dsuSources[dsu].sessions[0])
        let localID = try #require(padID)

        // The fifth controller, of each origin, finds the slots taken.
        let late = pair.addUDPPeer(at: PeerAddress(192, 0, 2, 9, port: 1_000))
        pair.udpConnect(late)
        #expect(pair.udpPeers[late].received.contains(.disconnect(.full)), "told, sealed with its own keys")
        let latePage = pair.openPage(device: "phone-3")
        #expect(pair.pages[latePage].id == nil)
        #expect(pair.plugPad("event9") == nil)
        pair.dsuPad(dsu, slot: 1, timestampMicros: 1_000)
        #expect(pair.dsuSources[dsu].sessions[1] == nil)
        #expect(pair.sessionCount == 4 && pair.wire.sessions.count == 1)

        pair.clearLog()
        for step in 1...10 {
            pair.advance(by: .milliseconds(4))
            let t = UInt64(step) * 4_000
            pair.udpMotion(udp, Self.turn(1, at: t))
            pair.pageMotion(page, Self.turn(2, at: t))
            pair.dsuPad(dsu, slot: 0, timestampMicros: 1_000 + t, gyro: DSUGyro(pitch: 0, yaw: 3 * 180 / .pi, roll: 0))
            pair.padMotion("event7", raw: [0, 0, 8192, 0, 0, Int32(4 * 180 / Float.pi * 1024)], timestampMicros: UInt32(t))
        }
        for (k, id) in [udpID, pageID, dsuID, localID].enumerated() {
            let states = Self.padStates(pair, id)
            let last = try #require(states.last, "controller \(k + 1) reached its pad")
            let r = last.motion.angularRate
            let rate = (r.x * r.x + r.y * r.y + r.z * r.z).squareRoot()
            #expect(abs(rate - Float(k + 1) * 180 / .pi) < 1, "controller \(k + 1)'s pad turns with its own gyro: \(r)")
            #expect(last.motion.time <= pair.now && last.motion.time >= pair.now - .milliseconds(100),
                    "controller \(k + 1)'s pad is on the host's one clock: \(last.motion.time) at \(pair.now)")
        }
        #expect(pair.log.map(\.at) == pair.log.map(\.at).sorted(), "everything recorded in the order of its time")
        #expect(pair.problems.isEmpty, "\(pair.problems)")
    }

    /// A UDP controller that falls silent is closed at the wire machine's deadline — its
    /// last datagram plus the timeout — by virtual time alone: the pair fires the timers the
    /// machines ask for and nothing else; the button it held is released at that moment.
    @Test func aSilentUDPControllerEndsAtItsDeadlineByVirtualTimeAlone() throws {
        let pair = EnginePair(pads: nil)
        let udp = pair.addUDPPeer(at: Self.phone)
        #expect(pair.udpConnect(udp))
        pair.advance(by: .milliseconds(100))
        pair.udpButton(udp, .a, isDown: true)
        let lastHeard = pair.now
        #expect(pair.udpPeers[udp].received.contains(.ack(Ack(cumulative: 1, selective: 0))), "the press acknowledged, sealed")
        let id = try #require(pair.wire.sessions.keys.first)
        #expect(Self.injected(pair, id) == [.button(.left, down: true)])

        let timeout = pair.wire.configuration.timeout
        pair.advance(by: timeout - .milliseconds(1))
        #expect(pair.wire.sessions[id] != nil && pair.heldInputs.count == 1, "still open a millisecond before")
        pair.advance(by: .milliseconds(1))
        let closedAt = try #require(Self.time(pair) { if case .closed(id, .timedOut) = $0 { true } else { false } })
        #expect(closedAt == lastHeard + timeout)
        #expect(Self.injected(pair, id) == [.button(.left, down: true), .button(.left, down: false)])
        #expect(Self.time(pair) { $0 == .injected(id, .button(.left, down: false)) } == closedAt)
        #expect(pair.heldInputs.isEmpty && pair.sessionCount == 0)
        // Its keys went with the session: a datagram it still sends opens nothing.
        pair.udpMotion(udp, Self.turn(1, at: 9_000_000))
        #expect(pair.sessionCount == 0 && pair.problems.isEmpty, "\(pair.problems)")
    }

    /// A page on data channels that the host ends says goodbye and its transport stops at
    /// the linger deadline, by virtual time alone.
    @Test func aDataChannelPageStopsAtItsLingerDeadline() throws {
        let pair = EnginePair(pads: nil)
        let page = pair.openPage(device: "phone-2", transport: .dataChannels)
        pair.pageButton(page, .a, isDown: true)
        let endedAt = pair.now
        pair.pageCloses(page, .timedOut)
        #expect(pair.records.contains { if case .toPage(page, .text(_, on: .control)) = $0 { true } else { false } })
        #expect(!pair.records.contains(.toPage(page, .stopped)))
        pair.advance(by: .seconds(1))
        #expect(Self.time(pair) { $0 == .toPage(page, .stopped) } == endedAt + WebSession.linger)
        #expect(pair.heldInputs.isEmpty && pair.problems.isEmpty)
    }

    /// Each origin holds a different button and vanishes its own way — the UDP phone falls
    /// silent, the page's socket closes, the DSU server stops sending, the pad is unplugged,
    /// a second page's transport hangs (the engine's backstop ends it) — and each release
    /// reaches the injector before its session's end; nothing is left down, no pad is left.
    @Test func whatEveryOriginHeldIsReleasedWhenItVanishes() throws {
        for pads in [nil, VirtualPadSettings(forEvery: true)] {
            let pair = EnginePair(pads: pads)
            let udp = pair.addUDPPeer(at: Self.phone)
            #expect(pair.udpConnect(udp))
            let page = pair.openPage(device: "phone-2", peer: Self.otherPhone)
            let stuck = pair.openPage(device: "phone-3", transport: .dataChannels)
            let dsu = pair.addDSUServer(at: Self.dsuServer)
            pair.dsuPad(dsu, slot: 2, timestampMicros: 1_000)
            pair.plugPad("event7")
            pair.udpButton(udp, .a, isDown: true)
            pair.pageButton(page, .b, isDown: true)
            pair.pageButton(stuck, .e, isDown: true)
            pair.dsuPad(dsu, slot: 2, timestampMicros: 2_000, buttons: DSUButtons([.dpadLeft]))
            pair.padKey("event7", EvdevCode.btnDpadRight, down: true)
            // Each turns as it goes, so its pad's last state is not rest.
            pair.advance(by: .milliseconds(4))
            pair.udpMotion(udp, Self.turn(1, at: 4_000))
            pair.pageMotion(page, Self.turn(1, at: 4_000))
            pair.pageMotion(stuck, Self.turn(1, at: 4_000))
            pair.dsuPad(dsu, slot: 2, timestampMicros: 6_000, gyro: DSUGyro(pitch: 0, yaw: 90, roll: 0),
                        buttons: DSUButtons([.dpadLeft]))
            pair.padMotion("event7", raw: [0, 0, 8192, 0, 0, 90 * 1024], timestampMicros: 4_000)
            #expect(pair.sessionCount == 5)
            if pads == nil {
                #expect(pair.heldInputs == [.mouse(.left), .mouse(.right), .key(.up), .key(.left), .key(.right)],
                        "\(pair.heldInputs)")
            } else {
                #expect(pair.openPads.count == 5 && pair.openPads.values.allSatisfy { !$0.buttons.isEmpty || !$0.dpad.isEmpty },
                        "each pad shows what its controller holds: \(pair.openPads)")
                #expect(pair.openPads.values.allSatisfy { !$0.isAtRest }, "each pad turning")
            }

            pair.pageCloses(page, .closedByPage)
            pair.unplugPad("event7")
            for _ in 0..<12 {            // the others keep nothing alive for 12 s
                pair.advance(by: .seconds(1))
            }
            #expect(pair.sessionCount == 0 && pair.counts.closed == 5)
            #expect(pair.heldInputs.isEmpty, "nothing left down: \(pair.heldInputs)")
            #expect(pair.openPads.isEmpty, "no pad left")
            let stuckID = try #require(pair.records.compactMap { if case let .opened(id, .web("phone-3", _)) = $0 { id } else { nil } }.first)
            #expect(pair.records.contains(.closed(stuckID, .timedOut)) && pair.records.contains(.toPage(stuck, .ended(.timedOut))),
                    "the hung page is ended by the backstop and its transport told")
            // Every session's releases reached the outputs before its end (checked as they went).
            #expect(pair.problems.isEmpty, "\(pair.problems)")
            if pads == nil {
                let releases = pair.records.filter {
                    switch $0 {
                    case .injected(_, .button(_, down: false)), .injected(_, .key(_, down: false)): true
                    default: false
                    }
                }
                #expect(releases.count == 5, "every held input released once: \(releases)")
            } else {
                let rests = pair.records.compactMap { if case let .padClosed(_, rest) = $0 { rest } else { nil } }
                #expect(rests.count == 5 && rests.allSatisfy(\.isAtRest))
            }
        }
    }

    /// A DSU slot and a local pad, their samples interleaved, feed the one pad output in the
    /// order they came, each to its own pad, each pad's states in time order.
    @Test func aDSUSlotAndALocalPadFeedThePadOutputInOrder() throws {
        let pair = EnginePair()
        let dsu = pair.addDSUServer(at: Self.dsuServer)
        pair.dsuPad(dsu, slot: 0, timestampMicros: 1_000)
        let localID = try #require(pair.plugPad("event7"))
        let dsuID = try #require(pair.dsuSources[dsu].sessions[0])
        pair.clearLog()
        var expected: [SessionID] = []
        for step in 1...20 {
            pair.advance(by: .milliseconds(4))
            let t = UInt64(step) * 4_000
            if step % 3 != 0 {
                pair.dsuPad(dsu, slot: 0, timestampMicros: 1_000 + t, gyro: DSUGyro(pitch: 0, yaw: Float(step), roll: 0))
                expected.append(dsuID)
            }
            pair.padMotion("event7", raw: [0, 0, 8192, 0, 0, Int32(step) * 2048], timestampMicros: UInt32(t))
            expected.append(localID)
        }
        let states = pair.log.compactMap { e -> (SessionID, GamepadState, Instant)? in
            if case let .pad(id, state) = e.what { (id, state, e.at) } else { nil }
        }
        #expect(states.map(\.0) == expected, "one state per sample, in the order the samples came")
        for id in [dsuID, localID] {
            let mine = states.filter { $0.0 == id }
            #expect(mine.map(\.1.motion.time) == mine.map(\.1.motion.time).sorted(), "\(id)'s states in time order")
            let rates = mine.map { ($0.1.motion.angularRate.x * $0.1.motion.angularRate.x
                                    + $0.1.motion.angularRate.y * $0.1.motion.angularRate.y
                                    + $0.1.motion.angularRate.z * $0.1.motion.angularRate.z).squareRoot() }
            #expect(rates == rates.sorted() && rates.last! > rates.first!, "\(id)'s own gyro, turning faster: \(rates)")
        }
        #expect(pair.problems.isEmpty, "\(pair.problems)")
    }

    /// Malformed input of every origin is dropped where it comes in — a UDP phone's sealed
    /// press changed in one byte and a stranger's bytes (the Noise layer), a page's cut BUTTON
    /// frame and a press on its motion channel, a DSU packet whose checksum fails, a pad's
    /// keys Remotion does not map (R3, a code no pad has) — and nothing reaches an output; every session stays, and each
    /// one's next good press goes through.
    @Test func malformedInputOfEveryOriginReachesNoOutput() throws {
        let pair = EnginePair(pads: nil)
        let udp = pair.addUDPPeer(at: Self.phone)
        #expect(pair.udpConnect(udp))
        let page = pair.openPage(device: "phone-2", transport: .dataChannels)
        let dsu = pair.addDSUServer(at: Self.dsuServer)
        pair.dsuPad(dsu, slot: 0, timestampMicros: 1_000)
        pair.plugPad("event7")
        pair.clearLog()

        let dropped = pair.noiseDrops
        pair.udpTampered(udp, .buttons([ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 0)]), flip: 20, with: 0x40)
        pair.receiveDatagram([0x52, 1, 4, 0] + [UInt8](repeating: 0xAA, count: 40), from: PeerAddress(198, 51, 100, 1, port: 9))
        #expect(pair.noiseDrops == dropped + 2)
        pair.pageFrame(page, [0x02, 0, 1])
        pair.pageFrame(page, [0x02, 1, 1, 0, 2, 0, 0, 0], on: .motion)
        var bad = EnginePair.dsuPadData(slot: 0, counter: 50, timestampMicros: 2_000, buttons: DSUButtons([.cross]))
        bad[bad.count - 1] ^= 0xFF
        pair.dsuDatagram(dsu, bad)
        pair.padKey("event7", EvdevCode.btnThumbR, down: true)
        pair.padKey("event7", 0xFFFF, down: true)
        #expect(!pair.records.contains { if case .injected = $0 { true } else { false } }, "\(pair.records)")
        #expect(pair.sessionCount == 4 && pair.heldInputs.isEmpty)

        pair.udpButton(udp, .a, isDown: true)
        pair.pageButton(page, .b, isDown: true)
        pair.dsuPad(dsu, slot: 0, timestampMicros: 3_000, buttons: DSUButtons([.dpadLeft]))
        pair.padKey("event7", EvdevCode.btnDpadRight, down: true)
        #expect(pair.heldInputs == [.mouse(.left), .mouse(.right), .key(.left), .key(.right)], "\(pair.heldInputs)")
        #expect(pair.problems.isEmpty, "\(pair.problems)")
    }
}
