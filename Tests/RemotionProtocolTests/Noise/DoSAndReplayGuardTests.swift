import Testing
import RemotionProtocol
@testable import RemotionProtocol

@Suite struct DoSAndReplayGuardTests {
    let host: KeyPair
    init() throws { host = try fixedKey(1) }

    func initiation(cookie: [UInt8]?, index: UInt32 = 0xABCD) -> [UInt8] {
        HandshakeDatagram(receiverIndex: index, senderIndex: index, pattern: .ik, messageNumber: 0,
                          noiseMessage: Array(repeating: 0x42, count: 108))
            .encode(mac1Key: DoSMacs.mac1Key(responderStatic: host.publicKey), cookie: cookie)
    }

    @Test func mac1MatchesReferenceAndDetectsTampering() throws {
        // python3: hmac(sha256(b"mac1----"+bytes(range(32))), b"hello", sha256)[:16]
        #expect(hexString(DoSMacs.mac(key: DoSMacs.mac1Key(responderStatic: Array(0..<32)), Array("hello".utf8)))
            == "8d27e488ffe75e190aaed4f0605b3cf2")
        let d = initiation(cookie: nil)
        let key = DoSMacs.mac1Key(responderStatic: host.publicKey)
        #expect(DoSMacs.verifyMac1(d, mac1Key: key))
        #expect(!DoSMacs.verifyMac1(d, mac1Key: DoSMacs.mac1Key(responderStatic: try fixedKey(9).publicKey)))
        var t = d
        t[20] ^= 1
        #expect(!DoSMacs.verifyMac1(t, mac1Key: key))
        #expect(!DoSMacs.verifyMac1(Array(d.prefix(20)), mac1Key: key))
        #expect(d.suffix(16) == ArraySlice(repeating: 0, count: 16)) // no cookie: mac2 zero
    }

    @Test func cookieRoundTripEnablesMac2() throws {
        var rng = TestRandom(state: 5)
        var checker = try CookieChecker(responderStatic: host.publicKey, secret: rng.bytes(32), now: .seconds(0))
        let address: [UInt8] = [127, 0, 0, 1, 0x1F, 0x90]
        let first = initiation(cookie: nil)
        #expect(checker.verifyMac1(first))
        #expect(!checker.verifyMac2(first, sourceAddress: address))

        let reply = try checker.cookieReply(to: first, sourceAddress: address, nonce: rng.bytes(12))
        #expect(reply.count == CookieReply.length && reply[2] == 0x04)
        var jar = CookieJar(responderStatic: host.publicKey)
        // A reply that does not answer our mac1 is rejected and stores nothing.
        #expect(throws: NoiseError.authenticationFailed) {
            try jar.receive(reply: reply, sentMac1: Array(repeating: 0, count: 16), now: .seconds(1))
        }
        #expect(jar.cookie == nil)
        try jar.receive(reply: reply, sentMac1: try HandshakeDatagram.mac1(of: first), now: .seconds(1))
        let cookie = try #require(jar.currentCookie(now: .seconds(2)))
        #expect(cookie == checker.cookie(sourceAddress: address))

        let second = initiation(cookie: cookie)
        #expect(checker.verifyMac1(second))
        #expect(checker.verifyMac2(second, sourceAddress: address))
        #expect(!checker.verifyMac2(second, sourceAddress: [127, 0, 0, 2, 0x1F, 0x90]))

        // Cookie use expires on the client; the secret rotates on the host.
        #expect(jar.currentCookie(now: .seconds(116)) == nil)
        #expect(!checker.secretIsDue(now: .seconds(119)))
        #expect(try checker.rotateIfDue(now: .seconds(120), random: { rng.bytes($0) }))
        #expect(!checker.verifyMac2(second, sourceAddress: address))
        #expect(throws: NoiseError.self) { try checker.rotate(secret: [1], now: .seconds(121)) }
    }

    @Test func tamperedCookieReplyIsRejected() throws {
        let checker = try CookieChecker(responderStatic: host.publicKey, secret: Array(repeating: 1, count: 32), now: .zero)
        let first = initiation(cookie: nil)
        var reply = try checker.cookieReply(to: first, sourceAddress: [10, 0, 0, 1], nonce: Array(repeating: 3, count: 12))
        reply[30] ^= 1
        var jar = CookieJar(responderStatic: host.publicKey)
        #expect(throws: NoiseError.authenticationFailed) {
            try jar.receive(reply: reply, sentMac1: try HandshakeDatagram.mac1(of: first), now: .zero)
        }
        #expect(throws: NoiseError.self) { _ = try CookieReply.open(Array(reply.prefix(30)), cookieKey: jar.cookieKey, answeredMac1: []) }
    }

    @Test func handshakeDatagramRoundTripAndErrors() throws {
        let d = HandshakeDatagram(receiverIndex: 7, senderIndex: 9, pattern: .xx, messageNumber: 1, noiseMessage: [1, 2, 3])
        let bytes = d.encode(mac1Key: Array(repeating: 0, count: 32), cookie: nil)
        #expect(Array(bytes.prefix(16)) == [0x52, 1, 0x03, 0, 7, 0, 0, 0, 9, 0, 0, 0, 2, 1, 0, 0])
        #expect(try HandshakeDatagram.decode(bytes) == d)
        func mutated(_ i: Int, _ v: UInt8) -> [UInt8] { var b = bytes; b[i] = v; return b }
        for bad in [mutated(0, 0x53), mutated(1, 2), mutated(2, 0x02), mutated(3, 1), mutated(12, 9), mutated(13, 5),
                    mutated(14, 1), Array(bytes.prefix(40)), mutated(4, 0).enumerated().map { $0.offset < 8 && $0.offset > 3 ? 0 : $0.element }] {
            #expect(throws: NoiseError.self) { _ = try HandshakeDatagram.decode(bad) }
        }
        // Message 0 must repeat its sender index in the header.
        let m0 = HandshakeDatagram(receiverIndex: 5, senderIndex: 6, pattern: .ik, messageNumber: 0, noiseMessage: [])
        #expect(throws: NoiseError.self) { _ = try HandshakeDatagram.decode(m0.encode(mac1Key: [], cookie: nil)) }
    }

    @Test func tai64nEncoding() throws {
        let t = TAI64N(unixSeconds: 0, nanoseconds: 0x0102_0304)
        #expect(t.bytes == [0x40, 0, 0, 0, 0, 0, 0, 0x0A, 1, 2, 3, 4])
        #expect(try TAI64N(bytes: t.bytes) == t)
        #expect(TAI64N(unixSeconds: 1, nanoseconds: 0) > TAI64N(unixSeconds: 0, nanoseconds: 999_999_999))
        #expect(throws: NoiseError.self) { _ = try TAI64N(bytes: [1, 2, 3]) }
        #expect(throws: NoiseError.self) { _ = try TAI64N(bytes: [0x40, 0, 0, 0, 0, 0, 0, 0x0A, 0xFF, 0xFF, 0xFF, 0xFF]) }
    }

    @Test func replayedIKInitiationIsRejected() throws {
        let host = try fixedKey(1), client = try fixedKey(2)
        var guardian = InitiationReplayGuard()
        func initiation(at seconds: Int64, ephemeral: UInt8) throws -> [UInt8] {
            var i = try HandshakeState(protocol: .IK, initiator: true, prologue: remotionPrologue, localStatic: client,
                                       localEphemeral: try fixedKey(ephemeral), remoteStatic: host.publicKey)
            return try i.writeMessage(payload: TAI64N(unixSeconds: seconds, nanoseconds: 0).bytes + [1])
        }
        func receive(_ m: [UInt8]) throws {
            var r = try HandshakeState(protocol: .IK, initiator: false, prologue: remotionPrologue, localStatic: host,
                                       localEphemeral: try fixedKey(50))
            let (stamp, rest) = try InitiationReplayGuard.splitPayload(try r.readMessage(m))
            #expect(rest == [1])
            try guardian.accept(stamp, from: try #require(r.remoteStatic))
        }
        let first = try initiation(at: 1000, ephemeral: 3)
        try receive(first)
        #expect(throws: NoiseError.staleTimestamp) { try receive(first) }     // captured and replayed
        #expect(throws: NoiseError.staleTimestamp) { try receive(try initiation(at: 999, ephemeral: 4)) }
        try receive(try initiation(at: 1001, ephemeral: 5))
        #expect(guardian.latestTimestamp(for: client.publicKey) == TAI64N(unixSeconds: 1001, nanoseconds: 0))
        #expect(guardian.check(TAI64N(unixSeconds: 1, nanoseconds: 0), from: try fixedKey(7).publicKey))
        guardian.forget(client.publicKey)
        try receive(first)
    }
}
