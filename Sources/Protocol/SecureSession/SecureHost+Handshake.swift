
extension SecureHost {
    /// Initiator → responder handshake datagrams: mac1, then (under load) mac2 or a
    /// cookie reply, then rate limits, and only then any Diffie-Hellman.
    mutating func handshake(_ bytes: [UInt8], from source: Address, now: Instant,
                            random: inout some RandomNumberGenerator) -> SecureInbound {
        guard bytes.count >= HandshakeDatagram.overhead, bytes.count <= maxDatagramSize else {
            return .drop(.malformed(.truncated))
        }
        guard cookies.verifyMac1(bytes) else { return .drop(.authenticationFailed) }
        load.record(now: now)
        if load.isUnderLoad(now: now), !cookies.verifyMac2(bytes, sourceAddress: source.cookieBytes) {
            guard let reply = try? cookies.cookieReply(to: bytes, sourceAddress: source.cookieBytes,
                                                       nonce: random.bytes(12)) else {
                return .drop(.malformed(.truncated))
            }
            cookieRepliesSent += 1
            drops.count(.rateLimited)
            return .reply(reply)
        }
        guard let datagram = try? HandshakeDatagram.decode(bytes) else { return .drop(.malformed(.truncated)) }
        // A retransmitted pairing message 2 costs no DH: it is compared byte for byte.
        if datagram.pattern == .xxpsk3, datagram.messageNumber == 2, let p = pairings[datagram.receiverIndex],
           p.message2 == bytes {
            return pairingAnswer(datagram.receiverIndex)
        }
        guard limiter.admit(source, now: now) else { return .drop(.rateLimited) }
        switch (datagram.pattern, datagram.messageNumber) {
        case (.ik, 0): return initiationIK(datagram, from: source, now: now, random: &random)
        case (.xxpsk3, 0): return pairingMessage0(datagram, now: now, random: &random)
        case (.xxpsk3, 2): return pairingMessage2(datagram, bytes: bytes, now: now)
        default: return .drop(.unsupportedKind)
        }
    }

    // MARK: IK (paired controllers)

    mutating func initiationIK(_ datagram: HandshakeDatagram, from source: Address, now: Instant,
                               random: inout some RandomNumberGenerator) -> SecureInbound {
        do throws(NoiseError) {
            var hs = try HandshakeState(protocol: .IK, initiator: false, prologue: remotionPrologue,
                                        localStatic: staticKey, localEphemeral: random.keyPair())
            let payload = try hs.readMessage(datagram.noiseMessage)
            guard let remote = hs.remoteStatic, trusted.contains(remote) else { return .drop(.authenticationFailed) }
            let (timestamp, rest) = try InitiationReplayGuard.splitPayload(payload)
            guard let clientSession = SecurePayload.clientSession(from: rest) else { return .drop(.malformed(.truncated)) }
            guard replayGuard.check(timestamp, from: remote) else { return .drop(.replayed) }
            let response = try hs.writeMessage()
            let local = random.index { indices[$0] != nil || pairings[$0] != nil }
            let (sender, receiver) = try hs.transport(localIndex: local, remoteIndex: datagram.senderIndex)
            try replayGuard.accept(timestamp, from: remote)
            let keys = SessionKeys(sender: sender, receiver: receiver, createdAt: now)
            install(keys, remote: remote, clientSession: clientSession, source: source, now: now)
            let reply = HandshakeDatagram(receiverIndex: datagram.senderIndex, senderIndex: local, pattern: .ik,
                                          messageNumber: 1, noiseMessage: response)
            return .reply(reply.encode(mac1Key: cookies.mac1Key, cookie: nil))
        } catch {
            return .drop(error.dropReason)
        }
    }

    /// New keys become `next` of the controller's session (a rekey or a retry), or a
    /// new half-open session; they are used for sending once the client uses them.
    mutating func install(_ keys: SessionKeys, remote: [UInt8], clientSession: SessionID, source: Address, now: Instant) {
        let existing = slots.first { $0.value.remoteStatic == remote && $0.value.clientSession == clientSession }?.key
        if let id = existing, var slot = slots[id] {
            if let old = slot.next { indices[old.localIndex] = nil }
            slot.next = keys
            slot.touched = now
            slots[id] = slot
            indices[keys.localIndex] = id
            return
        }
        let halfOpen = slots.values.filter { $0.current == nil }
        if halfOpen.count >= configuration.maxHalfOpen, let oldest = halfOpen.min(by: { $0.touched < $1.touched }) {
            forget(oldest.id)
        }
        if slots.count >= configuration.maxSessions, let oldest = slots.values.min(by: { $0.touched < $1.touched }) {
            forget(oldest.id)
        }
        let id = SessionID(keys.localIndex)
        slots[id] = Slot(id: id, remoteStatic: remote, clientSession: clientSession, source: source,
                         current: nil, next: keys, previous: nil, touched: now)
        indices[keys.localIndex] = id
    }

    // MARK: XXpsk3 (pairing with a one-time secret)

    mutating func pairingMessage0(_ datagram: HandshakeDatagram, now: Instant,
                                  random: inout some RandomNumberGenerator) -> SecureInbound {
        guard isPairing(now: now), let psk = pairingPSK else { return .drop(.unsupportedKind) }
        do throws(NoiseError) {
            var hs = try HandshakeState(protocol: .XXpsk3, initiator: false, prologue: remotionPrologue,
                                        localStatic: staticKey, localEphemeral: random.keyPair(), psks: [psk])
            _ = try hs.readMessage(datagram.noiseMessage)
            let response = try hs.writeMessage()
            if pairings.count >= configuration.maxPendingPairings {
                // Bounded memory: the oldest undecided attempt makes room.
                let undecided = pairings.filter { $0.value.request == nil }
                guard let oldest = undecided.min(by: { $0.value.createdAt < $1.value.createdAt }) else {
                    return .drop(.rateLimited)
                }
                pairings[oldest.key] = nil
            }
            let local = random.index { indices[$0] != nil || pairings[$0] != nil }
            pairings[local] = PendingPairing(state: hs, remoteIndex: datagram.senderIndex, createdAt: now)
            let reply = HandshakeDatagram(receiverIndex: datagram.senderIndex, senderIndex: local, pattern: .xxpsk3,
                                          messageNumber: 1, noiseMessage: response)
            return .reply(reply.encode(mac1Key: cookies.mac1Key, cookie: nil))
        } catch {
            return .drop(error.dropReason)
        }
    }

    mutating func pairingMessage2(_ datagram: HandshakeDatagram, bytes: [UInt8], now: Instant) -> SecureInbound {
        guard isPairing(now: now), var p = pairings[datagram.receiverIndex], p.message2 == nil else {
            return .drop(.unknownSession)
        }
        do throws(NoiseError) {
            // Transactional: a forged message 2 (wrong psk, wrong key) leaves the attempt as it was.
            let payload = try p.state.readMessage(datagram.noiseMessage)
            guard let remote = p.state.remoteStatic else { return .drop(.authenticationFailed) }
            let (sender, receiver) = try p.state.transport(localIndex: datagram.receiverIndex, remoteIndex: p.remoteIndex)
            p.keys = SessionKeys(sender: sender, receiver: receiver, createdAt: now)
            p.message2 = bytes
            let name = String(decoding: payload.prefix(SecurePayload.maxNameLength), as: UTF8.self)
            let request = PairingRequest(id: datagram.receiverIndex, publicKey: remote,
                                         fingerprint: KeyFingerprint.fingerprint(of: remote), name: name)
            p.request = request
            pairings[datagram.receiverIndex] = p
            pairingOutbox.append(request)
            return pairingAnswer(datagram.receiverIndex)
        } catch {
            return .drop(error.dropReason)
        }
    }

    /// The user's decision, sealed with the pairing session's keys; nothing while undecided.
    mutating func pairingAnswer(_ index: UInt32) -> SecureInbound {
        guard var p = pairings[index], var keys = p.keys else { return .drop(.unknownSession) }
        guard let decision = p.decision else { return .handled }
        var out: [UInt8] = []
        let answer = decision ? SecurePayload.pairingAccepted : SecurePayload.pairingRejected
        guard (try? keys.sender.seal(answer, into: &out)) != nil else { return .drop(.authenticationFailed) }
        p.keys = keys
        pairings[index] = p
        return .reply(out)
    }
}
