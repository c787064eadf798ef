import RemotionProtocol

/// A small ASCII picture of a pointer path on a screen: '.' where the path passed,
/// 'o' where it started, '@' where it ended.
package enum PathPlot {
    package static func render(_ points: [(x: Int, y: Int)], screen: ScreenGeometry,
                              columns: Int = 60, rows: Int = 15) -> [String] {
        var grid = Array(repeating: Array(repeating: Character(" "), count: columns), count: rows)
        func cell(_ p: (x: Int, y: Int)) -> (Int, Int) {
            let c = min(columns - 1, max(0, p.x * columns / max(1, screen.width)))
            let r = min(rows - 1, max(0, p.y * rows / max(1, screen.height)))
            return (r, c)
        }
        for p in points {
            let (r, c) = cell(p)
            grid[r][c] = "."
        }
        if let first = points.first { let (r, c) = cell(first); grid[r][c] = "o" }
        if let last = points.last { let (r, c) = cell(last); grid[r][c] = "@" }
        let border = "+" + String(repeating: "-", count: columns) + "+"
        return [border] + grid.map { "|" + String($0) + "|" } + [border]
    }
}
