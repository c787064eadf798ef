
/// The client's half of the reliable button stream: numbers every edge, resends the
/// unacknowledged ones together after a timeout from the smoothed RTT (doubling on
/// each expiry), and forgets an edge once an ack covers it.
public struct ReliableSender: Sendable {
    struct Pending: Sendable {
        var event: ButtonEvent
        var firstSent: Instant
        var transmissions: Int
    }

    public enum EnqueueError: Error, Sendable, Equatable {
        /// More edges are waiting for an ack than the stream keeps; the host is not answering.
        case queueFull
    }

    public static let maximumPending = 256

    public private(set) var rtt = RTTEstimator()
    public private(set) var nextSequence: UInt32 = 1
    private var pending: [Pending] = []
    private var backoff: Int = 0
    /// When the oldest unacknowledged batch is resent.
    public private(set) var retransmitDeadline: Instant?
    public private(set) var retransmissions: Int = 0

    public init() {}

    public var unacknowledged: Int { pending.count }
    /// The sequence number of the newest edge handed out (0 before the first).
    public var lastSequence: UInt32 { nextSequence &- 1 }

    /// Numbers a new edge and returns the batch to send now (every unacknowledged edge,
    /// oldest first, up to `maxButtonBatch`).
    public mutating func enqueue(_ button: Button, isDown: Bool, timestampMicros: UInt64,
                                 now: Instant) throws(EnqueueError) -> [ButtonEvent] {
        guard pending.count < Self.maximumPending else { throw .queueFull }
        let event = ButtonEvent(sequence: nextSequence, button: button, isDown: isDown,
                                timestampMicros: timestampMicros)
        nextSequence &+= 1
        pending.append(Pending(event: event, firstSent: now, transmissions: 0))
        return transmitBatch(now: now)
    }

    /// Removes every edge the ack covers and takes an RTT sample from the newest edge
    /// it covers that was sent only once.
    public mutating func receive(_ ack: Ack, now: Instant) {
        var sample: Duration?
        pending.removeAll { p in
            guard ack.covers(p.event.sequence) else { return false }
            if p.transmissions == 1 { sample = now - p.firstSent }
            return true
        }
        if let sample {
            rtt.addSample(sample)
            backoff = 0
        }
        if pending.isEmpty {
            retransmitDeadline = nil
            backoff = 0
        }
    }

    /// Feeds an RTT measured elsewhere (ping/pong) so the first edge already has a good timeout.
    public mutating func addRTTSample(_ rtt: Duration) { self.rtt.addSample(rtt) }

    /// Called at or after `retransmitDeadline`: the batch to resend, if any.
    public mutating func retransmitIfDue(now: Instant) -> [ButtonEvent] {
        guard let deadline = retransmitDeadline, now >= deadline, !pending.isEmpty else { return [] }
        backoff = min(backoff + 1, 6)
        retransmissions += 1
        return transmitBatch(now: now)
    }

    private mutating func transmitBatch(now: Instant) -> [ButtonEvent] {
        let count = min(pending.count, maxButtonBatch)
        for i in 0..<count { pending[i].transmissions += 1 }
        var timeout = rtt.retransmissionTimeout
        for _ in 0..<backoff { timeout = min(timeout * 2, rtt.configuration.maximumRTO) }
        retransmitDeadline = now + timeout
        return pending[0..<count].map(\.event)
    }
}
