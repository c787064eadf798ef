import RemotionTestSupport
import NIOCore
import RemotionProtocol
import RemotionNetwork
import Testing

/// Client and host over real UDP sockets on loopback.
@Suite(.serialized) struct LoopbackSessionTests {
    @Test func streamsMotionAndDeliversOnePressExactlyOnce() async throws {
        let host = try await startRecordingHost()
        let client = try await startClient(to: host.localAddress, duration: 1.5,
                                           presses: [.init(button: .a, at: 0.5, hold: 0.5)])
        let seen = await events(of: client)
        await client.close()
        #expect(seen.first == .connected)
        guard case let .finished(stats)? = seen.last else {
            Issue.record("client did not finish: \(seen)")
            return
        }
        // 150 planned (100 Hz for 1.5 s); a loaded machine's client skips ticks it was late for
        // (82, 98 and 47 seen beside a second load): the rate is a benchmark's, the exact count below
        // is the behaviour.
        #expect(stats.motionSent >= 10)
        #expect(stats.buttonEdges == 2)
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).closeReasons.count == 1 })
        let r = try await recorded(host)
        #expect(r.buttonEdges.map { "\($0.0)\($0.1)" } == ["Atrue", "Afalse"])
        #expect(r.motionCount == stats.motionSent)
        #expect(r.closeReasons == [.clientDisconnected(.user)])
        #expect(r.report.drops.total == 0)
        await host.shutdown()
    }

    @Test func killedClientMidPressIsReleasedWithinTheTimeout() async throws {
        let host = try await startRecordingHost(timeout: .milliseconds(600))
        let client = try await startClient(to: host.localAddress, duration: nil,
                                           presses: [.init(button: .b, at: 0.2, hold: 30)])
        #expect(try await eventually(within: .seconds(30)) {
            try await recorded(host).buttonEdges.map { "\($0.0)\($0.1)" } == ["Btrue"]
        })
        // Vanish without a goodbye: close the socket under the session.
        try await client.channel.close()
        let start = ContinuousClock.now
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).closeReasons == [.timedOut] })
        let elapsed = ContinuousClock.now - start
        // The release comes from the 600 ms timeout (0.6-0.7 s on a quiet machine); the
        // bound only says "by the timeout, not never": on CI's two busy cores the loop and
        // this test's polling can each be held off for a while (the suite's pool was held for
        // tens of seconds beside a second load). Speed is benchmarked elsewhere.
        #expect(elapsed < .seconds(9), "released after \(elapsed)")
        print("killed controller released after \(elapsed) (timeout 600 ms)")
        let r = try await recorded(host)
        #expect(r.buttonEdges.map { "\($0.0)\($0.1)" } == ["Btrue", "Bfalse"])
        #expect(r.balanced)
        await host.shutdown()
    }

    @Test func clientReportsTimeoutWhenNobodyAnswers() async throws {
        // A bound socket that never answers stands in for a host that is not there.
        let silent = try await rawSocket()
        let client = try await startClient(to: silent.localAddress!, duration: 1, presses: [],
                                           timeout: .milliseconds(700))
        let seen = await events(of: client)
        #expect(seen.first == .timedOut)
        await client.close()
        try await silent.close()
    }

    @Test func hostShutdownDisconnectsClientAndReleases() async throws {
        let host = try await startRecordingHost()
        let client = try await startClient(to: host.localAddress, duration: nil,
                                           presses: [.init(button: .c, at: 0.1, hold: 30)])
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).buttonEdges.count == 1 })
        let r = try await host.onLoop { handler -> Bool in
            handler.shutdown()
            let sink = handler.sink
            return sink.shutDown
        }
        #expect(r)
        let seen = await events(of: client)
        #expect(seen.contains(.disconnected(.shutdown)))
        await client.close()
        try await host.channel.close()
    }
}
