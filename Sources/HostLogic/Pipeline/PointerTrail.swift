import RemotionProtocol

/// The most recent pointer positions of one controller, for the dashboard's trail: a
/// fixed ring, so recording a position allocates nothing and moves nothing (the list
/// of [x, y] arrays it replaced allocated one array per motion packet and shifted 256
/// entries on every packet once full).
package struct PointerTrail: Sendable {
    private var xs: [Int32]
    private var ys: [Int32]
    private var next = 0
    package private(set) var count = 0

    package init(capacity: Int) {
        xs = [Int32](repeating: 0, count: max(1, capacity))
        ys = xs
    }

    package var capacity: Int { xs.count }

    package mutating func append(x: Int, y: Int) {
        xs[next] = Int32(clamping: x)
        ys[next] = Int32(clamping: y)
        next = next + 1 == xs.count ? 0 : next + 1
        count = min(count + 1, xs.count)
    }

    /// Oldest first, as typed points (the status model).
    package var points: [ScreenPoint] {
        let start = (next - count + xs.count) % xs.count
        return (0..<count).map { i in
            let j = (start + i) % xs.count
            return ScreenPoint(x: Int(xs[j]), y: Int(ys[j]))
        }
    }
}
