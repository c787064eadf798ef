
/// What the host knows about one connected controller.
/// (Its setters are public so the host state machine's @inlinable path can use them: a
/// HostSession handed out is a copy, so changing one changes nothing in the machine.)
public struct HostSession<Address: Hashable & Sendable>: Sendable {
    public let id: SessionID
    public let address: Address
    public let opened: Instant
    public var lastHeard: Instant
    public var receiver = ReliableReceiver()
    /// The button state as delivered to the host (what is held down right now).
    public var buttons = ButtonSet.none
    public var newestMotion: UInt32?
    /// The client's estimate of (host clock − client clock), from its pings.
    public var clockOffsetMicros: Int64 = 0
    public var stats = Stats()
    /// When the last button batch arrived, and when the host last acknowledged.
    @usableFromInline var lastButtons: Instant?
    @usableFromInline var lastAck: Instant?

    public struct Stats: Sendable, Equatable {
        public var datagrams = 0
        public var motionPackets = 0
        public var staleMotion = 0
        /// Gaps in the motion sequence: packets the network lost (or reordered and then dropped as stale).
        public var motionGaps = 0
        public var buttonEdges = 0
        public var repairedEdges = 0
    }

    @inlinable
    init(id: SessionID, address: Address, now: Instant) {
        self.id = id
        self.address = address
        self.opened = now
        self.lastHeard = now
    }

    /// Newest-wins: true if `seq` is newer than every motion packet seen (serial-number
    /// arithmetic, so the 32-bit counter may wrap).
    @inlinable
    mutating func acceptMotion(_ seq: UInt32) -> Bool {
        guard let newest = newestMotion else {
            newestMotion = seq
            return true
        }
        let ahead = Int32(bitPattern: seq &- newest)
        guard ahead > 0 else { return false }
        stats.motionGaps += Int(ahead) - 1
        newestMotion = seq
        return true
    }
}

/// Why a host session ended.
public enum SessionCloseReason: Hashable, Sendable, CustomStringConvertible {
    case clientDisconnected(DisconnectReason)
    case timedOut
    case hostShutdown
    /// The controller's key was revoked while the session was live.
    case revoked

    public var description: String {
        switch self {
        case .clientDisconnected(let r): "client-disconnected:\(r)"
        case .timedOut: "timed-out"
        case .hostShutdown: "host-shutdown"
        case .revoked: "revoked"
        }
    }
}

/// What the host's state machine asks its owner to do.
public enum HostAction<Address: Hashable & Sendable>: Sendable, Equatable {
    /// Send this message to that client (the transport frames it, plain or encrypted).
    case send(Message, session: SessionID, to: Address)
    /// A session opened: a datagram session's `.udp` origin, or where an external one came from.
    case sessionOpened(SessionID, ControllerOrigin<Address>)
    /// A new motion sample; `latencyMicros` is the one-way latency estimated from the
    /// sample's timestamp and the client's clock offset, or nil where nobody can know it
    /// (no shared or estimated clock: a DSU app, a client whose offset is not plausible).
    case motion(SessionID, MotionSample, latencyMicros: Int64?)
    /// A button edge, delivered exactly once and in order.
    case button(SessionID, Button, isDown: Bool)
    /// The session is gone; every button it held has already been released by
    /// `.button(..., isDown: false)` actions just before this one.
    case sessionClosed(SessionID, SessionCloseReason)
}
