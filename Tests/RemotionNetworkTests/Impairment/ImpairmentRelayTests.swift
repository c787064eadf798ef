import NIOCore
import NIOPosix
import Synchronization
import Testing
import RemotionProtocol
import RemotionTestSupport

@Suite(.timeLimit(.minutes(1))) struct ImpairmentRelayTests {
    @Test func cleanPathEchoesEverything() async throws {
        let host = try await UDPPeer.start(echo: true)
        let client = try await UDPPeer.start(echo: false)
        let relay = try await ImpairmentRelay.start(
            upstream: host.address, clientToHost: .none, hostToClient: .none, seed: 1)
        #expect(relay.port != 0)
        #expect(relay.port != host.address.port)

        try await client.sendPaced(count: 300, through: relay)
        let got = try await client.waitFor(300)
        await relay.shutdown()

        #expect(got.count == 300)
        #expect(Set(got.map { indexValue($0.bytes) }) == Set(0..<300))
        #expect(got.allSatisfy { $0.from == relay.localAddress })
        let stats = try await relay.stats()
        #expect(stats.clientToHost.received == 300 && stats.clientToHost.delivered == 300)
        #expect(stats.hostToClient.received == 300 && stats.hostToClient.delivered == 300)
        await client.close(); await host.close()
    }

    @Test func lossOfFiftyPercentMatchesTheSeededScheduler() async throws {
        let lossy = ImpairmentProfile(lossPercent: 50)
        let count = 400, seed: UInt64 = 77
        // The relay's decisions depend only on the seed and the arrival order, so the pure
        // scheduler predicts exactly which datagrams survive.
        var model = ImpairmentScheduler(clientToHost: lossy, hostToClient: .none, seed: seed)
        let expected = Set((0..<count).filter { !model.submit(indexBytes($0), direction: .clientToHost, now: .zero).isEmpty })
        #expect((160...240).contains(expected.count), "about half survive")

        let host = try await UDPPeer.start(echo: true)
        let client = try await UDPPeer.start(echo: false)
        let relay = try await ImpairmentRelay.start(
            upstream: host.address, clientToHost: lossy, hostToClient: .none, seed: seed)
        try await client.sendPaced(count: count, through: relay)
        let got = try await client.waitFor(expected.count, settle: .milliseconds(60))
        let stats = try await relay.stats()
        await relay.shutdown()

        #expect(Set(got.map { indexValue($0.bytes) }) == expected)
        #expect(got.count == expected.count)
        #expect(stats.clientToHost.received == count)
        #expect(stats.clientToHost.dropped == count - expected.count)
        #expect(host.recorder.received.count == expected.count)
        await client.close(); await host.close()
    }

    @Test func delayedEchoArrivesAfterTheDelay() async throws {
        let host = try await UDPPeer.start(echo: true)
        let client = try await UDPPeer.start(echo: false)
        let relay = try await ImpairmentRelay.start(
            upstream: host.address,
            clientToHost: try ImpairmentProfile(parsing: "delay=40ms"),
            hostToClient: try ImpairmentProfile(parsing: "delay=20ms"), seed: 3)
        var rtts: [Duration] = []
        for i in 0..<5 {
            let sent = ContinuousClock.now
            try await client.send(indexBytes(i), to: relay.localAddress)
            let got = try await client.waitFor(i + 1, settle: .zero)
            #expect(got.count == i + 1)
            if let last = got.last { rtts.append(last.at - sent) }
        }
        await relay.shutdown()
        #expect(rtts.count == 5)
        for rtt in rtts { #expect(rtt >= .milliseconds(60), "rtt \(rtt)") }
        #expect(host.recorder.received.count == 5)
        await client.close(); await host.close()
    }

    @Test func duplicatesReachTheHostTwiceAndComeBackTwiceAgain() async throws {
        let host = try await UDPPeer.start(echo: true)
        let client = try await UDPPeer.start(echo: false)
        let relay = try await ImpairmentRelay.start(
            upstream: host.address, clientToHost: ImpairmentProfile(duplicatePercent: 100),
            hostToClient: ImpairmentProfile(duplicatePercent: 100), seed: 4)
        try await client.sendPaced(count: 10, through: relay)
        let got = try await client.waitFor(40, settle: .milliseconds(40))
        let stats = try await relay.stats()
        await relay.shutdown()
        #expect(host.recorder.received.count == 20)
        #expect(got.count == 40)
        for i in 0..<10 { #expect(got.filter { indexValue($0.bytes) == i }.count == 4) }
        #expect(stats.clientToHost.duplicated == 10 && stats.hostToClient.duplicated == 20)
        await client.close(); await host.close()
    }

    @Test func eachClientGetsItsOwnUpstreamSourceAndItsOwnReplies() async throws {
        let host = try await UDPPeer.start(echo: true)
        let relay = try await ImpairmentRelay.start(
            upstream: host.address, clientToHost: .none, hostToClient: .none, seed: 5)
        var clients: [UDPPeer] = []
        for _ in 0..<3 { clients.append(try await UDPPeer.start(echo: false)) }
        for (tag, client) in clients.enumerated() {
            try await client.send((0..<10).map { indexBytes($0, tag: UInt8(tag)) }, to: relay.localAddress)
        }
        for (tag, client) in clients.enumerated() {
            let got = try await client.waitFor(10, settle: .zero)
            #expect(got.count == 10)
            #expect(got.allSatisfy { $0.bytes.first == UInt8(tag) }, "client \(tag) only gets its own replies")
        }
        let snapshot = try await relay.snapshot()
        await relay.shutdown()

        let sources = Set(host.recorder.received.map(\.from))
        #expect(sources.count == 3)
        #expect(!sources.contains(relay.localAddress))
        #expect(sources.isDisjoint(with: clients.map(\.address)))
        #expect(sources.allSatisfy { LoopbackAddress.isLoopback($0) })
        #expect(snapshot.clients == 3)
        for client in clients { await client.close() }
        await host.close()
    }

    @Test func refusesNonLoopbackAddresses() async throws {
        await #expect(throws: ImpairmentRelayError.nonLoopbackAddress("192.0.2.1")) {
            _ = try await ImpairmentRelay.start(
                upstreamHost: "192.0.2.1", upstreamPort: 9, clientToHost: .none, hostToClient: .none, seed: 0)
        }
        await #expect(throws: ImpairmentRelayError.nonLoopbackAddress("0.0.0.0")) {
            _ = try await ImpairmentRelay.start(
                listenHost: "0.0.0.0", upstreamHost: "127.0.0.1", upstreamPort: 9,
                clientToHost: .none, hostToClient: .none, seed: 0)
        }
        #expect(throws: ImpairmentRelayError.invalidAddress("example.com")) {
            try LoopbackAddress.make(host: "example.com", port: 1)
        }
        #expect(throws: ImpairmentRelayError.invalidPort(70000)) { try LoopbackAddress.make(host: "::1", port: 70000) }
        #expect(try LoopbackAddress.parse(endpoint: "[::1]:9000").port == 9000)
        #expect(try LoopbackAddress.parse(endpoint: "localhost:53").ipAddress == "127.0.0.1")
        #expect(throws: ImpairmentRelayError.invalidEndpoint("127.0.0.1")) { try LoopbackAddress.parse(endpoint: "127.0.0.1") }
        #expect(throws: ImpairmentRelayError.nonLoopbackAddress("10.1.2.3")) { try LoopbackAddress.parse(endpoint: "10.1.2.3:5") }
    }

    @Test func shutdownIsPromptAndDiscardsTheQueue() async throws {
        let host = try await UDPPeer.start(echo: true)
        let client = try await UDPPeer.start(echo: false)
        let relay = try await ImpairmentRelay.start(
            upstream: host.address, clientToHost: ImpairmentProfile(delay: .seconds(30)),
            hostToClient: .none, seed: 9, maxQueued: 8)
        try await client.send((0..<12).map { indexBytes($0) }, to: relay.localAddress)
        let deadline = ContinuousClock.now + .seconds(2)
        while try await relay.stats().clientToHost.received < 12, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        let started = ContinuousClock.now
        await relay.shutdown()
        await relay.shutdown()
        #expect(ContinuousClock.now - started < .seconds(1))
        let snapshot = try await relay.snapshot()
        #expect(snapshot.stats.clientToHost.received == 12)
        #expect(snapshot.stats.clientToHost.overflowed == 4)
        #expect(snapshot.relay.discardedOnShutdown == 8)
        #expect(snapshot.queued == 0)
        #expect(host.recorder.received.isEmpty)
        await client.close(); await host.close()
    }

    @Test func runRelayRunsUntilCancelled() async throws {
        let host = try await UDPPeer.start(echo: true)
        let client = try await UDPPeer.start(echo: false)
        let ready = Mutex<SocketAddress?>(nil)
        let upstreamPort = host.address.port!
        let run = Task {
            try await runRelay(
                listenPort: 0, upstreamPort: upstreamPort, profileUp: .none, profileDown: .none,
                seed: 1, duration: nil, onReady: { relay in ready.withLock { $0 = relay.localAddress } })
        }
        // A bound for a relay that never gets ready (2 s ran out once beside a second load).
        let deadline = ContinuousClock.now + .seconds(30)
        while ready.withLock({ $0 }) == nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        let address = try #require(ready.withLock { $0 })
        try await client.send(indexBytes(1), to: address)
        let got = try await client.waitFor(1, settle: .zero)
        run.cancel()
        let final = try await run.value
        #expect(got.count == 1)
        #expect(final.stats.clientToHost.received == 1)
        #expect(final.stats.hostToClient.delivered == 1)
        await client.close(); await host.close()
    }

    @Test func runRelayStopsAfterItsDuration() async throws {
        let started = ContinuousClock.now
        let final = try await runRelay(
            listenPort: 0, upstreamPort: 9, profileUp: .none, profileDown: .none, seed: 1,
            duration: .milliseconds(100))
        #expect(ContinuousClock.now - started >= .milliseconds(100))
        #expect(final.stats == ImpairmentStats())
    }
}
