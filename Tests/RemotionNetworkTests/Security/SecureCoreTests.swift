import Foundation
import RemotionProtocol
import Testing

struct FakeAddress: SourceAddress {
    var n: UInt32
    var cookieBytes: [UInt8] { [127, UInt8(n >> 16 & 0xff), UInt8(n >> 8 & 0xff), UInt8(n & 0xff), 0x1c, 0xf2] }
}

/// Deterministic randomness for the sans-IO cores.

func withBytes<R>(_ a: [UInt8], _ body: (UnsafeRawBufferPointer) -> R) -> R { a.withUnsafeBytes(body) }

/// The pure host and client cores exchanging bytes in memory under a simulated clock.
@Suite struct SecureCoreTests {
    var rng = SplitMix64(seed: 7)
    let address = FakeAddress(n: 1)

    @Test mutating func rekeyEveryTwoMinutesLosesNoMessage() throws {
        let hostKey = rng.keyPair(), clientKey = rng.keyPair()
        var now = Instant(nanoseconds: 1_000_000_000)
        var wall: Int64 = 1_700_000_000
        var host = SecureHost<FakeAddress>(staticKey: hostKey, trusted: [clientKey.publicKey], now: now, random: &rng)
        var client = SecureClient(staticKey: clientKey, hostStatic: hostKey.publicKey, clientSession: SessionID(42))
        func tai() -> TAI64N { wall += 1; return TAI64N(unixSeconds: wall, nanoseconds: 0) }

        // Handshake.
        let initiation = try #require(client.initiation(now: now, wallClock: tai(), random: &rng))
        guard case let .reply(response) = withBytes(initiation, { host.inbound($0, from: address, now: now, random: &rng) }) else {
            Issue.record("no handshake response"); return
        }
        #expect(withBytes(response) { client.inbound($0, now: now, wallClock: tai(), random: &rng) } == .established)
        var sessionID: SessionID?
        var delivered = 0
        var sent = 0
        func exchange(_ count: Int) {
            for _ in 0..<count {
                now = now + .milliseconds(10)
                sent += 1
                let m = Message.ping(clientTimeMicros: UInt64(sent), clockOffsetMicros: 0)
                guard let sealed = client.seal(m, now: now) else { continue }
                if case let .message(got, id) = withBytes(sealed, { host.inbound($0, from: address, now: now, random: &rng) }),
                   got == m {
                    delivered += 1
                    sessionID = id
                    if let pong = host.outbound(.pong(echoClientTimeMicros: 1, hostTimeMicros: 2), session: id, now: now) {
                        _ = withBytes(pong) { client.inbound($0, now: now, wallClock: tai(), random: &rng) }
                    }
                }
            }
        }
        exchange(100)
        let first = try #require(sessionID)
        // Three rekeys, each while messages keep flowing with the old keys.
        for _ in 0..<3 {
            now = now + RekeyPolicy.rekeyAfterTime
            #expect(client.wantsHandshake(now: now, retryAfter: .milliseconds(450)))
            let again = try #require(client.initiation(now: now, wallClock: tai(), random: &rng))
            exchange(5)   // still on the old keys: nothing is lost while the handshake is in flight
            guard case let .reply(r) = withBytes(again, { host.inbound($0, from: address, now: now, random: &rng) }) else {
                Issue.record("no rekey response"); return
            }
            exchange(5)
            #expect(withBytes(r) { client.inbound($0, now: now, wallClock: tai(), random: &rng) } == .established)
            exchange(50)
            #expect(sessionID == first, "a rekey keeps the session the host's engine sees")
            host.tick(now: now, random: &rng)
        }
        #expect(delivered == sent)
        #expect(host.sessionCount == 1)
        #expect(host.handshakesCompleted == 4)
        // The first initiation, replayed, is refused by its timestamp and changes nothing.
        #expect(withBytes(initiation) { host.inbound($0, from: address, now: now, random: &rng) } == .drop(.replayed))
        #expect(host.sessionCount == 1)
    }

    @Test mutating func halfOpenPairingsAndSourcesStayBoundedUnderAFlood() throws {
        let hostKey = rng.keyPair()
        var now = Instant(nanoseconds: 1_000_000_000)
        var configuration = SecureHost<FakeAddress>.Configuration()
        configuration.cookieThreshold = .max    // measure the tables, not the cookie
        configuration.limits.totalPerSecond = 1_000_000
        configuration.limits.totalBurst = 1_000_000
        var host = SecureHost<FakeAddress>(staticKey: hostKey, trusted: [], configuration: configuration, now: now, random: &rng)
        host.openPairing(psk: PairingCode.psk(secret: [UInt8](repeating: 1, count: 16)), until: now + .seconds(120))
        let mac1Key = DoSMacs.mac1Key(responderStatic: hostKey.publicKey)
        var answered = 0
        for i in 0..<600 {
            now = now + .milliseconds(1)
            // A well-formed XXpsk3 message 0 needs no secret: the psk enters at message 2.
            var hs = try HandshakeState(protocol: .XXpsk3, initiator: true, prologue: remotionPrologue,
                                        localStatic: rng.keyPair(), localEphemeral: rng.keyPair(),
                                        psks: [rng.bytes(32)])
            let index = UInt32(i + 1)
            let bytes = HandshakeDatagram(receiverIndex: index, senderIndex: index, pattern: .xxpsk3, messageNumber: 0,
                                          noiseMessage: try hs.writeMessage()).encode(mac1Key: mac1Key, cookie: nil)
            if case .reply = withBytes(bytes, { host.inbound($0, from: FakeAddress(n: UInt32(i)), now: now, random: &rng) }) {
                answered += 1
            }
            #expect(host.pendingPairingCount <= configuration.maxPendingPairings)
            #expect(host.trackedSources <= configuration.limits.maxSources)
        }
        #expect(answered > 500)
        #expect(host.pendingPairingCount == configuration.maxPendingPairings)
        #expect(host.halfOpenCount == 0)
        #expect(host.takePairingRequests().isEmpty, "nobody knew the secret: nothing reaches the user")
    }

    @Test mutating func malformedAndUnknownDatagramsChangeNothing() throws {
        let hostKey = rng.keyPair()
        let now = Instant(nanoseconds: 5)
        var host = SecureHost<FakeAddress>(staticKey: hostKey, trusted: [], now: now, random: &rng)
        var seen = Set<String>()
        for n in 0..<2000 {
            var bytes = rng.bytes(Int.random(in: 0...200, using: &rng))
            if n % 2 == 0, bytes.count >= 16 { bytes[0] = wireMagic; bytes[1] = wireVersion; bytes[2] = UInt8(n % 6); bytes[3] = 0 }
            let result = withBytes(bytes) { host.inbound($0, from: FakeAddress(n: UInt32(n)), now: now, random: &rng) }
            guard case let .drop(reason) = result else { Issue.record("garbage was answered: \(result)"); return }
            seen.insert("\(reason)")
        }
        #expect(host.sessionCount == 0)
        #expect(host.trackedSources == 0, "nothing failing mac1 gets a rate-limit bucket")
        #expect(host.drops.total == 2000)
        #expect(seen.count >= 3)
    }

    /// Handshake and transport cost of the cores (debug build; printed for the docs).
    @Test mutating func handshakeCostIsBounded() throws {
        let hostKey = rng.keyPair(), clientKey = rng.keyPair()
        let now = Instant(nanoseconds: 1)
        var configuration = SecureHost<FakeAddress>.Configuration()
        configuration.cookieThreshold = .max   // measure handshakes, not cookie replies
        var host = SecureHost<FakeAddress>(staticKey: hostKey, trusted: [clientKey.publicKey],
                                           configuration: configuration, now: now, random: &rng)
        let clock = ContinuousClock()
        let rounds = 20
        var established = 0
        let handshakes = try clock.measure {
            for i in 0..<rounds {
                var client = SecureClient(staticKey: clientKey, hostStatic: hostKey.publicKey, clientSession: SessionID(UInt32(i + 1)))
                let wall = TAI64N(unixSeconds: 1_700_000_000 + Int64(i), nanoseconds: 0)
                let initiation = try #require(client.initiation(now: now, wallClock: wall, random: &rng))
                guard case let .reply(r) = withBytes(initiation, { host.inbound($0, from: FakeAddress(n: UInt32(i)), now: now, random: &rng) })
                else { continue }
                if withBytes(r, { client.inbound($0, now: now, wallClock: wall, random: &rng) }) == .established { established += 1 }
            }
        }
        #expect(established == rounds)
        let perHandshake = handshakes / rounds
        print("IK handshake (initiator + responder, debug build): \(perHandshake)")
        #expect(perHandshake < .milliseconds(200))
    }

    @Test func pairingCodeRoundTripsAndRejectsDamage() throws {
        var rng = SplitMix64(seed: 3)
        let code = PairingCode(hostKey: rng.bytes(32), secret: rng.bytes(16), address: "[::1]:7474")
        let text = code.description
        #expect(text.hasPrefix("remotion-pair:v1:"))
        #expect(try PairingCode.parse("  " + text + "\n") == code)
        let lower = PairingCode.prefix + String(text.dropFirst(PairingCode.prefix.count)).lowercased()
        #expect(try PairingCode.parse(lower) == code)
        #expect(throws: PairingCode.ParseError.self) { try PairingCode.parse("remotion-pair:v2:AAAA:BBBB@1.2.3.4:5") }
        #expect(throws: PairingCode.ParseError.self) { try PairingCode.parse(String(text.dropLast(12)).replacingOccurrences(of: "@", with: "")) }
        var damaged = Array(text)
        damaged[20] = "1"   // '1' is not base32
        #expect(throws: PairingCode.ParseError.self) { try PairingCode.parse(String(damaged)) }
        #expect(code.psk.count == 32)
        #expect(Base32.decode(Base32.encode([0, 1, 2, 3, 4, 255])) == [0, 1, 2, 3, 4, 255])
    }
}
