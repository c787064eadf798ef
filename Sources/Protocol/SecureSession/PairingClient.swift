
/// The controller's side of XXpsk3 pairing, sans-IO: message 0 (retried with a fresh
/// handshake until message 1 arrives), message 2 (retransmitted until the host's
/// user decides), then the host's sealed answer.
public struct PairingClient: Sendable {
    public enum Outcome: Sendable, Equatable {
        /// The host's user accepted: `hostKey` is the host's authenticated static key.
        case accepted(hostKey: [UInt8])
        case refused
    }

    public enum Inbound: Sendable, Equatable {
        /// Send these bytes (message 2 after message 1, or a new message 0 after a cookie).
        case send([UInt8])
        case finished(Outcome)
        case drop(DropReason)
    }

    public let staticKey: KeyPair
    public let code: PairingCode
    public let name: String
    let mac1Key: [UInt8]
    var jar: CookieJar
    /// The newest message-0 attempts, newest last: message 1 may answer any of them, since
    /// on a slow path (a loaded host, a congested link) the answer to one attempt comes
    /// after the next has gone. Answering only the newest would never pair once the round
    /// trip exceeds the retry interval. At most `keptAttempts` (4 s at one per 0.5 s).
    var attempts: [Attempt] = []
    static var keptAttempts: Int { 8 }
    /// The handshake that got its message 1 (message 2 was sent from it).
    var state: HandshakeState?
    var message2: [UInt8]?

    struct Attempt {
        var state: HandshakeState
        var localIndex: UInt32
        var sentMac1: [UInt8]
    }
    var receiver: TransportReceiver?
    public private(set) var outcome: Outcome?

    public init(staticKey: KeyPair, code: PairingCode, name: String) {
        self.staticKey = staticKey
        self.code = code
        self.name = Self.limit(name)
        mac1Key = DoSMacs.mac1Key(responderStatic: code.hostKey)
        jar = CookieJar(responderStatic: code.hostKey)
    }

    /// `name` cut to at most `SecurePayload.maxNameLength` (64) bytes of UTF-8, at a
    /// character boundary (never half a character).
    static func limit(_ name: String) -> String {
        var out = ""
        var bytes = 0
        for character in name {
            let size = character.utf8.count
            guard bytes + size <= SecurePayload.maxNameLength else { break }
            out.append(character)
            bytes += size
        }
        return out
    }

    /// What to (re)send on the retry timer: message 2 once message 1 arrived, else a new message 0.
    public mutating func retransmission(now: Instant, random: inout some RandomNumberGenerator) -> [UInt8]? {
        guard outcome == nil else { return nil }
        if let message2 { return message2 }
        do throws(NoiseError) {
            var hs = try HandshakeState(protocol: .XXpsk3, initiator: true, prologue: remotionPrologue,
                                        localStatic: staticKey, localEphemeral: random.keyPair(), psks: [code.psk])
            let m0 = try hs.writeMessage()
            let taken = Set(attempts.map(\.localIndex))
            let index = random.index { taken.contains($0) }
            let bytes = HandshakeDatagram(receiverIndex: index, senderIndex: index, pattern: .xxpsk3,
                                          messageNumber: 0, noiseMessage: m0)
                .encode(mac1Key: mac1Key, cookie: jar.currentCookie(now: now))
            attempts.append(Attempt(state: hs, localIndex: index, sentMac1: try HandshakeDatagram.mac1(of: bytes)))
            if attempts.count > Self.keptAttempts { attempts.removeFirst(attempts.count - Self.keptAttempts) }
            return bytes
        } catch {
            return nil
        }
    }

    public mutating func inbound(_ d: UnsafeRawBufferPointer, now: Instant,
                                 random: inout some RandomNumberGenerator) -> Inbound {
        switch DatagramPeek.kind(d) {
        case .handshakeResponse?: return message1(Array(d), now: now)
        case .cookieReply?:
            let reply = Array(d)
            var taken = false
            for attempt in attempts.reversed() where !taken {
                taken = (try? jar.receive(reply: reply, sentMac1: attempt.sentMac1, now: now)) != nil
            }
            guard message2 == nil, taken,
                  let retry = retransmission(now: now, random: &random) else { return .drop(.authenticationFailed) }
            return .send(retry)
        case .transport?:
            guard var r = receiver else { return .drop(.unknownSession) }
            var plain: [UInt8] = []
            do { try r.open(d, into: &plain) } catch { return .drop(error.dropReason) }
            receiver = r
            if plain == SecurePayload.pairingAccepted, let key = state?.remoteStatic {
                outcome = .accepted(hostKey: key)
            } else if plain == SecurePayload.pairingRejected {
                outcome = .refused
            } else {
                return .drop(.unexpectedMessage)
            }
            return .finished(outcome!)
        default: return .drop(.unsupportedKind)
        }
    }

    mutating func message1(_ bytes: [UInt8], now: Instant) -> Inbound {
        guard message2 == nil, DoSMacs.verifyMac1(bytes, mac1Key: mac1Key),
              let datagram = try? HandshakeDatagram.decode(bytes), datagram.pattern == .xxpsk3,
              datagram.messageNumber == 1,
              let attempt = attempts.last(where: { $0.localIndex == datagram.receiverIndex }) else {
            return .drop(.authenticationFailed)
        }
        var hs = attempt.state
        let localIndex = attempt.localIndex
        do throws(NoiseError) {
            _ = try hs.readMessage(datagram.noiseMessage)
            // The host must be the one the code names: its static key arrived encrypted in message 1.
            guard hs.remoteStatic == code.hostKey else { return .drop(.authenticationFailed) }
            let m2 = try hs.writeMessage(payload: Array(name.utf8))
            let (_, r) = try hs.transport(localIndex: localIndex, remoteIndex: datagram.senderIndex)
            let bytes = HandshakeDatagram(receiverIndex: datagram.senderIndex, senderIndex: localIndex,
                                          pattern: .xxpsk3, messageNumber: 2, noiseMessage: m2)
                .encode(mac1Key: mac1Key, cookie: jar.currentCookie(now: now))
            state = hs
            receiver = r
            message2 = bytes
            attempts = []
            return .send(bytes)
        } catch {
            return .drop(error.dropReason)
        }
    }
}
