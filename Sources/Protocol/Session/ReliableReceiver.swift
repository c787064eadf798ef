
/// The host's half of the reliable button stream: delivers each edge exactly once and
/// in order, whatever the network did to the datagrams, and says what to acknowledge.
public struct ReliableReceiver: Sendable {
    /// Edges further ahead than this are not buffered (the sender never has more than
    /// `ReliableSender.maximumPending` in flight).
    public static let window: UInt32 = 256

    /// Every edge up to and including this one has been delivered.
    public private(set) var delivered: UInt32 = 0
    private var buffered: [UInt32: ButtonEvent] = [:]
    public private(set) var duplicates: Int = 0

    public init() {}

    /// Accepts a batch as it arrived; returns the edges that are now deliverable, in order.
    public mutating func receive(_ events: [ButtonEvent]) -> [ButtonEvent] {
        for e in events {
            if e.sequence <= delivered || buffered[e.sequence] != nil {
                duplicates += 1
            } else if e.sequence &- delivered <= Self.window {
                buffered[e.sequence] = e
            }
        }
        return drain()
    }

    /// Repairs a single lost edge from a motion packet: when the packet says the client
    /// had sent exactly one edge beyond what was delivered, and the packet's full button
    /// state differs from the delivered state in exactly one button, that edge is known.
    public mutating func repair(from motion: MotionPacket, delivered state: ButtonSet) -> [ButtonEvent] {
        let next = delivered &+ 1
        guard motion.buttonSequence == next, buffered[next] == nil else { return [] }
        let changed = state.changes(to: motion.sample.buttons)
        guard changed.count == 1, let button = changed.first else { return [] }
        buffered[next] = ButtonEvent(sequence: next, button: button,
                                     isDown: motion.sample.buttons.contains(button),
                                     timestampMicros: motion.sample.timestampMicros)
        return drain()
    }

    /// What to acknowledge now.
    public var ack: Ack {
        var bits: UInt64 = 0
        for seq in buffered.keys where seq >= delivered &+ 2 && seq - delivered - 2 < 64 {
            bits |= 1 << UInt64(seq - delivered - 2)
        }
        return Ack(cumulative: delivered, selective: bits)
    }

    private mutating func drain() -> [ButtonEvent] {
        var out: [ButtonEvent] = []
        while let e = buffered.removeValue(forKey: delivered &+ 1) {
            out.append(e)
            delivered &+= 1
        }
        return out
    }
}
