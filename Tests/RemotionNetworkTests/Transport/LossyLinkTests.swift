import RemotionTestSupport
import NIOCore
import RemotionProtocol
import RemotionNetwork
import Testing

/// Client → user-space impairment relay (30% loss both ways, duplication, reordering,
/// delay, fixed seed) → host, over real UDP sockets on loopback.
@Suite struct LossyLinkTests {
    @Test func everyButtonEdgeArrivesExactlyOnceAndInOrderAtThirtyPercentLoss() async throws {
        let host = try await startRecordingHost(timeout: .seconds(5))
        let impaired = try ImpairmentProfile(parsing: "loss=30,dup=5,reorder=10,delay=2ms,jitter=1ms")
        let relay = try await ImpairmentRelay.start(upstream: host.localAddress, clientToHost: impaired,
                                                    hostToClient: impaired, seed: 2026)
        let buttons: [Button] = [.a, .b, .c, .a, .d, .p, .a, .b, .g, .h, .a, .e]
        let presses = buttons.enumerated().map { i, b in
            PressScript.Press(button: b, at: 0.3 + Double(i) * 0.25, hold: 0.12)
        }
        let client = try await startClient(to: relay.localAddress, duration: 4, presses: presses, timeout: .seconds(5))
        let seen = await events(of: client)
        await client.close()
        #expect(seen.first == .connected, "events: \(seen)")
        let expected = presses.flatMap { ["\($0.button)true", "\($0.button)false"] }
        #expect(try await eventually(within: .seconds(30)) {
            try await recorded(host).buttonEdges.count >= expected.count
        })
        let r = try await recorded(host)
        #expect(r.buttonEdges.map { "\($0.0)\($0.1)" } == expected)
        #expect(r.balanced)
        let stats = try await relay.stats()
        print("relay: up \(stats.clientToHost), down \(stats.hostToClient)")
        #expect(stats.clientToHost.dropped > 0 && stats.hostToClient.dropped > 0)
        if case let .finished(s)? = seen.last {
            print("client: \(s.retransmissions) retransmissions, \(s.motionSent) motion sent; host saw \(r.motionCount)")
            #expect(r.motionCount < s.motionSent, "30% loss should lose motion packets (they are not retransmitted)")
        }
        await relay.shutdown()
        await host.shutdown()
    }
}
