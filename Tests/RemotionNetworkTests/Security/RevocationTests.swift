import RemotionTestSupport
import Foundation
import NIOCore
import RemotionProtocol
import RemotionNetwork
import Testing

/// Revocation reaches a live session and refusals say why (a full host),
/// over real UDP on loopback with the real key store.
@Suite(.serialized) struct RevocationTests {
    @Test func revokingAStreamingControllerEndsItWithinOneSecondAndTellsIt() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        let (key, hostKey) = try await pairThroughRealFlow(hostStore: hostStore, clientStore: clientStore)
        let host = try await startSecureHost(store: hostStore)
        // Streams for 30 s and never rekeys in that time: only revocation can stop it.
        let client = try await startSecureClient(to: host.localAddress, key: key, hostKey: hostKey, duration: 30,
                                                 presses: [.init(button: .a, at: 0.2, hold: 20)])
        let collected = Task { await events(of: client) }
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).buttonEdges == ["A↓"] })
        let revokedAt = ContinuousClock.now
        #expect(try hostStore.revoke(KeyFingerprint.fingerprint(of: key.publicKey)).count == 1)
        let seen = await collected.value
        let took = ContinuousClock.now - revokedAt
        await client.close()
        #expect(seen.contains(.disconnected(.revoked)), "events: \(seen)")
        #expect(took < .seconds(1), "the controller heard of its revocation after \(took)")
        let r = try await recorded(host)
        // A was released when the session closed, and the close says why.
        #expect(r.buttonEdges == ["A↓", "A↑"])
        #expect(r.actions.contains { if case .sessionClosed(_, .revoked) = $0 { true } else { false } })
        // Nothing more is injected once the session is gone.
        let motionAfterClose = r.actions.drop { if case .sessionClosed = $0 { false } else { true } }
            .filter { if case .motion = $0 { true } else { false } }.count
        #expect(motionAfterClose == 0)
        await host.shutdown()
    }

    @Test func aControllerTurnedAwayByAFullHostHearsFull() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        let (key, hostKey) = try await pairThroughRealFlow(hostStore: hostStore, clientStore: clientStore)
        let host = try await startSecureHost(store: hostStore, maximumSessions: 1)
        let first = try await startSecureClient(to: host.localAddress, key: key, hostKey: hostKey, duration: 3)
        let firstEvents = Task { await events(of: first) }
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).opened == 1 })
        let second = try await startSecureClient(to: host.localAddress, key: key, hostKey: hostKey, duration: 1)
        let seen = await events(of: second)
        await second.close()
        #expect(seen.first == .disconnected(.full), "events: \(seen)")
        await first.stop()
        _ = await firstEvents.value
        await first.close()
        await host.shutdown()
    }
}
