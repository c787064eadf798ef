
/// What the host's security layer made of one datagram.
public enum SecureInbound: Sendable, Equatable {
    /// An authenticated message for a session (the SessionID is the host's index for it).
    case message(Message, session: SessionID)
    /// Handshake traffic answered here (a handshake response, cookie reply or pairing answer).
    case reply([UInt8])
    /// Valid traffic with nothing to answer yet: a pairing message 2 (or its retransmission)
    /// while the host's user has not decided. Not a drop.
    case handled
    case drop(DropReason)
}

/// A controller that completed XXpsk3 pairing and waits for the user's decision.
public struct PairingRequest: Sendable, Equatable {
    /// The host's index for the pairing handshake; pass it to `decidePairing`.
    public let id: UInt32
    public let publicKey: [UInt8]
    public let fingerprint: String
    public let name: String
}

/// The host's sans-IO security layer (docs/SECURITY.md): handshakes (IK for paired
/// controllers, XXpsk3 while a pairing window is open), cookies under load, rate
/// limits, per-session transport keys with rekeying. Time, the wall clock and
/// randomness are parameters.
public struct SecureHost<Address: SourceAddress>: Sendable {
    public struct Configuration: Sendable {
        public var limits = HandshakeLimiter<Address>.Limits()
        /// Handshake datagrams per second above which a cookie (mac2) is required.
        public var cookieThreshold = 16
        /// Sessions whose keys were never used by the client (half-open), at most.
        public var maxHalfOpen = 64
        public var maxSessions = 256
        /// Pairing handshakes in progress or awaiting the user, at most.
        public var maxPendingPairings = 8
        public init() {}
    }

    struct Slot: Sendable {
        let id: SessionID
        let remoteStatic: [UInt8]
        let clientSession: SessionID
        let source: Address
        var current: SessionKeys?
        var next: SessionKeys?
        var previous: SessionKeys?
        var touched: Instant
    }

    struct PendingPairing: Sendable {
        var state: HandshakeState
        let remoteIndex: UInt32
        let createdAt: Instant
        var message2: [UInt8]?
        var keys: SessionKeys?
        var decision: Bool?
        var request: PairingRequest?
    }

    /// A session whose keys the client never used is forgotten after this.
    public static var halfOpenLifetime: Duration { .seconds(10) }

    public let configuration: Configuration
    public let staticKey: KeyPair
    var cookies: CookieChecker
    var limiter: HandshakeLimiter<Address>
    var load: LoadMeter
    var replayGuard = InitiationReplayGuard()
    public private(set) var trusted: Set<[UInt8]>
    var slots: [SessionID: Slot] = [:]
    /// Every live local index (current, next, previous keys) → its session.
    var indices: [UInt32: SessionID] = [:]
    var pairings: [UInt32: PendingPairing] = [:]
    /// Reused for every transport datagram's plaintext (SecureHost+Transport).
    var transportPlaintext: [UInt8] = []
    var pairingPSK: [UInt8]?
    var pairingUntil: Instant?
    public internal(set) var drops = DropCounters()
    public internal(set) var cookieRepliesSent = 0
    public internal(set) var handshakesCompleted = 0
    /// Completed pairings waiting for the user (drain with `takePairingRequests`).
    var pairingOutbox: [PairingRequest] = []

    public init(staticKey: KeyPair, trusted: Set<[UInt8]>, configuration: Configuration = .init(),
                now: Instant, random: inout some RandomNumberGenerator) {
        self.staticKey = staticKey
        self.trusted = trusted
        self.configuration = configuration
        // A 32-byte secret always has the right length.
        cookies = try! CookieChecker(responderStatic: staticKey.publicKey, secret: random.bytes(32), now: now)
        limiter = HandshakeLimiter(limits: configuration.limits, now: now)
        load = LoadMeter(threshold: configuration.cookieThreshold)
    }

    // MARK: pairing window and trust

    /// Accepts XXpsk3 pairing handshakes with `psk` until `until`.
    public mutating func openPairing(psk: [UInt8], until: Instant) {
        pairingPSK = psk
        pairingUntil = until
    }

    public mutating func closePairing() {
        pairingPSK = nil
        pairingUntil = nil
        pairings.removeAll()
    }

    /// Moves the end of an open pairing window earlier (never later).
    public mutating func shortenPairing(until: Instant) {
        if let end = pairingUntil, until < end { pairingUntil = until }
    }

    public func isPairing(now: Instant) -> Bool { pairingUntil.map { now < $0 } ?? false }

    /// Replaces the set of paired controller keys and returns the sessions whose key is
    /// no longer trusted. Their keys stay until `sessionClosed`, so the host can still
    /// seal the `disconnect(.revoked)` that tells the controller why; the caller closes
    /// them at once.
    @discardableResult
    public mutating func setTrusted(_ keys: Set<[UInt8]>) -> [SessionID] {
        trusted = keys
        return slots.filter { !keys.contains($0.value.remoteStatic) }.map(\.key).sorted()
    }

    /// True when a handshake datagram carries a valid mac1 (proof that its sender knows
    /// this host's public key): the cheap check before any costlier work for it.
    public func acceptsMac1(_ d: UnsafeRawBufferPointer) -> Bool { cookies.verifyMac1(Array(d)) }

    public mutating func takePairingRequests() -> [PairingRequest] {
        defer { pairingOutbox.removeAll() }
        return pairingOutbox
    }

    /// The user accepted (the key becomes trusted) or refused a pairing request. The
    /// controller learns the answer on its next retransmission of message 2.
    public mutating func decidePairing(_ id: UInt32, accept: Bool) {
        guard var p = pairings[id], let request = p.request else { return }
        p.decision = accept
        pairings[id] = p
        if accept { trusted.insert(request.publicKey) }
    }

    // MARK: numbers

    public var sessionCount: Int { slots.count }
    public var halfOpenCount: Int { slots.values.filter { $0.current == nil }.count }
    public var pendingPairingCount: Int { pairings.count }
    public var trackedSources: Int { limiter.trackedSources }
    public func remoteStatic(of session: SessionID) -> [UInt8]? { slots[session]?.remoteStatic }

    // MARK: datagrams

    public mutating func inbound(_ d: UnsafeRawBufferPointer, from source: Address, now: Instant,
                                 random: inout some RandomNumberGenerator) -> SecureInbound {
        let result: SecureInbound
        switch DatagramPeek.kind(d) {
        case .transport?: result = openTransport(d, now: now)
        case .handshakeInitiation?: result = handshake(Array(d), from: source, now: now, random: &random)
        case .plain?, .handshakeResponse?, .cookieReply?: result = .drop(.unsupportedKind)
        case nil: result = .drop(.malformed(.badMagic))
        }
        if case let .drop(reason) = result { drops.count(reason) }
        return result
    }

    /// Seals a message for a session with its current keys; nil if it has none yet.
    public mutating func outbound(_ message: Message, session: SessionID, now: Instant) -> [UInt8]? {
        guard var slot = slots[session], var keys = slot.current,
              !RekeyPolicy.isExpired(keysCreatedAt: keys.createdAt, now: now) else { return nil }
        var out: [UInt8] = []
        guard (try? keys.sender.seal(SealedMessage.encode(message), into: &out)) != nil else { return nil }
        slot.current = keys
        slots[session] = slot
        return out
    }

    /// The session layer closed a session: forget its keys and indices.
    public mutating func sessionClosed(_ session: SessionID) { forget(session) }

    /// Expires old keys, stale half-open sessions and pairings, rotates the cookie secret.
    public mutating func tick(now: Instant, random: inout some RandomNumberGenerator) {
        _ = try? cookies.rotateIfDue(now: now) { random.bytes($0) }
        for (id, var slot) in slots {
            if let p = slot.previous, RekeyPolicy.isExpired(keysCreatedAt: p.createdAt, now: now) {
                indices[p.localIndex] = nil
                slot.previous = nil
            }
            if let n = slot.next, RekeyPolicy.isExpired(keysCreatedAt: n.createdAt, now: now) {
                indices[n.localIndex] = nil
                slot.next = nil
            }
            slots[id] = slot
            if slot.current == nil, now - slot.touched >= Self.halfOpenLifetime { forget(id); continue }
            let currentExpired = slot.current.map { RekeyPolicy.isExpired(keysCreatedAt: $0.createdAt, now: now) } ?? true
            if currentExpired && slot.next == nil { forget(id) }
        }
        if let until = pairingUntil, now >= until { closePairing() }
    }

    mutating func forget(_ id: SessionID) {
        guard let slot = slots.removeValue(forKey: id) else { return }
        for k in [slot.current, slot.next, slot.previous] { if let k { indices[k.localIndex] = nil } }
    }
}
