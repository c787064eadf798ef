/// Renders a bitmap to terminal text with half-block characters: each text line
/// shows two pixel rows (upper half ▀, lower half ▄, both █, neither a space).
public enum TerminalBlocks {
    public static let upper: Character = "▀"
    public static let lower: Character = "▄"
    public static let full: Character = "█"

    /// One string per pair of pixel rows, trailing blanks removed.
    public static func lines(from bitmap: Bitmap) -> [String] {
        var out: [String] = []
        out.reserveCapacity((bitmap.height + 1) / 2)
        var y = 0
        while y < bitmap.height {
            var line = ""
            line.reserveCapacity(bitmap.width * 3)
            for x in 0..<bitmap.width {
                line.append(cell(top: bitmap.isLit(x: x, y: y), bottom: bitmap.isLit(x: x, y: y + 1)))
            }
            out.append(trimTrailingSpaces(line))
            y += 2
        }
        return out
    }

    public static func cell(top: Bool, bottom: Bool) -> Character {
        switch (top, bottom) {
        case (true, true): full
        case (true, false): upper
        case (false, true): lower
        case (false, false): " "
        }
    }

    static func trimTrailingSpaces(_ s: String) -> String {
        var s = s
        while s.last == " " { s.removeLast() }
        return s
    }
}

extension PixelFont {
    /// `text` in the pixel font as terminal lines (one font pixel per cell column,
    /// two font rows per line: a six-row text line takes three terminal lines).
    public mutating func terminalLines(_ text: String, letterSpacing: Int = 1) -> [String] {
        let style = TextStyle(gridSize: 1, pixelSize: 1, letterSpacing: letterSpacing)
        let laidOut = layout(text, style: style)
        guard laidOut.width > 0,
              var bitmap = try? Bitmap(width: laidOut.width, height: laidOut.height, format: .oneBit)
        else { return Array(repeating: "", count: (laidOut.height + 1) / 2) }
        bitmap.draw(laidOut)
        return TerminalBlocks.lines(from: bitmap)
    }
}
