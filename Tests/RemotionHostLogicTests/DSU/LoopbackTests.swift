import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The two state machines wired back to back in memory: Remotion's server feeding
/// Remotion's source, four slots, with loss and duplication in between.
@Suite struct LoopbackTests {
    @Test func serverFeedsSourceFourSlots() {
        var server = DSUServerStateMachine<String, Int>(configuration: .init(serverID: testServerID))
        var source = DSUSourceStateMachine(configuration: .init(clientID: testClientID))
        for c in 100..<104 { #expect(server.attach(c) != nil) }
        var now = Instant.zero
        var toServer = source.start(now: now).datagrams
        var received: [UInt8: [MotionSample]] = [:]
        var connected: Set<UInt8> = []
        var g = SplitMix64(seed: 9)
        for step in 0..<600 {                                     // 6 s at 100 Hz
            now = .milliseconds(Int64(step * 10))
            toServer += source.tick(now: now).datagrams
            var toSource: [[UInt8]] = []
            for d in toServer { toSource += server.receive(d, from: "host", now: now).map(\.bytes) }
            toServer = []
            for c in 100..<104 {
                let s = MotionSample(timestampMicros: UInt64(step) * 10_000,
                                     gyro: Vector3(x: 0, y: 0, z: Float(c - 100)),
                                     buttons: step % 50 < 10 ? ButtonSet([.a]) : .none)
                toSource += server.update(c, sample: s, now: now).map(\.bytes)
            }
            for d in toSource {
                if g.chance(0.05) { continue }                    // loss
                let copies = g.chance(0.05) ? 2 : 1              // duplication
                for _ in 0..<copies {
                    for e in source.receive(d, now: now).events {
                        switch e {
                        case .slotConnected(let s): connected.insert(s)
                        case .sample(let s, let m): received[s, default: []].append(m)
                        case .slotDisconnected(let s, _): Issue.record("slot \(s) dropped")
                        case .serverVersion(let v): #expect(v == 1001)
                        }
                    }
                }
            }
        }
        #expect(connected == [0, 1, 2, 3])
        for slot in 0..<4 as Range<UInt8> {
            let got = received[slot] ?? []
            #expect(got.count > 530 && got.count <= 600)
            // In order, no repeats, gyro from the right controller.
            #expect(zip(got, got.dropFirst()).allSatisfy { $0.timestampMicros < $1.timestampMicros })
            #expect(got.allSatisfy { abs($0.gyro!.z - Float(slot)) < 1e-6 })
            #expect(got.contains { $0.buttons == ButtonSet([.a]) })
        }
        #expect(source.drops[.staleCounter] > 0)                  // the duplicates
        #expect(server.drops.total == 0)
    }
}
