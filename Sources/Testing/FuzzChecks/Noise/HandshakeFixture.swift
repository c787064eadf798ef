import RemotionProtocol

/// Fixed keys and complete recorded handshakes for the handshake fuzz target.
/// Everything is deterministic (fixed private keys, fixed nonces), so the seed
/// corpus is reproducible and a crash replays exactly.
package struct HandshakeFixture: Sendable {
    /// One handshake message as the fuzz target replays it.
    package struct Step: Sendable {
        package let pattern: RemotionPattern
        package let number: UInt8
        /// The reader's state just before this message (responder for even
        /// numbers, initiator for odd ones).
        package let readerBefore: HandshakeState
        /// The genuine datagram and its Noise message and payload.
        package let datagram: [UInt8]
        package let noiseMessage: [UInt8]
        package let payload: [UInt8]
        /// The reader's handshake hash after reading the genuine message.
        package let hashAfter: [UInt8]
    }

    package static let clientIndex: UInt32 = 0x1111_1111
    package static let hostIndex: UInt32 = 0x2222_2222
    package static let psk = [UInt8](repeating: 0x5A, count: 32)
    /// The source address the cookie is bound to (127.0.0.1:8080).
    package static let sourceAddress: [UInt8] = [127, 0, 0, 1, 0x1F, 0x90]
    /// Counters the transport receiver had accepted before the fuzzed datagram.
    package static let acceptedCounters: [UInt64] = [0, 1, 2, 70]

    package let host: KeyPair
    package let mac1Key: [UInt8]
    package let steps: [Step]
    /// The host's receiver after a genuine IK handshake and `acceptedCounters`.
    package let transportReceiver: TransportReceiver
    /// Genuine transport datagrams (counter, bytes) not yet accepted, plus one replay.
    package let transportSeeds: [(counter: UInt64, bytes: [UInt8])]
    /// The client's cookie jar, holding the cookie of `cookieReply` since `cookieTime`.
    package let cookieJar: CookieJar
    package let cookieReply: [UInt8]
    package let cookieTime = Instant.seconds(10)
    /// mac1 of the initiation the cookie reply answers.
    package let sentMac1: [UInt8]

    package static let shared: HandshakeFixture = {
        do { return try HandshakeFixture() } catch { fatalError("handshake fixture: \(error)") }
    }()

    static func key(_ seed: UInt8) throws(NoiseError) -> KeyPair {
        try KeyPair(privateKeyBytes: (0..<32).map { UInt8(truncatingIfNeeded: Int($0) &* 7 &+ Int(seed)) })
    }

    init() throws(NoiseError) {
        host = try Self.key(1)
        let client = try Self.key(2)
        mac1Key = DoSMacs.mac1Key(responderStatic: host.publicKey)
        let stamp = TAI64N(unixSeconds: 1_700_000_000, nanoseconds: 5).bytes
        var steps: [Step] = []
        var ikStates: (HandshakeState, HandshakeState)?
        for pattern in [RemotionPattern.ik, .xx, .xxpsk3] {
            let psks = pattern == .xxpsk3 ? [Self.psk] : []
            var initiator = try HandshakeState(
                protocol: pattern.noiseProtocol, initiator: true, prologue: remotionPrologue, localStatic: client,
                localEphemeral: try Self.key(3), remoteStatic: pattern == .ik ? host.publicKey : nil, psks: psks)
            var responder = try HandshakeState(
                protocol: pattern.noiseProtocol, initiator: false, prologue: remotionPrologue, localStatic: host,
                localEphemeral: try Self.key(4), psks: psks)
            var number: UInt8 = 0
            while !initiator.isComplete {
                let initiatorWrites = number % 2 == 0
                let payload = number == 0 && pattern == .ik ? stamp + Array("hello".utf8) : Array("m\(number)".utf8)
                let message = initiatorWrites ? try initiator.writeMessage(payload: payload)
                                              : try responder.writeMessage(payload: payload)
                let before = initiatorWrites ? responder : initiator
                let sender = initiatorWrites ? Self.clientIndex : Self.hostIndex
                let receiver = number == 0 ? Self.clientIndex : (initiatorWrites ? Self.hostIndex : Self.clientIndex)
                let datagram = HandshakeDatagram(receiverIndex: receiver, senderIndex: sender, pattern: pattern,
                                                 messageNumber: number, noiseMessage: message)
                    .encode(mac1Key: mac1Key, cookie: nil)
                let read = initiatorWrites ? try responder.readMessage(message) : try initiator.readMessage(message)
                guard read == payload else { throw .malformedMessage("fixture payload mismatch") }
                let after = initiatorWrites ? responder.handshakeHash : initiator.handshakeHash
                steps.append(Step(pattern: pattern, number: number, readerBefore: before, datagram: datagram,
                                  noiseMessage: message, payload: payload, hashAfter: after))
                number += 1
            }
            if pattern == .ik { ikStates = (initiator, responder) }
        }
        self.steps = steps

        // Transport: the host's receiver after the IK handshake.
        guard let (ci, hr) = ikStates else { throw .handshakeNotComplete }
        var clientSide = try ci.transport(localIndex: Self.clientIndex, remoteIndex: Self.hostIndex)
        var hostSide = try hr.transport(localIndex: Self.hostIndex, remoteIndex: Self.clientIndex)
        var sent: [UInt64: [UInt8]] = [:]
        for counter: UInt64 in 0...80 {
            var out: [UInt8] = []
            let payload = counter == 4 ? [] : PlainDatagram(session: SessionID(Self.hostIndex),
                                                            message: .ping(clientTimeMicros: counter, clockOffsetMicros: 0))
                .encode().dropFirst(datagramHeaderSize).map { $0 }
            try clientSide.sender.seal(payload, into: &out)
            sent[counter] = out
        }
        var scratch: [UInt8] = []
        for c in Self.acceptedCounters { try hostSide.receiver.open(sent[c]!, into: &scratch) }
        transportReceiver = hostSide.receiver
        transportSeeds = [3, 4, 64, 80, 70].map { ($0, sent[$0]!) }

        // Cookie: a reply to the IK initiation, already received once.
        let initiation = steps[0].datagram
        sentMac1 = try HandshakeDatagram.mac1(of: initiation)
        let checker = try CookieChecker(responderStatic: host.publicKey, secret: [UInt8](repeating: 0xC0, count: 32),
                                        now: .zero)
        cookieReply = try checker.cookieReply(to: initiation, sourceAddress: Self.sourceAddress,
                                              nonce: (0..<12).map { UInt8($0) })
        var jar = CookieJar(responderStatic: host.publicKey)
        try jar.receive(reply: cookieReply, sentMac1: sentMac1, now: cookieTime)
        cookieJar = jar
    }

    /// The step a decoded handshake datagram is for.
    package func step(pattern: RemotionPattern, number: UInt8) -> Step? {
        steps.first { $0.pattern == pattern && $0.number == number }
    }

    /// The seed corpus (Fuzz/corpus/handshake): every genuine datagram.
    package var seeds: [(name: String, bytes: [UInt8])] {
        steps.map { ("handshake-\($0.pattern)-\($0.number)", $0.datagram) }
            + [("cookie-reply", cookieReply)]
            + transportSeeds.map { ("transport-\($0.counter)", $0.bytes) }
    }
}
