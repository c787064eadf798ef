import RemotionTestSupport
import Foundation
import NIOCore
import RemotionProtocol
import RemotionNetwork
import Testing

/// Floods: bounded cost, bounded memory, and the paired controller still gets in.
@Suite(.serialized) struct AbuseTests {
    @Test func pairedClientConnectsThroughAFloodOfBogusInitiations() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        let (key, hostKey) = try await pairThroughRealFlow(hostStore: hostStore, clientStore: clientStore)
        let stats = SecurityStats()
        let host = try await startSecureHost(store: hostStore, stats: stats)
        // Initiations with a valid mac1 (the host key is public) and garbage inside, from 40 ports.
        let mac1Key = DoSMacs.mac1Key(responderStatic: hostKey)
        var rng = SecureRandom()
        let attackers = try await (0..<40).asyncMap { _ in try await rawSocket() }
        let clock = ContinuousClock()
        let started = clock.now
        let flood = Task {
            for round in 0..<50 {
                for socket in attackers {
                    let index = UInt32.random(in: 1...UInt32.max, using: &rng)
                    let bytes = HandshakeDatagram(receiverIndex: index, senderIndex: index, pattern: .ik, messageNumber: 0,
                                                  noiseMessage: rng.bytes(112)).encode(mac1Key: mac1Key, cookie: nil)
                    try await send(bytes, on: socket, to: host.localAddress)
                }
                if round % 5 == 0 { try await Task.sleep(for: .milliseconds(20)) }
            }
        }
        try await Task.sleep(for: .milliseconds(100))
        let client = try await startSecureClient(to: host.localAddress, key: key, hostKey: hostKey, duration: 0.5,
                                                 presses: [.init(button: .f, at: 0.1, hold: 0.1)])
        let seen = await events(of: client)
        await client.close()
        try await flood.value
        let floodTime = clock.now - started
        #expect(seen.first == .connected)
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).buttonEdges == ["F↓", "F↑"] })
        let security = stats.snapshot
        let (cookies, halfOpen, drops) = (security.cookieReplies, security.halfOpen, security.drops)
        print("flood of 2000 bogus initiations took \(floodTime); cookie replies \(cookies); drops: \(drops.summary)")
        #expect(cookies > 100)
        #expect(halfOpen == 0)
        #expect(drops[.rateLimited] > 100)
        for socket in attackers { try await socket.close() }
        await host.shutdown()
    }
}

extension Sequence {
    func asyncMap<T>(_ body: (Element) async throws -> T) async rethrows -> [T] {
        var out: [T] = []
        for e in self { out.append(try await body(e)) }
        return out
    }
}
