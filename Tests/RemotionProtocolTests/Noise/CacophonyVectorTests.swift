import Foundation
import Testing
@testable import RemotionProtocol

struct CacophonyFile: Decodable { let vectors: [CacophonyVector] }

struct CacophonyVector: Decodable, CustomTestStringConvertible {
    struct Message: Decodable { let payload: String; let ciphertext: String }
    let protocol_name: String
    let init_prologue: String
    let init_ephemeral: String?
    let init_static: String?
    let init_remote_static: String?
    let init_psks: [String]?
    let resp_prologue: String
    let resp_ephemeral: String?
    let resp_static: String?
    let resp_remote_static: String?
    let resp_psks: [String]?
    let handshake_hash: String
    let messages: [Message]
    var testDescription: String { protocol_name }
}

func loadCacophony() throws -> [CacophonyVector] {
    let data = try Data(contentsOf: try vectorFileURL("cacophony_25519_ChaChaPoly_SHA256.json"))
    return try JSONDecoder().decode(CacophonyFile.self, from: data).vectors
}

func makeParty(_ v: CacophonyVector, initiator: Bool) throws -> HandshakeState {
    let k: (String?) throws -> KeyPair? = { try $0.map { try KeyPair(privateKeyBytes: try hex($0)) } }
    return try HandshakeState(
        protocol: try NoiseProtocol(name: v.protocol_name), initiator: initiator,
        prologue: try hex(initiator ? v.init_prologue : v.resp_prologue),
        localStatic: try k(initiator ? v.init_static : v.resp_static),
        localEphemeral: try k(initiator ? v.init_ephemeral : v.resp_ephemeral),
        remoteStatic: try (initiator ? v.init_remote_static : v.resp_remote_static).map(hex),
        psks: try (initiator ? v.init_psks : v.resp_psks)?.map(hex) ?? [])
}

@Suite struct CacophonyVectorTests {
    @Test func fileHasTheRequiredPatterns() throws {
        let names = Set(try loadCacophony().map(\.protocol_name))
        for p in ["XX", "IK", "XXpsk3", "NN", "NK", "KK"] {
            #expect(names.contains("Noise_\(p)_25519_ChaChaPoly_SHA256"))
        }
    }

    /// Every vector in the file: each handshake and transport ciphertext, each
    /// decrypted payload, and the handshake hash on both sides.
    @Test(arguments: try loadCacophony())
    func vector(_ v: CacophonyVector) throws {
        var initiator = try makeParty(v, initiator: true)
        var responder = try makeParty(v, initiator: false)
        let oneWay = initiator.noiseProtocol.pattern.isOneWay
        var sendI: CipherState?, sendR: CipherState?, receiveI: CipherState?, receiveR: CipherState?
        var transportIndex = 0
        for (i, m) in v.messages.enumerated() {
            let payload = try hex(m.payload), expected = try hex(m.ciphertext)
            if !initiator.isComplete {
                let initiatorSends = i % 2 == 0
                var ct: [UInt8]
                if initiatorSends {
                    ct = try initiator.writeMessage(payload: payload)
                    #expect(try responder.readMessage(ct) == payload)
                } else {
                    ct = try responder.writeMessage(payload: payload)
                    #expect(try initiator.readMessage(ct) == payload)
                }
                #expect(hexString(ct) == m.ciphertext, "handshake message \(i)")
                if initiator.isComplete {
                    #expect(responder.isComplete)
                    #expect(hexString(initiator.handshakeHash) == v.handshake_hash)
                    #expect(hexString(responder.handshakeHash) == v.handshake_hash)
                    let (i2r, r2i) = try initiator.split()
                    let (ri2r, rr2i) = try responder.split()
                    sendI = i2r; sendR = r2i
                    // The receiving halves, checked via explicit-nonce open below.
                    receiveR = ri2r; receiveI = rr2i
                }
                continue
            }
            let initiatorSends = oneWay || i % 2 == 0
            var sender = initiatorSends ? sendI! : sendR!
            let receiver = initiatorSends ? receiveR! : receiveI!
            let nonce = sender.nonce
            let ct = try sender.encryptWithAd([], payload)
            #expect(ct == expected, "transport message \(i)")
            // Explicit-nonce path gives the same bytes and opens them.
            var explicit: [UInt8] = []
            try payload.withUnsafeBytes { p in
                try sender.seal(nonce: nonce, ad: UnsafeRawBufferPointer(start: nil, count: 0), plaintext: p, appendingTo: &explicit)
            }
            #expect(explicit == expected)
            var opened: [UInt8] = []
            try expected.withUnsafeBytes { c in
                try receiver.open(nonce: nonce, ad: UnsafeRawBufferPointer(start: nil, count: 0), ciphertext: c, appendingTo: &opened)
            }
            #expect(opened == payload)
            if initiatorSends { sendI = sender } else { sendR = sender }
            transportIndex += 1
        }
        #expect(initiator.isComplete && responder.isComplete)
        #expect(transportIndex > 0)
    }
}
