
/// Byte layout of a transport datagram (kind 0x05), docs/NOISE.md §4.4:
/// header(8, session = receiver index) | counter u64 LE | ciphertext | tag(16).
/// The AEAD nonce is the counter; the associated data is bytes 0..<16.
public enum TransportLayout {
    public static let counterOffset = datagramHeaderSize
    public static let ciphertextOffset = datagramHeaderSize + 8
    public static let adLength = ciphertextOffset
    /// Header, counter and tag: a keepalive (empty payload) is exactly this long.
    public static let overhead = ciphertextOffset + CipherState.tagLength

    /// Writes the 8-byte Remotion header (magic, version, kind, 0, session LE).
    @inline(__always)
    static func appendHeader(kind: DatagramKind, session: UInt32, to out: inout [UInt8]) {
        out.append(wireMagic); out.append(wireVersion); out.append(kind.rawValue); out.append(0)
        appendLE(session, to: &out)
    }

    @inline(__always)
    static func appendLE<T: FixedWidthInteger>(_ v: T, to out: inout [UInt8]) {
        withUnsafeBytes(of: v.littleEndian) { out.append(contentsOf: $0) }
    }

    /// Reads the header; checks magic, version, reserved byte and kind.
    static func readHeader(_ d: UnsafeRawBufferPointer, expecting kind: DatagramKind) throws(NoiseError) -> UInt32 {
        guard d.count >= datagramHeaderSize else { throw .malformedDatagram("shorter than the header") }
        guard d[0] == wireMagic, d[1] == wireVersion else { throw .malformedDatagram("bad magic or version") }
        guard d[2] == kind.rawValue else { throw .malformedDatagram("kind is \(d[2]), expected \(kind.rawValue)") }
        guard d[3] == 0 else { throw .malformedDatagram("reserved byte is not zero") }
        return UInt32(littleEndian: d.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
    }

    /// The receiver index of a transport datagram, to look up its session before decrypting.
    public static func receiverIndex(of datagram: UnsafeRawBufferPointer) throws(NoiseError) -> UInt32 {
        guard datagram.count >= overhead else { throw .malformedDatagram("transport datagram too short") }
        return try readHeader(datagram, expecting: .transport)
    }
}

/// Sending half of a transport session: explicit 64-bit counter in the clear.
public struct TransportSender: Sendable {
    public let cipher: CipherState
    /// The peer's index, written into the header's session field.
    public let receiverIndex: UInt32
    /// The counter the next datagram will carry (= datagrams sent so far).
    public private(set) var nextCounter: UInt64 = 0

    public init(cipher: CipherState, receiverIndex: UInt32) {
        self.cipher = cipher
        self.receiverIndex = receiverIndex
    }

    /// Encrypts `payload` into a complete datagram in `out` (cleared first, its
    /// capacity kept: reuse one buffer to stay allocation-light).
    public mutating func seal(_ payload: UnsafeRawBufferPointer, into out: inout [UInt8]) throws(NoiseError) {
        guard nextCounter < ReplayWindow.rejectAfterMessages else { throw .nonceExhausted }
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(TransportLayout.overhead + payload.count)
        // Header and counter are built on the stack: they are both the first
        // 16 bytes of the datagram and the associated data.
        var ad: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &ad) { p in
            p[0] = wireMagic; p[1] = wireVersion; p[2] = DatagramKind.transport.rawValue; p[3] = 0
            p.storeBytes(of: receiverIndex.littleEndian, toByteOffset: 4, as: UInt32.self)
            p.storeBytes(of: nextCounter.littleEndian, toByteOffset: 8, as: UInt64.self)
        }
        let counter = nextCounter
        try withUnsafeBytes(of: &ad) { (a) throws(NoiseError) in
            out.append(contentsOf: a)
            try cipher.seal(nonce: counter, ad: a, plaintext: payload, appendingTo: &out)
        }
        nextCounter += 1
    }

    public mutating func seal(_ payload: [UInt8], into out: inout [UInt8]) throws(NoiseError) {
        try withBytes(payload) { (p) throws(NoiseError) in try seal(p, into: &out) }
    }
}

/// Receiving half: checks the replay window, authenticates, and only then
/// records the counter. A datagram that fails changes no state.
public struct TransportReceiver: Sendable {
    public let cipher: CipherState
    /// Our own index: datagrams for this session carry it in the header.
    public let localIndex: UInt32
    public private(set) var window = ReplayWindow()

    public init(cipher: CipherState, localIndex: UInt32) {
        self.cipher = cipher
        self.localIndex = localIndex
    }

    /// Decrypts a whole transport datagram; the plaintext replaces `out`'s
    /// contents. Returns the datagram's counter.
    @discardableResult
    public mutating func open(_ datagram: UnsafeRawBufferPointer, into out: inout [UInt8]) throws(NoiseError) -> UInt64 {
        guard try TransportLayout.receiverIndex(of: datagram) == localIndex else {
            throw .malformedDatagram("datagram is for another session index")
        }
        let counter = UInt64(littleEndian: datagram.loadUnaligned(fromByteOffset: TransportLayout.counterOffset, as: UInt64.self))
        guard window.check(counter) else { throw .replayed(counter: counter) }
        out.removeAll(keepingCapacity: true)
        do {
            try cipher.open(nonce: counter,
                            ad: UnsafeRawBufferPointer(rebasing: datagram[..<TransportLayout.adLength]),
                            ciphertext: UnsafeRawBufferPointer(rebasing: datagram[TransportLayout.ciphertextOffset...]),
                            appendingTo: &out)
        } catch {
            out.removeAll(keepingCapacity: true)
            throw error
        }
        window.commit(counter)
        return counter
    }

    @discardableResult
    public mutating func open(_ datagram: [UInt8], into out: inout [UInt8]) throws(NoiseError) -> UInt64 {
        try withBytes(datagram) { (d) throws(NoiseError) in try open(d, into: &out) }
    }
}

extension HandshakeState {
    /// Transport halves for this side once the handshake is complete: we send
    /// with our direction's key to `remoteIndex`, and receive datagrams
    /// addressed to `localIndex`.
    public func transport(localIndex: UInt32, remoteIndex: UInt32) throws(NoiseError)
        -> (sender: TransportSender, receiver: TransportReceiver) {
        let (i2r, r2i) = try split()
        return (TransportSender(cipher: isInitiator ? i2r : r2i, receiverIndex: remoteIndex),
                TransportReceiver(cipher: isInitiator ? r2i : i2r, localIndex: localIndex))
    }
}
