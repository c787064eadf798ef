import Testing
import RemotionProtocol
@testable import RemotionProtocol

/// A complete IK exchange through real datagram bytes, as host and client would do it.
struct IKFixture {
    let host: KeyPair, client: KeyPair
    let clientIndex: UInt32 = 0x1111_1111, hostIndex: UInt32 = 0x2222_2222
    var clientSide: (sender: TransportSender, receiver: TransportReceiver)
    var hostSide: (sender: TransportSender, receiver: TransportReceiver)

    init() throws {
        host = try fixedKey(1)
        client = try fixedKey(2)
        let mac1Key = DoSMacs.mac1Key(responderStatic: host.publicKey)
        var ci = try HandshakeState(protocol: .IK, initiator: true, prologue: remotionPrologue, localStatic: client,
                                    localEphemeral: try fixedKey(3), remoteStatic: host.publicKey)
        let ts = TAI64N(unixSeconds: 1_700_000_000, nanoseconds: 5)
        let m0 = try ci.writeMessage(payload: ts.bytes + Array("hello".utf8))
        let d0 = HandshakeDatagram(receiverIndex: clientIndex, senderIndex: clientIndex, pattern: .ik,
                                   messageNumber: 0, noiseMessage: m0).encode(mac1Key: mac1Key, cookie: nil)

        #expect(DoSMacs.verifyMac1(d0, mac1Key: mac1Key))
        let p0 = try HandshakeDatagram.decode(d0)
        var hr = try HandshakeState(protocol: p0.pattern.noiseProtocol, initiator: false, prologue: remotionPrologue,
                                    localStatic: host, localEphemeral: try fixedKey(4))
        let (stamp, app) = try InitiationReplayGuard.splitPayload(try hr.readMessage(p0.noiseMessage))
        #expect(stamp == ts && app == Array("hello".utf8))
        #expect(hr.remoteStatic == client.publicKey)
        let m1 = try hr.writeMessage()
        let d1 = HandshakeDatagram(receiverIndex: p0.senderIndex, senderIndex: hostIndex, pattern: .ik,
                                   messageNumber: 1, noiseMessage: m1).encode(mac1Key: mac1Key, cookie: nil)
        let p1 = try HandshakeDatagram.decode(d1)
        #expect(p1.receiverIndex == clientIndex && p1.senderIndex == hostIndex)
        _ = try ci.readMessage(p1.noiseMessage)
        #expect(ci.handshakeHash == hr.handshakeHash)
        clientSide = try ci.transport(localIndex: clientIndex, remoteIndex: p1.senderIndex)
        hostSide = try hr.transport(localIndex: hostIndex, remoteIndex: p0.senderIndex)
    }
}

@Suite struct SessionFlowTests {
    @Test func ikTransportBothWays() throws {
        var f = try IKFixture()
        var wire: [UInt8] = [], plain: [UInt8] = []
        for i in 0..<20 {
            try f.clientSide.sender.seal([UInt8(i), 1, 2, 3], into: &wire)
            #expect(wire.count == TransportLayout.overhead + 4)
            #expect(try TransportLayout.receiverIndex(of: wire.withUnsafeBytes { $0 }) == f.hostIndex)
            #expect(try f.hostSide.receiver.open(wire, into: &plain) == UInt64(i))
            #expect(plain == [UInt8(i), 1, 2, 3])
            try f.hostSide.sender.seal([], into: &wire) // keepalive
            try f.clientSide.receiver.open(wire, into: &plain)
            #expect(plain.isEmpty)
        }
    }

    @Test func reorderedDatagramsAreAcceptedOnceAndReplaysRejected() throws {
        var f = try IKFixture()
        var datagrams: [[UInt8]] = []
        var wire: [UInt8] = []
        for i in 0..<300 {
            try f.clientSide.sender.seal(Array("motion \(i)".utf8), into: &wire)
            datagrams.append(wire)
        }
        var rng = TestRandom(state: 7)
        for i in stride(from: datagrams.count - 1, to: 0, by: -1) {
            datagrams.swapAt(i, Int(rng.next() % UInt64(i + 1)))
        }
        var plain: [UInt8] = []
        var got = Set<UInt64>()
        for d in datagrams {
            let c = try f.hostSide.receiver.open(d, into: &plain)
            #expect(plain == Array("motion \(c)".utf8))
            got.insert(c)
        }
        #expect(got.count == 300)
        for d in datagrams.prefix(10) {
            #expect(throws: NoiseError.self) { try f.hostSide.receiver.open(d, into: &plain) }
        }
    }

    @Test func forgedDatagramChangesNoState() throws {
        var f = try IKFixture()
        var wire: [UInt8] = [], plain: [UInt8] = [9, 9]
        try f.clientSide.sender.seal([1, 2, 3], into: &wire)
        var forged = wire
        forged[forged.count - 1] ^= 0x01
        let before = f.hostSide.receiver.window
        #expect(throws: NoiseError.authenticationFailed) { try f.hostSide.receiver.open(forged, into: &plain) }
        #expect(f.hostSide.receiver.window == before)
        // A forged counter far ahead must not advance the window either.
        var ahead = wire
        ahead.replaceSubrange(8..<16, with: withUnsafeBytes(of: UInt64(1_000_000).littleEndian, Array.init))
        #expect(throws: NoiseError.authenticationFailed) { try f.hostSide.receiver.open(ahead, into: &plain) }
        #expect(f.hostSide.receiver.window == before)
        // Tampering with the header (associated data) is detected too.
        var header = wire
        header[3] = 0
        header[2] = 0x05
        header[7] ^= 0x80
        #expect(throws: NoiseError.self) { try f.hostSide.receiver.open(header, into: &plain) }
        // The genuine datagram still opens.
        #expect(try f.hostSide.receiver.open(wire, into: &plain) == 0)
        #expect(plain == [1, 2, 3])
    }

    @Test func malformedTransportDatagramsThrow() throws {
        var f = try IKFixture()
        var plain: [UInt8] = []
        for bad: [UInt8] in [[], [0x52, 1, 5, 0], Array(repeating: 0, count: 40), [0x52, 2, 5, 0] + Array(repeating: 0, count: 40)] {
            #expect(throws: NoiseError.self) { try f.hostSide.receiver.open(bad, into: &plain) }
        }
    }

    @Test func senderRefusesToReuseNonces() throws {
        var c = try CipherState(key: Array(repeating: 7, count: 32))
        c.setNonce(UInt64.max)
        #expect(throws: NoiseError.nonceExhausted) { _ = try c.encryptWithAd([], [1]) }
    }

    @Test func implicitDecryptFailureKeepsNonce() throws {
        var a = try CipherState(key: Array(repeating: 7, count: 32))
        var b = a
        let ct = try a.encryptWithAd([1], [5, 6, 7])
        #expect(throws: NoiseError.authenticationFailed) { _ = try b.decryptWithAd([2], ct) }
        #expect(b.nonce == 0)
        #expect(try b.decryptWithAd([1], ct) == [5, 6, 7])
        #expect(b.nonce == 1)
    }

    @Test func rekeyChangesTheKeyIdenticallyOnBothSides() throws {
        var a = try CipherState(key: Array(repeating: 3, count: 32))
        var b = a
        let before = try a.encryptWithAd([], [1])
        a.rekey(); b.rekey()
        a.setNonce(0); b.setNonce(0)
        let after = try a.encryptWithAd([], [1])
        #expect(before != after)
        #expect(try b.decryptWithAd([], after) == [1])
    }

    @Test func rekeyPolicy() {
        let t0 = Instant.seconds(10)
        #expect(!RekeyPolicy.shouldRekey(keysCreatedAt: t0, messagesSent: 5, now: .seconds(129)))
        #expect(RekeyPolicy.shouldRekey(keysCreatedAt: t0, messagesSent: 5, now: .seconds(130)))
        #expect(RekeyPolicy.shouldRekey(keysCreatedAt: t0, messagesSent: 1 << 60, now: t0))
        #expect(!RekeyPolicy.isExpired(keysCreatedAt: t0, now: .seconds(189)))
        #expect(RekeyPolicy.isExpired(keysCreatedAt: t0, now: .seconds(190)))
    }
}
