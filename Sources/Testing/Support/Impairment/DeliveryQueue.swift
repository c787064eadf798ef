import RemotionProtocol

/// One copy of a datagram and the instant at which it should leave the relay.
package struct ScheduledDelivery: Sendable, Hashable {
    package var datagram: [UInt8]
    package var direction: ImpairmentDirection
    /// Opaque tag chosen by the caller (the relay uses it to name the client).
    package var flow: Int
    package var deliverAt: Instant
    /// Order of scheduling; ties on `deliverAt` are delivered in this order.
    package var sequence: UInt64
    /// True for the second copy made by the duplicate roll.
    package var isDuplicate: Bool
    /// True when the reorder roll held this copy back.
    package var isReordered: Bool
}

/// A binary min-heap of deliveries ordered by (`deliverAt`, `sequence`).
struct DeliveryQueue: Sendable {
    private var items: [ScheduledDelivery] = []

    var count: Int { items.count }
    var isEmpty: Bool { items.isEmpty }
    var first: ScheduledDelivery? { items.first }

    private static func before(_ a: ScheduledDelivery, _ b: ScheduledDelivery) -> Bool {
        (a.deliverAt, a.sequence) < (b.deliverAt, b.sequence)
    }

    mutating func insert(_ item: ScheduledDelivery) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(items[child], items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() -> ScheduledDelivery? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let top = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, Self.before(items[left], items[smallest]) { smallest = left }
            if right < items.count, Self.before(items[right], items[smallest]) { smallest = right }
            if smallest == parent { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }

    mutating func removeAll() { items.removeAll() }
}
