
/// What the client's security layer made of one datagram from the host.
public enum SecureClientInbound: Sendable, Equatable {
    case message(Message)
    /// The handshake completed: the session's keys are ready (send what was queued).
    case established
    /// A cookie arrived: send this new initiation (with mac2) at once.
    case retry([UInt8])
    case drop(DropReason)
}

/// The controller's sans-IO security layer for a paired host: Noise IK initiations
/// (fresh ephemeral, index and TAI64N on every attempt), cookie handling, transport
/// keys and rekeying every `RekeyPolicy.rekeyAfterTime` without a gap in sending.
public struct SecureClient: Sendable {
    struct Attempt: Sendable {
        var state: HandshakeState
        let localIndex: UInt32
        let sentAt: Instant
        let mac1: [UInt8]
    }

    public let staticKey: KeyPair
    public let hostStatic: [UInt8]
    public let clientSession: SessionID
    let mac1Key: [UInt8]
    var jar: CookieJar
    var attempt: Attempt?
    var current: SessionKeys?
    var previous: SessionKeys?
    public private(set) var handshakes = 0
    public private(set) var drops = DropCounters()

    public init(staticKey: KeyPair, hostStatic: [UInt8], clientSession: SessionID) {
        self.staticKey = staticKey
        self.hostStatic = hostStatic
        self.clientSession = clientSession
        mac1Key = DoSMacs.mac1Key(responderStatic: hostStatic)
        jar = CookieJar(responderStatic: hostStatic)
    }

    public var isEstablished: Bool { current != nil }
    public var lastAttempt: Instant? { attempt?.sentAt }

    /// True when a new handshake should start: none yet, or the keys are due for a rekey.
    public func wantsHandshake(now: Instant, retryAfter: Duration) -> Bool {
        if let a = attempt, now - a.sentAt < retryAfter { return false }
        guard let keys = current else { return true }
        return RekeyPolicy.shouldRekey(keysCreatedAt: keys.createdAt, messagesSent: keys.sender.nextCounter, now: now)
    }

    /// A new IK initiation (replaces any attempt in flight).
    public mutating func initiation(now: Instant, wallClock: TAI64N,
                                    random: inout some RandomNumberGenerator) -> [UInt8]? {
        do throws(NoiseError) {
            var hs = try HandshakeState(protocol: .IK, initiator: true, prologue: remotionPrologue,
                                        localStatic: staticKey, localEphemeral: random.keyPair(),
                                        remoteStatic: hostStatic)
            let message = try hs.writeMessage(payload: SecurePayload.initiation(wallClock, clientSession: clientSession))
            let index = random.index { $0 == current?.localIndex || $0 == previous?.localIndex }
            let bytes = HandshakeDatagram(receiverIndex: index, senderIndex: index, pattern: .ik, messageNumber: 0,
                                          noiseMessage: message).encode(mac1Key: mac1Key, cookie: jar.currentCookie(now: now))
            attempt = Attempt(state: hs, localIndex: index, sentAt: now, mac1: try HandshakeDatagram.mac1(of: bytes))
            return bytes
        } catch {
            return nil
        }
    }

    public mutating func seal(_ message: Message, now: Instant) -> [UInt8]? {
        guard var keys = current, !RekeyPolicy.isExpired(keysCreatedAt: keys.createdAt, now: now) else { return nil }
        var out: [UInt8] = []
        guard (try? keys.sender.seal(SealedMessage.encode(message), into: &out)) != nil else { return nil }
        current = keys
        return out
    }

    public mutating func inbound(_ d: UnsafeRawBufferPointer, now: Instant, wallClock: TAI64N,
                                 random: inout some RandomNumberGenerator) -> SecureClientInbound {
        let result: SecureClientInbound
        switch DatagramPeek.kind(d) {
        case .transport?: result = transport(d, now: now)
        case .handshakeResponse?: result = response(Array(d), now: now)
        case .cookieReply?: result = cookie(Array(d), now: now, wallClock: wallClock, random: &random)
        default: result = .drop(.unsupportedKind)
        }
        if case let .drop(reason) = result { drops.count(reason) }
        return result
    }

    mutating func transport(_ d: UnsafeRawBufferPointer, now: Instant) -> SecureClientInbound {
        guard let index = try? TransportLayout.receiverIndex(of: d) else { return .drop(.malformed(.truncated)) }
        var plaintext: [UInt8] = []
        if var keys = current, keys.localIndex == index {
            do { try keys.receiver.open(d, into: &plaintext) } catch { return .drop(error.dropReason) }
            current = keys
        } else if var keys = previous, keys.localIndex == index,
                  !RekeyPolicy.isExpired(keysCreatedAt: keys.createdAt, now: now) {
            do { try keys.receiver.open(d, into: &plaintext) } catch { return .drop(error.dropReason) }
            previous = keys
        } else {
            return .drop(.unknownSession)
        }
        switch SealedMessage.decode(plaintext) {
        case let .success(m): return .message(m)
        case let .failure(e): return .drop(.malformed(e))
        }
    }

    mutating func response(_ bytes: [UInt8], now: Instant) -> SecureClientInbound {
        guard DoSMacs.verifyMac1(bytes, mac1Key: mac1Key), let datagram = try? HandshakeDatagram.decode(bytes),
              datagram.pattern == .ik, datagram.messageNumber == 1,
              var a = attempt, datagram.receiverIndex == a.localIndex else { return .drop(.authenticationFailed) }
        do throws(NoiseError) {
            _ = try a.state.readMessage(datagram.noiseMessage)
            let (sender, receiver) = try a.state.transport(localIndex: a.localIndex, remoteIndex: datagram.senderIndex)
            previous = current
            current = SessionKeys(sender: sender, receiver: receiver, createdAt: now)
            attempt = nil
            handshakes += 1
            return .established
        } catch {
            return .drop(error.dropReason)
        }
    }

    mutating func cookie(_ bytes: [UInt8], now: Instant, wallClock: TAI64N,
                         random: inout some RandomNumberGenerator) -> SecureClientInbound {
        guard let a = attempt, (try? jar.receive(reply: bytes, sentMac1: a.mac1, now: now)) != nil else {
            return .drop(.authenticationFailed)
        }
        guard let retry = initiation(now: now, wallClock: wallClock, random: &random) else {
            return .drop(.authenticationFailed)
        }
        return .retry(retry)
    }
}
