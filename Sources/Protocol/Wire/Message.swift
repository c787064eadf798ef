
/// A button edge that must arrive exactly once and in order.
public struct ButtonEvent: Hashable, Sendable {
    /// Position in the session's reliable stream, starting at 1.
    public var sequence: UInt32
    public var button: Button
    public var isDown: Bool
    /// When the button changed, microseconds on the controller's clock.
    public var timestampMicros: UInt64

    public init(sequence: UInt32, button: Button, isDown: Bool, timestampMicros: UInt64) {
        self.sequence = sequence; self.button = button; self.isDown = isDown
        self.timestampMicros = timestampMicros
    }
}

/// An unreliable, newest-wins motion packet.
public struct MotionPacket: Hashable, Sendable {
    public var sequence: UInt32
    /// The sequence number of the newest button event the client had sent when the
    /// sample was taken (0 if none): lets the host repair a single lost edge at once.
    public var buttonSequence: UInt32
    public var sample: MotionSample

    public init(sequence: UInt32, buttonSequence: UInt32, sample: MotionSample) {
        self.sequence = sequence; self.buttonSequence = buttonSequence; self.sample = sample
    }
}

/// Acknowledgement of the reliable stream: every sequence number up to and including
/// `cumulative` arrived; bit i of `selective` says `cumulative + 2 + i` arrived too.
public struct Ack: Hashable, Sendable {
    public var cumulative: UInt32
    public var selective: UInt64
    public init(cumulative: UInt32, selective: UInt64 = 0) {
        self.cumulative = cumulative; self.selective = selective
    }

    public func covers(_ seq: UInt32) -> Bool {
        if seq <= cumulative { return true }
        let bit = Int64(seq) - Int64(cumulative) - 2
        return bit >= 0 && bit < 64 && selective & (1 << UInt64(bit)) != 0
    }
}

public enum DisconnectReason: UInt8, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    case user = 0, shutdown = 1, timeout = 2, error = 3, replaced = 4
    /// The host no longer trusts this controller's key (`remotion devices --revoke`).
    case revoked = 5
    /// Every session slot of the host is taken (`--max-controllers`).
    case full = 6

    public var description: String {
        switch self {
        case .user: "user"
        case .shutdown: "shutdown"
        case .timeout: "timeout"
        case .error: "error"
        case .replaced: "replaced"
        case .revoked: "revoked"
        case .full: "full"
        }
    }
}

/// One protocol message: what travels inside a plain datagram, or inside the
/// ciphertext of an encrypted transport datagram.
public enum Message: Hashable, Sendable {
    /// Client → host, every 0.5 s. `clockOffsetMicros` is the client's estimate of
    /// (host clock − client clock), learned from pongs, so the host can turn sample
    /// timestamps into one-way latency.
    case ping(clientTimeMicros: UInt64, clockOffsetMicros: Int64)
    /// Host → client, answers a ping.
    case pong(echoClientTimeMicros: UInt64, hostTimeMicros: UInt64)
    /// Client → host: one or more reliable button events (unacknowledged ones are resent together).
    case buttons([ButtonEvent])
    /// Client → host: unreliable motion.
    case motion(MotionPacket)
    /// Host → client: acknowledges the reliable stream.
    case ack(Ack)
    /// Either way: the session ends now.
    case disconnect(DisconnectReason)
    /// Host → client: rumble and light for the controller (a game wrote them to its
    /// virtual pad). Unreliable; the host repeats a running rumble every 0.5 s.
    case feedback(ControllerFeedback)

    public var typeCode: MessageType {
        switch self {
        case .ping: .ping
        case .pong: .pong
        case .buttons: .buttons
        case .motion: .motion
        case .ack: .ack
        case .disconnect: .disconnect
        case .feedback: .feedback
        }
    }
}

public enum MessageType: UInt8, Sendable, CaseIterable {
    case ping = 0x01, pong = 0x02, buttons = 0x03, motion = 0x04, ack = 0x05, disconnect = 0x06, feedback = 0x07
}
