import RemotionProtocol

/// The sans-IO heart of the relay: decides, for every datagram, whether it is dropped,
/// duplicated, delayed or reordered, and holds the copies until they are due.
///
/// The clock is a parameter. Each direction draws from its own `SplitMix64` (seeded from
/// `seed` and the direction), so a direction's decisions depend only on the seed and on the
/// order of the datagrams submitted in that direction. Draws per datagram, in this order:
/// loss, then (if kept) duplicate, then per copy: jitter, reorder.
package struct ImpairmentScheduler: Sendable {
    package let clientToHostProfile: ImpairmentProfile
    package let hostToClientProfile: ImpairmentProfile
    package let seed: UInt64
    /// Most copies held at once (both directions); further copies count as `overflowed`.
    package let maxQueued: Int

    package private(set) var stats = ImpairmentStats()

    private var randomUp: SplitMix64
    private var randomDown: SplitMix64
    private var queue = DeliveryQueue()
    private var queuedPerDirection = [0, 0]
    private var nextSequence: UInt64 = 0

    package init(
        clientToHost: ImpairmentProfile,
        hostToClient: ImpairmentProfile,
        seed: UInt64,
        maxQueued: Int = 4096
    ) {
        self.clientToHostProfile = clientToHost
        self.hostToClientProfile = hostToClient
        self.seed = seed
        self.maxQueued = max(0, maxQueued)
        randomUp = SplitMix64(seed: seed)
        randomDown = SplitMix64(seed: seed ^ 0xD1B5_4A32_D192_ED03)
    }

    package func profile(for direction: ImpairmentDirection) -> ImpairmentProfile {
        direction == .clientToHost ? clientToHostProfile : hostToClientProfile
    }

    /// Copies currently held (both directions).
    package var queuedCount: Int { queue.count }

    /// Copies currently held for one direction.
    package func queuedCount(_ direction: ImpairmentDirection) -> Int { queuedPerDirection[direction.rawValue] }

    /// The earliest instant at which `deliverable(now:)` has something to hand out.
    package var nextDeadline: Instant? { queue.first?.deliverAt }

    /// Rolls the dice for one datagram and queues the surviving copies.
    ///
    /// Returns the copies that were queued (empty when dropped or when the queue is full),
    /// each with its delivery instant. Nothing is handed out here, even with zero delay:
    /// call `deliverable(now:)` afterwards.
    package mutating func submit(
        _ datagram: [UInt8],
        direction: ImpairmentDirection,
        flow: Int = 0,
        now: Instant
    ) -> [ScheduledDelivery] {
        let profile = profile(for: direction)
        var random = direction == .clientToHost ? randomUp : randomDown
        defer { if direction == .clientToHost { randomUp = random } else { randomDown = random } }
        var counters = stats[direction]
        defer { stats[direction] = counters }

        counters.received += 1
        if random.chance(percent: profile.lossPercent) {
            counters.dropped += 1
            return []
        }
        let copies = random.chance(percent: profile.duplicatePercent) ? 2 : 1
        if copies == 2 { counters.duplicated += 1 }

        var scheduled: [ScheduledDelivery] = []
        for copy in 0..<copies {
            var delayNanos = profile.delay.nanoseconds
            let jitterNanos = profile.jitter.nanoseconds
            let unit = random.nextUnit()
            if jitterNanos > 0 {
                delayNanos += Int64(((unit * 2 - 1) * Double(jitterNanos)).rounded())
            }
            let reordered = random.chance(percent: profile.reorderPercent)
            if reordered {
                counters.reordered += 1
                delayNanos += profile.reorderExtraDelay.nanoseconds
            }
            guard queue.count < maxQueued else {
                counters.overflowed += 1
                continue
            }
            let delivery = ScheduledDelivery(
                datagram: datagram, direction: direction, flow: flow,
                deliverAt: now + .nanoseconds(max(0, delayNanos)),
                sequence: nextSequence, isDuplicate: copy == 1, isReordered: reordered)
            nextSequence += 1
            queue.insert(delivery)
            queuedPerDirection[direction.rawValue] += 1
            scheduled.append(delivery)
        }
        return scheduled
    }

    /// Removes and returns every copy due at or before `now`, earliest first.
    package mutating func deliverable(now: Instant) -> [ScheduledDelivery] {
        var due: [ScheduledDelivery] = []
        while let head = queue.first, head.deliverAt <= now, let item = queue.popFirst() {
            queuedPerDirection[item.direction.rawValue] -= 1
            stats[item.direction].delivered += 1
            due.append(item)
        }
        return due
    }

    /// Forgets every queued copy (used on shutdown); returns how many were discarded.
    @discardableResult
    package mutating func discardQueued() -> Int {
        let n = queue.count
        queue.removeAll()
        queuedPerDirection = [0, 0]
        return n
    }
}
