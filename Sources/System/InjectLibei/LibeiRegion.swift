import RemotionProtocol

/// One of the absolute pointer's regions an EIS compositor gives (a monitor, in the
/// compositor's logical pixels), and where a point of the host's screen lands among them.
package struct LibeiRegion: Sendable, Hashable {
    package var x: Int, y: Int, width: Int, height: Int

    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The regions' bounding box, as the host's screen (its origin at the box's corner);
    /// 1x1 without regions.
    package static func bounds(_ regions: [LibeiRegion]) -> ScreenGeometry {
        guard let minX = regions.map(\.x).min(), let minY = regions.map(\.y).min() else {
            return ScreenGeometry(width: 1, height: 1)
        }
        let maxX = regions.map { $0.x &+ $0.width }.max() ?? minX + 1
        let maxY = regions.map { $0.y &+ $0.height }.max() ?? minY + 1
        return ScreenGeometry(width: max(1, maxX &- minX), height: max(1, maxY &- minY))
    }

    /// The compositor's point for the screen point (x, y): inside a region as it is, else
    /// clamped into the nearest region (EIS drops a point outside every region). The point
    /// itself without regions.
    package static func place(x: Int, y: Int, in regions: [LibeiRegion]) -> (x: Double, y: Double) {
        guard let minX = regions.map(\.x).min(), let minY = regions.map(\.y).min() else {
            return (Double(x), Double(y))
        }
        let gx = Double(minX) + Double(x), gy = Double(minY) + Double(y)
        var best = (x: gx, y: gy), bestDistance = Double.infinity
        for r in regions where r.width > 0 && r.height > 0 {
            let cx = min(max(gx, Double(r.x)), Double(r.x) + Double(r.width) - 1)
            let cy = min(max(gy, Double(r.y)), Double(r.y) + Double(r.height) - 1)
            let d = (cx - gx) * (cx - gx) + (cy - gy) * (cy - gy)
            if d < bestDistance { bestDistance = d; best = (cx, cy) }
        }
        return best
    }
}
