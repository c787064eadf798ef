import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Remotion serving its controllers to emulators.
@Suite struct ServerStateMachineTests {
    typealias SM = DSUServerStateMachine<String, Int>

    static func request(_ m: DSUMessage, id: UInt32 = testClientID) -> [UInt8] {
        DSUCodec.encode(DSUPacket(senderID: id, message: m))
    }

    static func padData(_ o: SM.Outgoing) -> DSUPadData? {
        if case .padData(let p)? = try? DSUCodec.decode(o.bytes).message { p } else { nil }
    }

    static let sample = MotionSample(timestampMicros: 1000, gyro: Vector3(x: 0, y: 0, z: 1),
                                     acceleration: Vector3(x: 0, y: 0, z: 1), buttons: ButtonSet([.a]))

    @Test func fillsFourSlotsInConnectOrder() {
        var sm = SM(configuration: .init(serverID: testServerID))
        #expect([sm.attach(10), sm.attach(11), sm.attach(12), sm.attach(13)] == [0, 1, 2, 3])
        #expect(sm.attach(14) == nil)
        #expect(sm.attach(11) == 1)                       // already attached
        #expect(sm.detach(11) == 1)
        #expect(sm.attach(14) == 1)                       // lowest free slot
        #expect(sm.detach(99) == nil)
    }

    @Test func slotCounterSurvivesAControllerChange() {
        var sm = SM(configuration: .init(serverID: 1))
        _ = sm.receive(Self.request(.padDataRequest(.slot(0))), from: "c", now: .zero)
        _ = sm.attach(1)
        _ = sm.update(1, sample: Self.sample, now: .zero)
        _ = sm.update(1, sample: Self.sample, now: .zero)
        sm.detach(1)
        #expect(sm.attach(2) == 0)
        let out = sm.update(2, sample: Self.sample, now: .zero)
        #expect(out.count == 1 && Self.padData(out[0])?.packetCounter == 3)
    }

    @Test func answersVersionAndPortInfo() throws {
        var sm = SM(configuration: .init(serverID: testServerID))
        _ = sm.attach(7)
        let v = sm.receive(Self.request(.versionRequest), from: "c", now: .zero)
        #expect(v.count == 1 && v[0].to == "c")
        #expect(try DSUCodec.decode(v[0].bytes) == DSUPacket(senderID: testServerID, message: .versionReply(1001)))
        let ports = sm.receive(Self.request(.portInfoRequest(slots: [0, 2])), from: "c", now: .zero)
        let infos = try ports.map { try DSUCodec.decode($0.bytes).message }
        #expect(infos == [
            .portInfo(DSUSlotInfo(slot: 0, state: .connected, model: .fullGyro, connection: .bluetooth,
                                  mac: DSUMAC(rawValue: 0x02_524D_0000_01))),
            .portInfo(.empty(slot: 2)),                    // slot number kept, state 0
        ])
        #expect(ports.allSatisfy { $0.bytes.count == 32 })
    }

    @Test func streamsToSubscribersOnly() {
        var sm = SM(configuration: .init(serverID: testServerID))
        _ = sm.attach(1); _ = sm.attach(2)
        #expect(sm.update(1, sample: Self.sample, now: .zero).isEmpty)     // nobody listens yet
        _ = sm.receive(Self.request(.padDataRequest(.allPads)), from: "all", now: .zero)
        _ = sm.receive(Self.request(.padDataRequest(.slot(1))), from: "slot1", now: .zero)
        _ = sm.receive(Self.request(.padDataRequest(.mac(DSUMAC(rawValue: 0x02_524D_0000_01)))), from: "mac0", now: .zero)
        let a = sm.update(1, sample: Self.sample, now: .seconds(0.1))
        #expect(Set(a.map(\.to)) == ["all", "mac0"])
        let b = sm.update(2, sample: Self.sample, now: .seconds(0.1))
        #expect(Set(b.map(\.to)) == ["all", "slot1"])
        // Same bytes for everyone; counter 2 for slot 0 (the unsent first sample counted).
        #expect(Set(a.map(\.bytes)).count == 1)
        #expect(Self.padData(a[0])?.packetCounter == 2)
        #expect(Self.padData(b[0])?.packetCounter == 1)
        #expect(sm.update(99, sample: Self.sample, now: .zero).isEmpty)
    }

    @Test func padDataCarriesTheSample() throws {
        var sm = SM(configuration: .init(serverID: testServerID))
        _ = sm.attach(1)
        _ = sm.receive(Self.request(.padDataRequest(.allPads)), from: "c", now: .zero)
        let p = try #require(Self.padData(sm.update(1, sample: Self.sample, now: .zero)[0]))
        #expect(p.info.slot == 0 && p.info.state == .connected && p.isConnected)
        #expect(p.motionTimestampMicros == 1000)
        #expect(p.buttons == DSUButtons([.cross]) && p.analog.cross == 255 && p.analog.circle == 0)
        #expect(abs(p.gyro.yaw + 57.29578) < 1e-3)                 // turning left
        #expect(p.accel == DSUAccel(x: 0, y: -1, z: 0))
        #expect(p.leftStickX == 128 && p.rightStickY == 128)
        #expect(p.touch1 == .none && p.touch2 == .none)
        // A controller with a finger on its touchpad: the pad data says where.
        var touching = Self.sample
        touching.touch = TouchState(first: .init(id: 1, x: 0.25, y: 0.5))
        let t = try #require(Self.padData(sm.update(1, sample: touching, now: .zero)[0]))
        #expect(t.touch1 == DSUTouch(isActive: true, id: 1, x: 480, y: 471) && t.touch2 == .none)
    }

    @Test func subscriptionExpiresAfterFiveSecondsAndRenews() {
        var sm = SM(configuration: .init(serverID: testServerID))
        _ = sm.attach(1)
        _ = sm.receive(Self.request(.padDataRequest(.allPads)), from: "c", now: .zero)
        #expect(sm.update(1, sample: Self.sample, now: .seconds(4.999)).count == 1)
        #expect(sm.update(1, sample: Self.sample, now: .seconds(5)).isEmpty)
        #expect(sm.nextDeadline == .seconds(5))
        sm.tick(now: .seconds(5))
        #expect(sm.liveClients(now: .seconds(5)).isEmpty && sm.nextDeadline == nil)
        // Renewing every second keeps it alive indefinitely.
        for k in 0..<20 {
            let t = Instant.seconds(6 + Double(k))
            _ = sm.receive(Self.request(.padDataRequest(.allPads)), from: "c", now: t)
            #expect(sm.update(1, sample: Self.sample, now: t + .milliseconds(900)).count == 1)
        }
        // Per rule: an old all-pads rule dies even while a newer slot rule lives.
        _ = sm.attach(2)
        _ = sm.receive(Self.request(.padDataRequest(.slot(0))), from: "c", now: .seconds(28))
        #expect(sm.update(2, sample: Self.sample, now: .seconds(30.5)).isEmpty)   // all-pads from 25 s expired
        #expect(sm.update(1, sample: Self.sample, now: .seconds(30.5)).count == 1)
    }

    @Test func boundsClientsAndMACs() {
        var sm = SM(configuration: .init(serverID: 1, maxClients: 3, maxMACsPerClient: 2))
        for c in ["a", "b", "c", "d"] { _ = sm.receive(Self.request(.padDataRequest(.allPads)), from: c, now: .zero) }
        #expect(sm.liveClients(now: .zero).count == 3 && sm.drops[.tooManyClients] == 1)
        // After expiry a newcomer fits again.
        _ = sm.receive(Self.request(.padDataRequest(.allPads)), from: "d", now: .seconds(6))
        #expect(sm.liveClients(now: .seconds(6)) == ["d"])
        for m in 1...3 as ClosedRange<UInt64> {
            _ = sm.receive(Self.request(.padDataRequest(.mac(DSUMAC(rawValue: m)))), from: "d", now: .seconds(6))
        }
        #expect(sm.drops[.tooManyMACs] == 1)
    }

    @Test func countsBadRequests() {
        var sm = SM(configuration: .init(serverID: 1))
        let reply = DSUCodec.encode(DSUPacket(senderID: 2, message: .versionReply(1001)))
        #expect(sm.receive(reply, from: "x", now: .zero).isEmpty)
        #expect(sm.receive([1, 2, 3], from: "x", now: .zero).isEmpty)
        #expect(sm.drops[.wrongDirection] == 1 && sm.drops[.truncated] == 1 && sm.drops.total == 2)
    }

    @Test func attitudeOnlyControllerGetsRatesAndGravity() throws {
        var sm = SM(configuration: .init(serverID: 1))
        _ = sm.attach(1)
        _ = sm.receive(Self.request(.padDataRequest(.allPads)), from: "c", now: .zero)
        // Turning left at 0.5 rad/s, pitched up 30°, 100 Hz.
        var yaws: [Float] = [], pitches: [Float] = []
        var accel: DSUAccel?
        for k in 0..<10 {
            let s = MotionSample(timestampMicros: UInt64(5_000_000 + k * 10_000),
                                 attitude: Attitude(roll: 0, pitch: .pi / 6, yaw: 0.5 * Double(k) * 0.01))
            let p = try #require(Self.padData(sm.update(1, sample: s, now: .zero)[0]))
            yaws.append(p.gyro.yaw); pitches.append(p.gyro.pitch)
            accel = p.accel
        }
        #expect(yaws[0] == 0)                               // first sample: no rate yet
        // Body rate of a world-vertical turn seen from a device pitched up 30°: part yaw
        // (cos 30°), part roll; DSU yaw = −deg(z).
        for y in yaws.dropFirst() { #expect(abs(y - Float(-0.5 * 57.29578 * 0.8660254)) < 1e-2) }
        for p in pitches { #expect(abs(p) < 1e-3) }
        // Gravity at pitch 30°: Remotion (0, −sin 30°, −cos 30°) → DSU (0, −cos 30°, sin 30°).
        #expect(abs(accel!.y + 0.8660254) < 1e-5 && abs(accel!.z - 0.5) < 1e-5)
        // Repeated timestamp repeats the rate; a gap over 0.5 s resets it.
        let again = MotionSample(timestampMicros: 5_090_000, attitude: Attitude(roll: 0, pitch: .pi / 6, yaw: 0.05))
        #expect(abs(try #require(Self.padData(sm.update(1, sample: again, now: .zero)[0])).gyro.yaw - yaws.last!) < 1e-6)
        let late = MotionSample(timestampMicros: 6_000_000, attitude: Attitude(roll: 0, pitch: .pi / 6, yaw: 0.3))
        #expect(try #require(Self.padData(sm.update(1, sample: late, now: .zero)[0])).gyro == .zero)
    }

    @Test func noSensorsAtAllReportsFlat() throws {
        var sm = SM(configuration: .init(serverID: 1))
        _ = sm.attach(1)
        _ = sm.receive(Self.request(.padDataRequest(.allPads)), from: "c", now: .zero)
        let p = try #require(Self.padData(sm.update(1, sample: MotionSample(timestampMicros: 1, buttons: ButtonSet([.c])), now: .zero)[0]))
        #expect(p.accel == DSUAccel(x: 0, y: -1, z: 0) && p.gyro == .zero)
        #expect(p.buttons == DSUButtons([.dpadLeft]) && p.analog.dpadLeft == 255)
    }
}
