
/// When to replace transport keys (docs/NOISE.md §8), WireGuard's timers with
/// Remotion's numbers. Pure: pass the time the keys were made and the count.
public enum RekeyPolicy {
    /// The initiator starts a new handshake when its sending keys are this old...
    public static let rekeyAfterTime: Duration = .seconds(120)
    /// ...or after this many messages.
    public static let rekeyAfterMessages: UInt64 = 1 << 60
    /// Keys older than this are dropped on both sides: no send, no receive.
    public static let rejectAfterTime: Duration = .seconds(180)

    public static func shouldRekey(keysCreatedAt: Instant, messagesSent: UInt64, now: Instant) -> Bool {
        now - keysCreatedAt >= rekeyAfterTime || messagesSent >= rekeyAfterMessages
    }

    public static func isExpired(keysCreatedAt: Instant, now: Instant) -> Bool {
        now - keysCreatedAt >= rejectAfterTime
    }
}

/// The prologue both sides mix into every Remotion handshake: ASCII "remotion v1".
public let remotionPrologue: [UInt8] = Array("remotion v1".utf8)
