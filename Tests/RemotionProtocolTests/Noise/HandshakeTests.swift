import Testing
import RemotionProtocol
@testable import RemotionProtocol

@Suite struct HandshakeTests {
    @Test func forgedHandshakeMessageDoesNotKillTheHandshake() throws {
        let host = try fixedKey(1)
        var i = try HandshakeState(protocol: .IK, initiator: true, prologue: remotionPrologue, localStatic: try fixedKey(2),
                                   localEphemeral: try fixedKey(3), remoteStatic: host.publicKey)
        var r = try HandshakeState(protocol: .IK, initiator: false, prologue: remotionPrologue, localStatic: host,
                                   localEphemeral: try fixedKey(4))
        let m0 = try i.writeMessage(payload: [1, 2, 3])
        var forged = m0
        forged[40] ^= 1
        #expect(throws: NoiseError.authenticationFailed) { _ = try r.readMessage(forged) }
        #expect(throws: NoiseError.self) { _ = try r.readMessage(Array(m0.prefix(20))) }
        #expect(r.nextMessageIndex == 0 && r.remoteStatic == nil)
        #expect(try r.readMessage(m0) == [1, 2, 3])
        #expect(throws: NoiseError.wrongTurn) { _ = try r.readMessage(m0) }
        #expect(throws: NoiseError.wrongTurn) { _ = try i.writeMessage() }
        #expect(throws: NoiseError.handshakeNotComplete) { _ = try i.split() }
    }

    @Test func prologueMismatchFails() throws {
        let host = try fixedKey(1)
        var i = try HandshakeState(protocol: .IK, initiator: true, prologue: remotionPrologue, localStatic: try fixedKey(2),
                                   localEphemeral: try fixedKey(3), remoteStatic: host.publicKey)
        var r = try HandshakeState(protocol: .IK, initiator: false, prologue: Array("remotion v2".utf8),
                                   localStatic: host, localEphemeral: try fixedKey(4))
        #expect(throws: NoiseError.authenticationFailed) { _ = try r.readMessage(try i.writeMessage()) }
    }

    @Test func missingKeysAreReportedUpFront() throws {
        #expect(throws: NoiseError.missingKey("the remote static key")) {
            _ = try HandshakeState(protocol: .IK, initiator: true, localStatic: try fixedKey(2), localEphemeral: try fixedKey(3))
        }
        #expect(throws: NoiseError.missingKey("the local static key")) {
            _ = try HandshakeState(protocol: .XX, initiator: false, localEphemeral: try fixedKey(3))
        }
        #expect(throws: NoiseError.self) {
            _ = try HandshakeState(protocol: .XXpsk3, initiator: true, localStatic: try fixedKey(2), localEphemeral: try fixedKey(3))
        }
        #expect(throws: NoiseError.badLength(what: "psk", expected: 32, actual: 3)) {
            _ = try HandshakeState(protocol: .XXpsk3, initiator: true, localStatic: try fixedKey(2),
                                   localEphemeral: try fixedKey(3), psks: [[1, 2, 3]])
        }
    }

    @Test func protocolNamesParse() throws {
        #expect(try NoiseProtocol(name: "Noise_XXpsk3_25519_ChaChaPoly_SHA256").pattern.messages
            == [[.e], [.e, .ee, .s, .es], [.s, .se, .psk]])
        #expect(try NoiseProtocol(name: "Noise_NNpsk0+psk2_25519_ChaChaPoly_SHA256").pattern.messages
            == [[.psk, .e], [.e, .ee, .psk]])
        #expect(NoiseProtocol.IK.name == "Noise_IK_25519_ChaChaPoly_SHA256")
        for bad in ["Noise_ZZ_25519_ChaChaPoly_SHA256", "Noise_XX_448_ChaChaPoly_SHA256", "Noise_XXpsk9_25519_ChaChaPoly_SHA256",
                    "Noise_XXpsk_25519_ChaChaPoly_SHA256", "Noise_XX_25519_AESGCM_SHA256", "XX", ""] {
            #expect(throws: NoiseError.self, "\(bad)") { _ = try NoiseProtocol(name: bad) }
        }
    }

    @Test func xxNumericComparisonCodesMatch() throws {
        let host = try fixedKey(1), client = try fixedKey(2)
        var rng = TestRandom(state: 99)
        let na = rng.bytes(32), nb = rng.bytes(32)
        var i = try HandshakeState(protocol: .XX, initiator: true, prologue: remotionPrologue, localStatic: client,
                                   localEphemeral: try fixedKey(3))
        var r = try HandshakeState(protocol: .XX, initiator: false, prologue: remotionPrologue, localStatic: host,
                                   localEphemeral: try fixedKey(4))
        let commitment = try r.readMessage(try i.writeMessage(payload: ComparisonCode.commitment(to: na)))
        #expect(try i.readMessage(try r.writeMessage(payload: nb)) == nb)
        let h1Initiator = i.handshakeHash, h1Responder = r.handshakeHash
        #expect(i.remoteStatic == host.publicKey)
        let revealed = try r.readMessage(try i.writeMessage(payload: na))
        try ComparisonCode.verify(commitment: commitment, initiatorNonce: revealed)
        #expect(throws: NoiseError.commitmentMismatch) {
            try ComparisonCode.verify(commitment: commitment, initiatorNonce: nb)
        }
        #expect(r.remoteStatic == client.publicKey)
        let codeI = ComparisonCode.code(transcriptHash: h1Initiator, initiatorNonce: na, responderNonce: nb)
        let codeR = ComparisonCode.code(transcriptHash: h1Responder, initiatorNonce: revealed, responderNonce: nb)
        #expect(codeI == codeR)
        #expect(codeI.count == 6 && codeI.allSatisfy(\.isNumber))
        // A party that saw a different transcript (a man in the middle's keys) gets another code.
        #expect(ComparisonCode.code(transcriptHash: Array(repeating: 0, count: 32), initiatorNonce: na, responderNonce: nb) != codeI)
    }

    @Test func comparisonCodeMatchesReferenceComputation() {
        // python3: int.from_bytes(sha256(b"remotion code v1"+h+na+nb)[:8],"big") % 10**6
        #expect(ComparisonCode.code(transcriptHash: Array(repeating: 0x11, count: 32), initiatorNonce: Array(repeating: 0x22, count: 32),
                                    responderNonce: Array(repeating: 0x33, count: 32)) == "664053")
        #expect(hexString(ComparisonCode.commitment(to: Array(repeating: 0x22, count: 32)))
            == "573a6c3495cb1fa6e3811b3a2d890c5380bcced8e3054a547bd631445c5d8b6b")
    }

    @Test func fingerprintFormat() throws {
        // python3: base32(sha256(bytes(range(32)))[:15]) in groups of 4
        #expect(KeyFingerprint.fingerprint(of: Array(0..<32)) == "MMG4-2KLG-YQZW-NEIS-KREL-XMS3")
        #expect(KeyFingerprint.fingerprint(of: try fixedKey(1).publicKey) != KeyFingerprint.fingerprint(of: try fixedKey(2).publicKey))
    }

    @Test func xxpsk3WithWrongPskFailsAtTheLastMessage() throws {
        let psk = Array(repeating: UInt8(0xA5), count: 32)
        for (responderPsk, ok) in [(psk, true), (Array(repeating: UInt8(0x5A), count: 32), false)] {
            var i = try HandshakeState(protocol: .XXpsk3, initiator: true, prologue: remotionPrologue,
                                       localStatic: try fixedKey(2), localEphemeral: try fixedKey(3), psks: [psk])
            var r = try HandshakeState(protocol: .XXpsk3, initiator: false, prologue: remotionPrologue,
                                       localStatic: try fixedKey(1), localEphemeral: try fixedKey(4), psks: [responderPsk])
            _ = try r.readMessage(try i.writeMessage())
            _ = try i.readMessage(try r.writeMessage())
            let m2 = try i.writeMessage(payload: [7])
            if ok {
                #expect(try r.readMessage(m2) == [7])
                #expect(r.handshakeHash == i.handshakeHash)
            } else {
                #expect(throws: NoiseError.authenticationFailed) { _ = try r.readMessage(m2) }
            }
        }
    }

    @Test func lowOrderPublicKeyIsRejected() throws {
        var r = try HandshakeState(protocol: .NN, initiator: false, localEphemeral: try fixedKey(4))
        _ = try r.readMessage(Array(repeating: 0, count: 32)) // e = all-zero point; no DH yet
        #expect(throws: NoiseError.invalidPublicKey) { _ = try r.writeMessage() }
    }
}

extension NoiseProtocol {
    static let NN = NoiseProtocol(pattern: try! HandshakePattern.named("NN"))
}

@Suite struct DatagramSizeTests {
    /// The sizes docs/NOISE.md §4.1 promises.
    @Test func documentedSizes() throws {
        let host = try fixedKey(1), client = try fixedKey(2)
        let mac1Key = DoSMacs.mac1Key(responderStatic: host.publicKey)
        func wrap(_ m: [UInt8], _ n: UInt8, _ p: RemotionPattern) -> [UInt8] {
            HandshakeDatagram(receiverIndex: 1, senderIndex: 1, pattern: p, messageNumber: n, noiseMessage: m)
                .encode(mac1Key: mac1Key, cookie: nil)
        }
        var i = try HandshakeState(protocol: .IK, initiator: true, prologue: remotionPrologue, localStatic: client,
                                   localEphemeral: try fixedKey(3), remoteStatic: host.publicKey)
        var r = try HandshakeState(protocol: .IK, initiator: false, prologue: remotionPrologue, localStatic: host,
                                   localEphemeral: try fixedKey(4))
        let ik0 = try i.writeMessage(payload: TAI64N(unixSeconds: 1, nanoseconds: 0).bytes + [1, 2, 3])
        #expect(wrap(ik0, 0, .ik).count == 156 + 3)
        _ = try r.readMessage(ik0)
        #expect(wrap(try r.writeMessage(payload: [1]), 1, .ik).count == 96 + 1)

        for (pattern, extra) in [(RemotionPattern.xx, 0), (.xxpsk3, 16)] {
            let psks = pattern == .xxpsk3 ? [Array(repeating: UInt8(9), count: 32)] : []
            var xi = try HandshakeState(protocol: pattern.noiseProtocol, initiator: true, prologue: remotionPrologue,
                                        localStatic: client, localEphemeral: try fixedKey(3), psks: psks)
            var xr = try HandshakeState(protocol: pattern.noiseProtocol, initiator: false, prologue: remotionPrologue,
                                        localStatic: host, localEphemeral: try fixedKey(4), psks: psks)
            let nonce = Array(repeating: UInt8(7), count: 32)
            let m0 = try xi.writeMessage(payload: ComparisonCode.commitment(to: nonce))
            #expect(wrap(m0, 0, pattern).count == 112 + extra)
            _ = try xr.readMessage(m0)
            let m1 = try xr.writeMessage(payload: nonce)
            #expect(wrap(m1, 1, pattern).count == 176)
            _ = try xi.readMessage(m1)
            let m2 = try xi.writeMessage(payload: nonce)
            #expect(wrap(m2, 2, pattern).count == 144)
            _ = try xr.readMessage(m2)
            #expect(xi.isComplete && xr.isComplete)
        }
    }
}
