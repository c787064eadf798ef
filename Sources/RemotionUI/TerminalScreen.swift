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

/// Turns view lines into one terminal frame that overwrites the previous one in
/// place: cursor home, each line followed by erase-to-end-of-line, then
/// erase-to-end-of-screen. Nothing is cleared first, so redraws do not flicker.
/// The adapter writes the frame with one write call.
public struct TerminalScreen: Hashable, Sendable {
    public static let cursorHome = "\u{1B}[H"
    public static let eraseToEndOfLine = "\u{1B}[K"
    public static let eraseToEndOfScreen = "\u{1B}[J"
    public static let hideCursor = "\u{1B}[?25l"
    public static let showCursor = "\u{1B}[?25h"
    public static let enterAlternateScreen = "\u{1B}[?1049h"
    public static let leaveAlternateScreen = "\u{1B}[?1049l"

    /// Terminal size in cells; lines are cut to `columns`, the frame to `rows` lines.
    public var columns: Int
    public var rows: Int?

    public init(columns: Int = 80, rows: Int? = nil) {
        self.columns = max(1, columns)
        self.rows = rows.map { max(1, $0) }
    }

    /// The full frame for `lines`. Lines are separated by "\r\n" (correct in raw and
    /// cooked mode); the last line has no newline, so a full screen never scrolls.
    public func frame(_ lines: [String]) -> String {
        let visible = rows.map { Array(lines.prefix($0)) } ?? lines
        var out = Self.cursorHome
        for (i, line) in visible.enumerated() {
            if i > 0 { out += "\r\n" }
            out += TextFormat.truncate(line, columns)
            out += Self.eraseToEndOfLine
        }
        return out + Self.eraseToEndOfScreen
    }

    /// What the adapter writes once on start (alternate screen, no cursor) and on exit.
    public static let setUp = enterAlternateScreen + hideCursor
    public static let tearDown = showCursor + leaveAlternateScreen
}

/// The host's status screen: the welcome view while nothing is connected, the
/// control view otherwise. Owns its pixel font (and so its glyph cache).
public struct StatusRenderer: Sendable {
    public private(set) var font: PixelFont
    public var screen: TerminalScreen

    public init(font: PixelFont, screen: TerminalScreen = TerminalScreen()) {
        self.font = font
        self.screen = screen
    }

    /// The view lines for `snapshot`, each at most `screen.columns` wide.
    public mutating func lines(for snapshot: StatusSnapshot) -> [String] {
        if snapshot.controllers.isEmpty {
            return WelcomeView(width: screen.columns).lines(for: snapshot.host, font: &font)
        }
        return ControlView(width: screen.columns).lines(for: snapshot)
    }

    /// The complete terminal frame for `snapshot`.
    public mutating func frame(for snapshot: StatusSnapshot) -> String {
        screen.frame(lines(for: snapshot))
    }
}
