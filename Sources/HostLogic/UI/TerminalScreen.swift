/// Renders a bitmap to terminal text with half-block characters: each text line
/// shows two pixel rows (upper half ▀, lower half ▄, both █, neither a space).
package enum TerminalBlocks {
    package static let upper: Character = "▀"
    package static let lower: Character = "▄"
    package static let full: Character = "█"

    /// One string per pair of pixel rows, trailing blanks removed.
    package static func lines(from bitmap: Bitmap) -> [String] {
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

    package static func cell(top: Bool, bottom: Bool) -> Character {
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
    package mutating func terminalLines(_ text: String, letterSpacing: Int = 1) -> [String] {
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
package struct TerminalScreen: Hashable, Sendable {
    package static let cursorHome = "\u{1B}[H"
    package static let eraseToEndOfLine = "\u{1B}[K"
    package static let eraseToEndOfScreen = "\u{1B}[J"
    package static let hideCursor = "\u{1B}[?25l"
    package static let showCursor = "\u{1B}[?25h"
    package static let enterAlternateScreen = "\u{1B}[?1049h"
    package static let leaveAlternateScreen = "\u{1B}[?1049l"

    /// Terminal size in cells; lines are cut to `columns`, the frame to `rows` lines.
    package var columns: Int
    package var rows: Int?

    package init(columns: Int = 80, rows: Int? = nil) {
        self.columns = max(1, columns)
        self.rows = rows.map { max(1, $0) }
    }

    /// The full frame for `lines`. Lines are separated by "\r\n" (correct in raw and
    /// cooked mode); the last line has no newline, so a full screen never scrolls.
    package func frame(_ lines: [String]) -> String {
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
    package static let setUp = enterAlternateScreen + hideCursor
    package static let tearDown = showCursor + leaveAlternateScreen
}

/// The host's status screen: the welcome view while nothing is connected, the
/// control view otherwise. Owns its pixel font (and so its glyph cache).
package struct StatusRenderer: Sendable {
    package private(set) var font: PixelFont
    package var screen: TerminalScreen

    package init(font: PixelFont, screen: TerminalScreen = TerminalScreen()) {
        self.font = font
        self.screen = screen
    }

    /// The view lines for `snapshot`, each at most `screen.columns` wide; a phone waiting
    /// to pair comes first, above either view.
    package mutating func lines(for snapshot: StatusSnapshot) -> [String] {
        let prompt = snapshot.host.waitingPhone?.lines(width: screen.columns) ?? []
        if snapshot.controllers.isEmpty {
            return prompt + WelcomeView(width: screen.columns).lines(for: snapshot.host, font: &font)
        }
        return prompt + ControlView(width: screen.columns).lines(for: snapshot)
    }

    /// The complete terminal frame for `snapshot`.
    package mutating func frame(for snapshot: StatusSnapshot) -> String {
        screen.frame(lines(for: snapshot))
    }
}
