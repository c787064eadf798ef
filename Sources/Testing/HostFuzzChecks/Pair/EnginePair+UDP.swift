import RemotionProtocol
import RemotionHostLogic

/// A UDP controller of the pair: its own static key (paired with the host or not) and the
/// client's Noise layer (`SecureClient`); what it sends is sealed with its keys, what the
/// host sends it is opened with them.
package struct UDPPeer: Sendable {
    package let address: PeerAddress
    package let key: KeyPair
    var client: SecureClient
    /// Its motion stream's next sequence and its reliable button stream's last sequence.
    var sequence: UInt32 = 0
    package internal(set) var buttonSequence: UInt32 = 0
    /// The buttons it holds, as its motion packets carry them.
    package internal(set) var buttons = ButtonSet.none
    /// Every message the host sent it, opened with its keys.
    package internal(set) var received: [Message] = []
    /// Handshakes it completed since it last sent a datagram with its keys. The host moves
    /// to a handshake's keys when the controller first uses them (WireGuard's rule), and the
    /// controller keeps one generation before its newest: after two handshakes without a
    /// datagram in between, what the host still seals with the oldest keys cannot open.
    var unusedHandshakes = 0

    package var isEstablished: Bool { client.isEstablished }
}

/// A pair's Noise layer and UDP peers after their handshakes, to start many pairs from (the
/// fuzzer: a handshake is the costliest step by far, and every input would repeat it).
package struct PreparedPeers: Sendable {
    let hostKey: KeyPair
    let secure: SecureHost<PeerAddress>
    let peers: [UDPPeer]
    let random: SplitMix64
    let start: Instant

    /// UDP peers at `addresses` (paired or not) on a fresh pair, each paired one's handshake done.
    package init(_ addresses: [(PeerAddress, paired: Bool)]) {
        let pair = EnginePair()
        for (address, paired) in addresses {
            let k = pair.addUDPPeer(at: address, paired: paired)
            if paired { pair.udpHandshake(k) }
        }
        hostKey = pair.hostKey
        secure = pair.secure
        peers = pair.udpPeers
        random = pair.random
        start = pair.now
    }
}

extension EnginePair {
    /// A UDP controller at `address` (paired with the host: its key trusted, unless `paired` is false).
    @discardableResult
    package func addUDPPeer(at address: PeerAddress, paired: Bool = true, clientSession: UInt32 = 1) -> Int {
        let key = random.keyPair()
        if paired { secure.setTrusted(secure.trusted.union([key.publicKey])) }
        let client = SecureClient(staticKey: key, hostStatic: hostKey.publicKey, clientSession: SessionID(max(1, clientSession)))
        udpPeers.append(UDPPeer(address: address, key: key, client: client))
        return udpPeers.count - 1
    }

    var wallClock: TAI64N {
        let ns = now.nanoseconds
        return TAI64N(unixSeconds: Self.epochSeconds + ns / 1_000_000_000, nanoseconds: UInt32(ns % 1_000_000_000))
    }

    /// Peer `k`'s Noise IK handshake: its initiation to the host, the host's response back;
    /// true when its keys are ready.
    @discardableResult
    package func udpHandshake(_ k: Int) -> Bool {
        guard let bytes = udpPeers[k].client.initiation(now: now, wallClock: wallClock, random: &random) else { return false }
        let done = udpPeers[k].client.handshakes
        receiveDatagram(bytes, from: udpPeers[k].address)
        if udpPeers[k].client.handshakes != done { udpPeers[k].unusedHandshakes += 1 }
        return udpPeers[k].isEstablished
    }

    /// Peer `k` seals `message` and sends it; false when it has no keys yet.
    @discardableResult
    package func udpSend(_ k: Int, _ message: Message) -> Bool {
        guard let bytes = udpPeers[k].client.seal(message, now: now) else { return false }
        udpPeers[k].unusedHandshakes = 0
        receiveDatagram(bytes, from: udpPeers[k].address)
        return true
    }

    /// Peer `k` connects: the handshake, then the ping that opens its session on the host.
    @discardableResult
    package func udpConnect(_ k: Int) -> Bool {
        guard udpHandshake(k) else { return false }
        return udpSend(k, .ping(clientTimeMicros: UInt64(max(0, now.microseconds)), clockOffsetMicros: 0))
    }

    /// Peer `k`'s motion packet: the next sequence, its buttons as it holds them.
    @discardableResult
    package func udpMotion(_ k: Int, _ sample: MotionSample) -> Bool {
        udpPeers[k].sequence &+= 1
        var sample = sample
        sample.buttons = udpPeers[k].buttons
        let p = udpPeers[k]
        return udpSend(k, .motion(MotionPacket(sequence: p.sequence, buttonSequence: p.buttonSequence, sample: sample)))
    }

    /// Peer `k` presses or releases `button`: the next event of its reliable stream.
    @discardableResult
    package func udpButton(_ k: Int, _ button: Button, isDown: Bool, timestampMicros: UInt64 = 0) -> Bool {
        udpPeers[k].buttonSequence &+= 1
        udpPeers[k].buttons.set(button, down: isDown)
        let event = ButtonEvent(sequence: udpPeers[k].buttonSequence, button: button, isDown: isDown, timestampMicros: timestampMicros)
        return udpSend(k, .buttons([event]))
    }

    /// Peer `k`'s sealed `message` with one byte changed (a corrupted or forged datagram).
    package func udpTampered(_ k: Int, _ message: Message, flip at: Int, with mask: UInt8) {
        guard var bytes = udpPeers[k].client.seal(message, now: now), !bytes.isEmpty else { return }
        bytes[at % bytes.count] ^= mask == 0 ? 1 : mask
        receiveDatagram(bytes, from: udpPeers[k].address)
    }

    /// One datagram on the host's UDP socket, as its handler takes it: the Noise layer, the
    /// wire machine (told the other transports' controllers first), the engine.
    package func receiveDatagram(_ bytes: [UInt8], from address: PeerAddress) {
        wire.sessionsElsewhere = engine.sessionsElsewhere
        let frame = bytes.withUnsafeBytes { secure.inbound($0, from: address, now: now, random: &random) }
        switch frame {
        case let .message(message, session):
            perform(wire.receive(message, session: session, from: address, now: now))
        case .reply(let reply):
            counts.toUDP += 1
            record(.handshakeReply(address))
            deliverToPeer(reply, at: address, handshake: true)
        case .handled:
            break
        case .drop(let reason):
            wire.countDrop(reason)
        }
    }

    /// The wire machine's actions: sends sealed to their peer, the rest to the engine.
    func perform(_ actions: [HostAction<Address>]) {
        for action in actions {
            switch action {
            case let .send(message, session, address):
                guard let bytes = secure.outbound(message, session: session, now: now) else { continue }
                counts.toUDP += 1
                record(.toUDP(address, message))
                deliverToPeer(bytes, at: address, handshake: false, expected: message)
            case .sessionClosed(let id, _):
                secure.sessionClosed(id)
                engine.handle(action, screen: Self.screen, now: now, into: &pending)
                route()
            default:
                engine.handle(action, screen: Self.screen, now: now, into: &pending)
                route()
            }
        }
    }

    /// A datagram from the host reaches the peer at `address` (if the pair has one there),
    /// which opens it with its own keys.
    private func deliverToPeer(_ bytes: [UInt8], at address: PeerAddress, handshake: Bool, expected: Message? = nil) {
        guard let k = udpPeers.firstIndex(where: { $0.address == address }) else { return }
        let opened = bytes.withUnsafeBytes { udpPeers[k].client.inbound($0, now: now, wallClock: wallClock, random: &random) }
        switch opened {
        case .message(let m):
            if let expected, m != expected { problem("a UDP peer opens what the host sealed (\(m) ≠ \(expected))") }
            udpPeers[k].received.append(m)
        case .established:
            break
        case .retry(let initiation):
            receiveDatagram(initiation, from: address)   // a cookie under load: the peer tries again at once
        case .drop(let reason):
            // A reply to an old handshake of this peer may come after a newer one; sealed data
            // must open, unless the peer dropped the keys it was sealed with (`unusedHandshakes`).
            if !handshake, udpPeers[k].unusedHandshakes < 2 { problem("a UDP peer opens what the host sealed (\(reason))") }
        }
    }
}
