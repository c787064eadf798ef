/// Output geometry for pixel text, in output pixels (bitmap pixels or terminal cells).
package struct TextStyle: Hashable, Sendable {
    /// Distance between the top-left corners of neighbouring font pixels.
    package var gridSize: Int
    /// Side of the square drawn for one lit font pixel (at most `gridSize` for gaps).
    package var pixelSize: Int
    /// Blank font columns between letters.
    package var letterSpacing: Int
    /// Font rows from one text line to the next (6: row 0 of each glyph is the gap).
    package var lineHeight: Int

    package init(gridSize: Int = 1, pixelSize: Int = 1, letterSpacing: Int = 1, lineHeight: Int = 6) {
        self.gridSize = max(1, gridSize)
        self.pixelSize = max(1, pixelSize)
        self.letterSpacing = max(0, letterSpacing)
        self.lineHeight = max(PixelGlyph.rowCount, lineHeight)
    }

    /// One output pixel per font pixel: what the terminal renderer uses.
    package static let terminal = TextStyle()
}

/// An axis-aligned rectangle in output pixels, origin top left.
package struct PixelRect: Hashable, Sendable {
    package var x: Int
    package var y: Int
    package var width: Int
    package var height: Int
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
    package func offsetBy(dx: Int, dy: Int) -> PixelRect { PixelRect(x: x + dx, y: y + dy, width: width, height: height) }
}

/// A width and height in output pixels.
package struct PixelSize: Hashable, Sendable {
    package var width: Int
    package var height: Int
    package init(width: Int, height: Int) { self.width = width; self.height = height }
}

/// Pixel text laid out in output pixels: the lit pixel rectangles and the bounding size.
package struct TextLayout: Hashable, Sendable {
    /// Lit pixels, origin at the top left of the first line.
    package var rects: [PixelRect]
    package var width: Int
    package var height: Int
    /// Font columns of the widest line (letters plus letter spacing).
    package var columns: Int
    package var lineCount: Int

    package init(rects: [PixelRect], width: Int, height: Int, columns: Int, lineCount: Int) {
        self.rects = rects; self.width = width; self.height = height
        self.columns = columns; self.lineCount = lineCount
    }
}

extension PixelFont {
    /// Font columns `line` occupies: glyph widths plus `letterSpacing` between letters.
    package func columns(of line: some StringProtocol, letterSpacing: Int = 1) -> Int {
        var total = 0
        for (i, c) in line.enumerated() {
            if i > 0 { total += letterSpacing }
            total += glyph(for: c).width
        }
        return total
    }

    /// Lays out `text` ("\n" separates lines) letter by letter:
    /// a pixel at font column c, row r of line l lands at
    /// x = c · gridSize, y = (l · lineHeight + r) · gridSize, size pixelSize².
    package mutating func layout(_ text: String, style: TextStyle) -> TextLayout {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        var rects: [PixelRect] = []
        var maxColumns = 0
        for (lineIndex, line) in lines.enumerated() {
            let top = lineIndex * style.lineHeight * style.gridSize
            var column = 0
            for (i, c) in line.enumerated() {
                if i > 0 { column += style.letterSpacing }
                let left = column * style.gridSize
                for r in pixels(for: c, style: style) {
                    rects.append(r.offsetBy(dx: left, dy: top))
                }
                column += glyph(for: c).width
            }
            maxColumns = max(maxColumns, column)
        }
        let rows = (lines.count - 1) * style.lineHeight + PixelGlyph.rowCount
        return TextLayout(rects: rects,
                          width: Self.extent(cells: maxColumns, style.gridSize, style.pixelSize),
                          height: Self.extent(cells: rows, style.gridSize, style.pixelSize),
                          columns: maxColumns, lineCount: lines.count)
    }

    /// Breaks `text` into lines of at most `maxColumns` font columns, at spaces where
    /// possible and inside words otherwise; existing "\n" are kept.
    package func wrap(_ text: String, maxColumns: Int, letterSpacing: Int = 1) -> [String] {
        var out: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                let candidate = line.isEmpty ? String(word) : line + " " + word
                if columns(of: candidate, letterSpacing: letterSpacing) <= maxColumns {
                    line = candidate
                    continue
                }
                if !line.isEmpty { out.append(line) }
                line = ""
                for c in word {
                    let next = line + String(c)
                    if !line.isEmpty, columns(of: next, letterSpacing: letterSpacing) > maxColumns {
                        out.append(line)
                        line = String(c)
                    } else {
                        line = next
                    }
                }
            }
            out.append(line)
        }
        return out
    }
}
