import RemotionTestSupport
import NIOCore
import RemotionProtocol
import RemotionNetwork
import Testing

/// A host under a stream of garbage keeps serving its controller and injects nothing from it.
@Suite struct HostileInputTests {
    @Test func tenThousandRandomAndMutatedDatagramsAreCountedAndDropped() async throws {
        let host = try await startRecordingHost()
        let client = try await startClient(to: host.localAddress, duration: 3,
                                           presses: [.init(button: .a, at: 2.0, hold: 0.3)])
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).motionCount > 10 })
        let attacker = try await rawSocket()
        var rng = SplitMix64(seed: 42)
        let valid = PlainDatagram(session: SessionID(99), message: .buttons([
            ButtonEvent(sequence: 1, button: .p, isDown: true, timestampMicros: 5)])).encode()
        for i in 0..<10_000 {
            var bytes: [UInt8]
            if i % 2 == 0 {
                bytes = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            } else {
                bytes = valid
                let flips = Int.random(in: 1...4, using: &rng)
                for _ in 0..<flips {
                    let at = Int.random(in: 0..<bytes.count, using: &rng)
                    bytes[at] ^= UInt8.random(in: 1...255, using: &rng)
                }
            }
            try await send(bytes, on: attacker, to: host.localAddress)
            if i % 500 == 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        let seen = await events(of: client)
        await client.close()
        try await attacker.close()
        #expect(seen.first == .connected)
        #expect(!seen.contains(.timedOut))
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).closeReasons.count == 1 })
        let r = try await recorded(host)
        // Only the real controller's press reached the engine's output.
        #expect(r.buttonEdges.map { "\($0.0)\($0.1)" } == ["Atrue", "Afalse"])
        #expect(r.closeReasons == [.clientDisconnected(.user)])
        let opened = r.actions.filter { if case .sessionOpened = $0 { true } else { false } }.count
        // Random bytes can in principle form a valid ping; anything else is dropped.
        #expect(opened >= 1)
        // Every hostile datagram that reached the host was counted as a drop. (The kernel
        // may discard some before the host sees them when the machine is busy; those are
        // not the host's to count, so the check is against what it received.)
        let clientSent = seen.compactMap { if case .finished(let s) = $0 { s.datagramsSent } else { nil } }.first ?? 0
        let hostile = r.report.datagramsReceived - clientSent
        #expect(hostile >= 5_000, "only \(hostile) of 10,000 hostile datagrams reached the host")
        #expect(r.report.drops.total >= hostile - opened, "received \(hostile) hostile, dropped \(r.report.drops.total): \(r.report.drops.summary)")
        print("hostile datagrams dropped by reason: \(r.report.drops.summary)")
        await host.shutdown()
    }
}
