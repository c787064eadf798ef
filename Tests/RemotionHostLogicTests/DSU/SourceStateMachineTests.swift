import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The host as a DSU client of a phone app.
@Suite struct SourceStateMachineTests {
    typealias SM = DSUSourceStateMachine

    static func pad(slot: UInt8, counter: UInt32, micros: UInt64, connected: Bool = true,
                    gyro: DSUGyro = DSUGyro(pitch: 0, yaw: 90, roll: 0), buttons: DSUButtons = .none,
                    server: UInt32 = testServerID) -> [UInt8] {
        var p = DSUPadData(info: DSUSlotInfo(slot: slot, state: connected ? .connected : .disconnected, model: .fullGyro),
                           isConnected: connected, packetCounter: counter, motionTimestampMicros: micros,
                           accel: DSUAccel(x: 0, y: -1, z: 0), gyro: gyro)
        p.buttons = buttons
        return DSUCodec.encode(DSUPacket(senderID: server, message: .padData(p)))
    }

    static func decoded(_ datagrams: [[UInt8]]) -> [DSUMessage] {
        datagrams.compactMap { try? DSUCodec.decode($0).message }
    }

    func samples(_ out: SM.Output) -> [MotionSample] {
        out.events.compactMap { if case .sample(_, let s) = $0 { s } else { nil } }
    }

    @Test func startSendsVersionPortsAndSubscription() {
        var sm = SM(configuration: .init(clientID: testClientID))
        let out = sm.start(now: .zero)
        #expect(Self.decoded(out.datagrams) == [.versionRequest, .portInfoRequest(slots: [0, 1, 2, 3]), .padDataRequest(.allPads)])
        #expect(out.datagrams.allSatisfy { (try? DSUCodec.decode($0).senderID) == testClientID })
        #expect(sm.nextDeadline == .seconds(1))
    }

    @Test func renewsEverySecondAlsoWhileSilent() {
        var sm = SM(configuration: .init(clientID: 1))
        _ = sm.start(now: .zero)
        var renewals: [Instant] = []
        var now = Instant.zero
        while now < .seconds(10) {
            now = sm.nextDeadline!
            let out = sm.tick(now: now)
            if Self.decoded(out.datagrams).contains(.padDataRequest(.allPads)) { renewals.append(now) }
        }
        #expect(renewals == (1...10).map { .seconds(Double($0)) })
        // No version reply yet: the version request rides along.
        #expect(Self.decoded(sm.tick(now: .seconds(11)).datagrams).first == .versionRequest)
        _ = sm.receive(DSUCodec.encode(DSUPacket(senderID: 9, message: .versionReply(1001))), now: .seconds(11.5))
        #expect(sm.serverVersion == 1001)
        #expect(Self.decoded(sm.tick(now: .seconds(12)).datagrams) == [.portInfoRequest(slots: [0, 1, 2, 3]), .padDataRequest(.allPads)])
    }

    @Test func lateTickDoesNotBurst() {
        var sm = SM(configuration: .init(clientID: 1))
        _ = sm.start(now: .zero)
        #expect(!sm.tick(now: .seconds(5.5)).datagrams.isEmpty)
        #expect(sm.nextDeadline == .seconds(6.5))
        #expect(sm.tick(now: .seconds(6)).datagrams.isEmpty)
    }

    @Test func connectsEmitsSamplesAndMapsButtons() {
        var sm = SM(configuration: .init(clientID: 1))
        _ = sm.start(now: .zero)
        let out = sm.receive(Self.pad(slot: 2, counter: 10, micros: 1_000_000, buttons: DSUButtons([.cross, .dpadDown])),
                             now: .seconds(0.1))
        guard out.events.count == 2, out.events[0] == .slotConnected(2),
              case .sample(2, let s) = out.events[1] else {
            Issue.record("unexpected events \(out.events)")
            return
        }
        #expect(s.timestampMicros == 1_000_000)
        #expect(s.buttons == ButtonSet([.a, .f]))
        #expect(abs(s.gyro!.z - (-Float.pi / 2)) < 1e-6)       // yaw 90 °/s right = −π/2 rad/s about z
        #expect(s.acceleration == Vector3(x: 0, y: 0, z: 1))
        #expect(sm.connectedSlots == [2])
        #expect(sm.receive(Self.pad(slot: 2, counter: 11, micros: 1_016_000), now: .seconds(0.12)).events.count == 1)
    }

    @Test func dropsRepeatedAndOlderCounters() {
        var sm = SM(configuration: .init(clientID: 1))
        _ = sm.start(now: .zero)
        var got: [UInt64] = []
        // Arrival order with a repeat, a reorder and an old straggler.
        for (c, t) in [(5, 50), (6, 60), (6, 60), (8, 80), (7, 70), (9, 90), (3, 30), (10, 100)] {
            got += samples(sm.receive(Self.pad(slot: 0, counter: UInt32(c), micros: UInt64(t)), now: .seconds(1))).map(\.timestampMicros)
        }
        #expect(got == [50, 60, 80, 90, 100])
        #expect(sm.drops[.staleCounter] == 3)
        // Slots are independent.
        #expect(samples(sm.receive(Self.pad(slot: 1, counter: 1, micros: 5), now: .seconds(1))).count == 1)
    }

    @Test func counterWrapsAround() {
        var sm = SM(configuration: .init(clientID: 1))
        _ = sm.start(now: .zero)
        let counters: [UInt32] = [.max - 1, .max, 0, 1]
        var n = 0
        for (i, c) in counters.enumerated() {
            n += samples(sm.receive(Self.pad(slot: 0, counter: c, micros: UInt64(i)), now: .zero)).count
        }
        #expect(n == 4 && sm.drops.total == 0)
    }

    @Test func constantCounterWithAdvancingTimestampIsAccepted() {
        // Servers that never fill the counter (always 0) still stream.
        var sm = SM(configuration: .init(clientID: 1))
        _ = sm.start(now: .zero)
        var n = 0
        for t in [100, 200, 200, 300] as [UInt64] {
            n += samples(sm.receive(Self.pad(slot: 0, counter: 0, micros: t), now: .zero)).count
        }
        #expect(n == 3 && sm.drops[.staleCounter] == 1)
    }

    @Test func slotReportingDisconnected() {
        var sm = SM(configuration: .init(clientID: 1))
        _ = sm.start(now: .zero)
        _ = sm.receive(Self.pad(slot: 3, counter: 1, micros: 1), now: .zero)
        let out = sm.receive(Self.pad(slot: 3, counter: 2, micros: 2, connected: false), now: .zero)
        #expect(out.events == [.slotDisconnected(3, timedOut: false)])
        #expect(sm.connectedSlots.isEmpty)
        // Port info saying "disconnected" also ends a slot.
        _ = sm.receive(Self.pad(slot: 1, counter: 1, micros: 1), now: .zero)
        let info = DSUCodec.encode(DSUPacket(senderID: testServerID, message: .portInfo(.empty(slot: 1))))
        #expect(sm.receive(info, now: .zero).events == [.slotDisconnected(1, timedOut: false)])
    }

    @Test func silentServerTimesOutAndComesBack() {
        var sm = SM(configuration: .init(clientID: 1, silenceTimeout: .milliseconds(2500)))
        _ = sm.start(now: .zero)
        _ = sm.receive(Self.pad(slot: 0, counter: 100, micros: 1), now: .seconds(0.5))
        _ = sm.receive(Self.pad(slot: 1, counter: 100, micros: 1), now: .seconds(1.5))
        #expect(sm.nextDeadline == .seconds(1))
        _ = sm.tick(now: .seconds(1))
        #expect(sm.nextDeadline == .seconds(2))
        _ = sm.tick(now: .seconds(2))
        #expect(sm.nextDeadline == .seconds(3))   // slot 0 times out at 3.0, renewal at 3.0
        #expect(sm.tick(now: .seconds(2.99)).events.isEmpty)
        #expect(sm.tick(now: .seconds(3)).events == [.slotDisconnected(0, timedOut: true)])
        #expect(sm.tick(now: .seconds(4)).events == [.slotDisconnected(1, timedOut: true)])
        #expect(sm.connectedSlots.isEmpty)
        // Renewals went on while silent.
        #expect(!sm.tick(now: .seconds(5)).datagrams.isEmpty)
        // The server returns (same run, lower counter after our reset): picked up again.
        let back = sm.receive(Self.pad(slot: 0, counter: 3, micros: 9), now: .seconds(5.2))
        #expect(back.events.first == .slotConnected(0))
        #expect(samples(back).count == 1)
    }

    @Test func restartedServerWithNewIDResetsCounters() {
        var sm = SM(configuration: .init(clientID: 1))
        _ = sm.start(now: .zero)
        _ = sm.receive(Self.pad(slot: 0, counter: 500, micros: 500), now: .zero)
        let out = sm.receive(Self.pad(slot: 0, counter: 1, micros: 1, server: 77), now: .seconds(0.1))
        #expect(samples(out).count == 1 && sm.drops.total == 0)
    }

    @Test func wrongDirectionIsCounted() {
        var sm = SM(configuration: .init(clientID: 1))
        _ = sm.start(now: .zero)
        let request = DSUCodec.encode(DSUPacket(senderID: 5, message: .padDataRequest(.allPads)))
        #expect(sm.receive(request, now: .zero).events.isEmpty)
        #expect(sm.drops[.wrongDirection] == 1)
    }

    @Test func configurableTimeout() {
        var sm = SM(configuration: .init(clientID: 1, silenceTimeout: .milliseconds(500)))
        _ = sm.start(now: .zero)
        _ = sm.receive(Self.pad(slot: 0, counter: 1, micros: 1), now: .seconds(0.2))
        #expect(sm.nextDeadline == .seconds(0.7))
        #expect(sm.tick(now: .seconds(0.7)).events == [.slotDisconnected(0, timedOut: true)])
    }

    /// DSU has no authentication: a pad-data reply whose gyro or accelerometer holds a NaN or
    /// an infinity is counted and dropped, not fused or served on (docs/SECURITY.md 11.5);
    /// the next good one is taken.
    @Test func aNonFiniteSampleIsCountedAndDropped() {
        var sm = SM(configuration: .init(clientID: 1))
        _ = sm.start(now: .zero)
        let nan = sm.receive(Self.pad(slot: 0, counter: 1, micros: 1_000, gyro: DSUGyro(pitch: .nan, yaw: 0, roll: 0)), now: .zero)
        let inf = sm.receive(Self.pad(slot: 0, counter: 2, micros: 2_000, gyro: DSUGyro(pitch: 0, yaw: .infinity, roll: 0)), now: .zero)
        #expect(samples(nan).isEmpty && samples(inf).isEmpty)
        #expect(sm.drops[.notFinite] == 2)
        #expect(samples(sm.receive(Self.pad(slot: 0, counter: 3, micros: 3_000), now: .zero)).count == 1)
    }
}
