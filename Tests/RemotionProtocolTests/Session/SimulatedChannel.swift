import RemotionProtocol

/// One direction of a simulated network: each datagram is lost with `loss`, sent twice
/// with `duplication`, and delayed by a random time in `delay` (so datagrams overtake
/// each other). Seeded, driven by the virtual clock: nothing here sleeps.
struct SimulatedChannel<Item> {
    var loss: Double
    var duplication: Double
    var delay: ClosedRange<Int64>   // milliseconds
    private var inFlight: [(at: Instant, order: Int, item: Item)] = []
    private var order = 0
    private(set) var sent = 0
    private(set) var lost = 0
    private(set) var duplicated = 0

    init(loss: Double = 0.3, duplication: Double = 0.05, delay: ClosedRange<Int64> = 1...40) {
        self.loss = loss; self.duplication = duplication; self.delay = delay
    }

    mutating func send(_ item: Item, now: Instant, rng: inout SplitMix64) {
        sent += 1
        let copies = rng.chance(duplication) ? 2 : 1
        if copies == 2 { duplicated += 1 }
        for _ in 0..<copies {
            if rng.chance(loss) { lost += 1; continue }
            let at = now + .milliseconds(Int64.random(in: delay, using: &rng))
            order += 1
            inFlight.append((at, order, item))
        }
    }

    /// Everything due by `now`, in arrival order.
    mutating func receive(now: Instant) -> [Item] {
        let due = inFlight.filter { $0.at <= now }.sorted { ($0.at, $0.order) < ($1.at, $1.order) }
        inFlight.removeAll { $0.at <= now }
        return due.map(\.item)
    }

    var isEmpty: Bool { inFlight.isEmpty }
}
