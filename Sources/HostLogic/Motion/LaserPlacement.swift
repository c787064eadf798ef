/// Where the presenter's laser dot goes on a layout of outputs (docs/WEB-CONTROLLER.md,
/// "Presenter"): a Wayland overlay is one surface on one output, so the dot's point, in the
/// injector's screen, becomes an output and a top-left corner in that output. Pure.
package enum LaserPlacement {
    /// One output of the layout, in logical pixels.
    package struct Output: Sendable, Hashable {
        package var x: Int, y: Int, width: Int, height: Int
        package init(x: Int, y: Int, width: Int, height: Int) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    /// The dot at (`x`, `y`) of the injector's screen: relative to `outputs[pinned]` when
    /// the pointer is bound to that output, else to the layout's bounding box (its corner at
    /// the outputs' smallest x and y). The output is the one the point is on (the nearest
    /// when it is on none); the corner keeps the whole dot on that output. Nil without outputs.
    package static func place(x: Int, y: Int, outputs: [Output], pinned: Int?,
                              diameter: Int) -> (output: Int, left: Int, top: Int)? {
        guard !outputs.isEmpty else { return nil }
        let index: Int, local: (x: Int, y: Int)
        if let pinned {
            guard outputs.indices.contains(pinned) else { return nil }
            index = pinned
            local = (x, y)
        } else {
            let minX = outputs.map(\.x).min() ?? 0, minY = outputs.map(\.y).min() ?? 0
            let ax = x.clamped(-(1 << 24), 1 << 24) + minX, ay = y.clamped(-(1 << 24), 1 << 24) + minY
            index = outputs.indices.min(by: { distance(ax, ay, outputs[$0]) < distance(ax, ay, outputs[$1]) }) ?? 0
            local = (ax - outputs[index].x, ay - outputs[index].y)
        }
        let o = outputs[index], d = max(diameter, 1)
        let left = (local.x.clamped(-(1 << 24), 1 << 24) - d / 2).clamped(0, max(0, o.width - d))
        let top = (local.y.clamped(-(1 << 24), 1 << 24) - d / 2).clamped(0, max(0, o.height - d))
        return (index, left, top)
    }

    /// How far (x, y) lies outside `o` (0 inside), in the larger axis' pixels.
    private static func distance(_ x: Int, _ y: Int, _ o: Output) -> Int {
        let dx = x < o.x ? o.x - x : (x >= o.x + o.width ? x - (o.x + o.width) + 1 : 0)
        let dy = y < o.y ? o.y - y : (y >= o.y + o.height ? y - (o.y + o.height) + 1 : 0)
        return max(dx, dy)
    }
}

private extension Int {
    func clamped(_ low: Int, _ high: Int) -> Int { Swift.min(Swift.max(self, low), high) }
}
