import RemotionTestSupport
import Foundation
import NIOCore
import RemotionProtocol
import RemotionNetwork
import Testing

/// A secure session's properties (pairing, encryption, replay and forgery refused, reconnect
/// without pairing again, revocation), over real UDP on loopback.
@Suite(.serialized) struct SecureSessionTests {
    @Test func pairedClientStreamsEncryptedAndButtonsArrive() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        let (key, hostKey) = try await pairThroughRealFlow(hostStore: hostStore, clientStore: clientStore)
        #expect(try hostStore.pairedControllers().map(\.fingerprint) == [KeyFingerprint.fingerprint(of: key.publicKey)])
        #expect(try clientStore.knownHosts().first?.key == hostKey)
        let host = try await startSecureHost(store: hostStore)
        let relay = try await CapturingRelay.start(upstream: host.localAddress)
        let client = try await startSecureClient(to: relay.address, key: key, hostKey: hostKey, duration: 1.0,
                                                 presses: [.init(button: .a, at: 0.3, hold: 0.2)])
        let seen = await events(of: client)
        await client.close()
        #expect(seen.first == .connected)
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).buttonEdges == ["A↓", "A↑"] })
        // 100 planned (100 Hz for 1 s); a loaded machine's client skips ticks it was late for
        // (about half beside a second load): that the encrypted stream flows is the behaviour.
        #expect(try await recorded(host).motionCount >= 10)
        // A passive listener sees no plaintext message: every datagram is a handshake or transport.
        let kinds = Set(relay.datagrams.map { $0[2] })
        #expect(kinds.isSubset(of: [DatagramKind.handshakeInitiation.rawValue, DatagramKind.transport.rawValue]))
        #expect(!relay.datagrams.contains { (try? PlainDatagram.decode($0)) != nil })
        await relay.close()
        await host.shutdown()
    }

    @Test func unpairedClientIsRefusedAndNothingIsInjected() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        let host = try await startSecureHost(store: hostStore)
        // The stranger even knows the host's public key (it is in every pairing code).
        let client = try await startSecureClient(to: host.localAddress, key: try clientStore.clientKey(),
                                                 hostKey: try hostStore.hostKey().publicKey, duration: 1,
                                                 presses: [.init(button: .a, at: 0.1, hold: 0.1)], timeout: .seconds(1))
        let seen = await events(of: client)
        await client.close()
        #expect(seen.first == .timedOut)
        let r = try await recorded(host)
        #expect(r.opened == 0)
        #expect(r.injected == 0)
        #expect(r.report.drops[.authenticationFailed] >= 1, "drops: \(r.report.drops.summary)")
        await host.shutdown()
    }

    @Test func capturedSessionReplayedByteForByteInjectsNothing() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        let (key, hostKey) = try await pairThroughRealFlow(hostStore: hostStore, clientStore: clientStore)
        let host = try await startSecureHost(store: hostStore)
        let relay = try await CapturingRelay.start(upstream: host.localAddress)
        let client = try await startSecureClient(to: relay.address, key: key, hostKey: hostKey, duration: 0.8,
                                                 presses: [.init(button: .b, at: 0.2, hold: 0.2)])
        #expect(await events(of: client).first == .connected)
        await client.close()
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).buttonEdges == ["B↓", "B↑"] })
        // The baseline is taken once the session has ended (the client's goodbye and
        // every datagram before it processed): a datagram the host first sees in the
        // replay would otherwise be a late original, not a replay.
        #expect(try await eventually(within: .seconds(30)) {
            let r = try await recorded(host)
            return r.report.sessions.isEmpty && r.report.datagramsReceived >= relay.datagrams.count
        })
        let before = try await recorded(host)
        let captured = relay.datagrams
        #expect(captured.count >= 5)   // the handshake and the stream's first datagrams (80 planned)
        // Replay everything, once from the relay's own address and once from a new one.
        let attacker = try await rawSocket()
        for bytes in captured { try await send(bytes, on: attacker, to: host.localAddress) }
        for bytes in captured { try await relay.channel.writeAndFlush(
            AddressedEnvelope(remoteAddress: host.localAddress, data: relay.channel.allocator.buffer(bytes: bytes))) }
        let total = captured.count * 2
        #expect(try await eventually(within: .seconds(30)) {
            try await recorded(host).report.datagramsReceived >= before.report.datagramsReceived + total
        })
        let after = try await recorded(host)
        #expect(after.opened == before.opened)
        #expect(after.injected == before.injected)
        #expect(after.buttonEdges == ["B↓", "B↑"])
        // The initiation is refused by its timestamp; transport datagrams find no session.
        #expect(after.report.drops[.replayed] >= 2, "drops: \(after.report.drops.summary)")
        try await attacker.close()
        await relay.close()
        await host.shutdown()
    }

    @Test func replayDuringLiveSessionIsRejectedByTheWindow() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        let (key, hostKey) = try await pairThroughRealFlow(hostStore: hostStore, clientStore: clientStore)
        let host = try await startSecureHost(store: hostStore)
        let relay = try await CapturingRelay.start(upstream: host.localAddress)
        let client = try await startSecureClient(to: relay.address, key: key, hostKey: hostKey, duration: 1.5,
                                                 presses: [.init(button: .c, at: 0.1, hold: 0.1)])
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).buttonEdges == ["C↓", "C↑"] })
        let captured = relay.datagrams.filter { $0[2] == DatagramKind.transport.rawValue }
        for bytes in captured { try await relay.channel.writeAndFlush(
            AddressedEnvelope(remoteAddress: host.localAddress, data: relay.channel.allocator.buffer(bytes: bytes))) }
        _ = await events(of: client)
        await client.close()
        let r = try await recorded(host)
        #expect(r.buttonEdges == ["C↓", "C↑"])
        #expect(r.report.drops[.replayed] >= captured.count, "drops: \(r.report.drops.summary)")
        await relay.close()
        await host.shutdown()
    }

    @Test func forgedPlaintextButtonPacketsInjectNothing() async throws {
        let hostStore = temporaryStore("host")
        defer { removeStore(hostStore) }
        let host = try await startSecureHost(store: hostStore)
        let attacker = try await rawSocket()
        var forged: [[UInt8]] = []
        // The seed's format: 25 bytes, type 0x02, button id, state, zero padding.
        for button in UInt8(0)..<16 {
            for state in UInt8(0)...1 { forged.append([0x02, button, state] + [UInt8](repeating: 0, count: 22)) }
        }
        // Our v1 plain format: a ping that would open a session, then button edges.
        let session = SessionID(0x1234)
        forged.append(PlainDatagram(session: session, message: .ping(clientTimeMicros: 1, clockOffsetMicros: 0)).encode())
        forged.append(PlainDatagram(session: session, message: .buttons([
            ButtonEvent(sequence: 1, button: .a, isDown: true, timestampMicros: 2)])).encode())
        forged.append(PlainDatagram(session: session, message: .motion(MotionPacket(
            sequence: 1, buttonSequence: 0, sample: MotionSample(timestampMicros: 3, attitude: Attitude(roll: 0, pitch: 0, yaw: 0),
                                                                 gyro: Vector3(x: 0, y: 0, z: 0))))).encode())
        for bytes in forged { try await send(bytes, on: attacker, to: host.localAddress) }
        #expect(try await eventually(within: .seconds(30)) { try await recorded(host).report.datagramsReceived == forged.count })
        let r = try await recorded(host)
        #expect(r.opened == 0)
        #expect(r.injected == 0)
        #expect(r.report.drops.total == forged.count, "drops: \(r.report.drops.summary)")
        #expect(r.report.drops[.unsupportedKind] == 3)
        try await attacker.close()
        await host.shutdown()
    }

    @Test func pairedClientReconnectsAfterHostRestartWithoutPairingAgain() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        let (key, hostKey) = try await pairThroughRealFlow(hostStore: hostStore, clientStore: clientStore)
        let first = try await startSecureHost(store: hostStore)
        let port = first.localAddress.port!
        let c1 = try await startSecureClient(to: first.localAddress, key: key, hostKey: hostKey, duration: 0.3)
        #expect(await events(of: c1).first == .connected)
        await c1.close()
        await first.shutdown()
        let second = try await startSecureHost(store: hostStore, port: port)
        // The controller loads what it stored when pairing: nothing else.
        let known = try #require(try clientStore.knownHost(for: second.localAddress.displayText))
        let c2 = try await startSecureClient(to: second.localAddress, key: try clientStore.clientKey(),
                                             hostKey: try #require(known.key), duration: 0.3,
                                             presses: [.init(button: .d, at: 0.05, hold: 0.1)])
        #expect(await events(of: c2).first == .connected)
        await c2.close()
        #expect(try await eventually(within: .seconds(30)) { try await recorded(second).buttonEdges == ["D↓", "D↑"] })
        await second.shutdown()
    }

    @Test func revokedClientCanNoLongerConnect() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        let (key, hostKey) = try await pairThroughRealFlow(hostStore: hostStore, clientStore: clientStore)
        let host = try await startSecureHost(store: hostStore)
        let c1 = try await startSecureClient(to: host.localAddress, key: key, hostKey: hostKey, duration: 0.3)
        #expect(await events(of: c1).first == .connected)
        await c1.close()
        // Revoked while the host keeps running: it notices on the next handshake.
        let removed = try hostStore.revoke(String(KeyFingerprint.fingerprint(of: key.publicKey).prefix(9)))
        #expect(removed.count == 1)
        let before = try await recorded(host)
        let c2 = try await startSecureClient(to: host.localAddress, key: key, hostKey: hostKey, duration: 0.5,
                                             presses: [.init(button: .e, at: 0.05, hold: 0.1)], timeout: .seconds(1))
        #expect(await events(of: c2).first == .timedOut)
        await c2.close()
        let after = try await recorded(host)
        #expect(after.opened == before.opened)
        #expect(after.injected == before.injected)
        #expect(after.report.drops[.authenticationFailed] > before.report.drops[.authenticationFailed])
        await host.shutdown()
    }

    @Test func refusedPairingLeavesNoTrustBehind() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        await #expect(throws: PairingError.self) {
            _ = try await pairThroughRealFlow(hostStore: hostStore, clientStore: clientStore, accept: false)
        }
        #expect(try hostStore.pairedControllers().isEmpty)
        #expect(try clientStore.knownHosts().isEmpty)
        // The refused key cannot start a session either.
        let host = try await startSecureHost(store: hostStore)
        let client = try await startSecureClient(to: host.localAddress, key: try clientStore.clientKey(),
                                                 hostKey: try hostStore.hostKey().publicKey, duration: 0.5,
                                                 timeout: .seconds(1))
        #expect(await events(of: client).first == .timedOut)
        await client.close()
        #expect(try await recorded(host).opened == 0)
        await host.shutdown()
    }

    @Test func unansweredPairingTimesOutAndLeavesNoTrust() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        let secret = SecureHosting.newSecret()
        let desk = PairingDesk()
        let host = try await startSecureHost(store: hostStore, pairing: secret, desk: desk)
        let code = PairingCode(hostKey: try hostStore.hostKey().publicKey, secret: secret, address: host.localAddress.displayText)
        let pairing = Task { try await PairingConnector.pair(code: code, staticKey: try clientStore.clientKey(), name: "x",
                                                              timeout: .milliseconds(1500)) }
        var requests = desk.requests.makeAsyncIterator()
        let request = await requests.next()
        #expect(request?.name == "x")
        await #expect(throws: PairingError.self) { _ = try await pairing.value }
        #expect(try hostStore.pairedControllers().isEmpty)
        await host.shutdown()
    }

    @Test func wrongSecretCannotPair() async throws {
        let hostStore = temporaryStore("host"), clientStore = temporaryStore("client")
        defer { removeStore(hostStore); removeStore(clientStore) }
        let desk = PairingDesk()
        let host = try await startSecureHost(store: hostStore, pairing: SecureHosting.newSecret(), desk: desk)
        let code = PairingCode(hostKey: try hostStore.hostKey().publicKey, secret: SecureHosting.newSecret(),
                               address: host.localAddress.displayText)
        await #expect(throws: PairingError.self) {
            _ = try await PairingConnector.pair(code: code, staticKey: try clientStore.clientKey(), name: "x",
                                                timeout: .milliseconds(1200))
        }
        let r = try await recorded(host)
        #expect(r.report.drops[.authenticationFailed] >= 1, "drops: \(r.report.drops.summary)")
        #expect(try hostStore.pairedControllers().isEmpty)
        await host.shutdown()
    }
}
