import RemotionHostLogic
/// Drawing a QR code for a terminal and as a PNG image.
///
/// Terminal rendering: each character cell shows two module rows with the half blocks
/// ▀ ▄ █ and space. A camera needs dark modules on a light ground. Terminals are usually
/// light text on a dark background, so `.plain` prints the LIGHT modules (and the quiet
/// zone) as foreground blocks and the DARK modules as spaces: the terminal's own dark
/// background becomes the dark modules and the symbol reads with normal polarity. Plain
/// text needs no escape codes, survives copying into logs and works wherever Unicode
/// does. On a light-background terminal it would come out inverted, which many phone
/// readers refuse; `.ansi` therefore pins the colours (bright white on black, SGR 97;40)
/// so the result reads the same on any background, at the cost of escape codes.
extension QRCode {
    package enum TerminalStyle: Sendable, Hashable {
        /// Light modules as foreground blocks, dark modules as spaces (dark-background terminals).
        case plain
        /// The same characters in explicit white-on-black, for any terminal background.
        case ansi
    }

    /// The symbol with a light border of `quietZone` modules, two module rows a line,
    /// every line `size + 2·quietZone` characters and ending in "\n". The bottom half of
    /// the last line is blank (terminal background) when the row count is odd.
    package func terminalText(quietZone: Int = 2, style: TerminalStyle = .plain) -> String {
        let zone = max(0, quietZone)
        let side = size + 2 * zone
        // Light (drawn as foreground) at (x, y) of the bordered symbol; rows past the end are background.
        func light(_ x: Int, _ y: Int) -> Bool { y < side && !isDark(x: x - zone, y: y - zone) }
        var out = ""
        for top in stride(from: 0, to: side, by: 2) {
            if style == .ansi { out += "\u{1B}[97;40m" }
            for x in 0..<side {
                switch (light(x, top), light(x, top + 1)) {
                case (true, true): out += "█"
                case (true, false): out += "▀"
                case (false, true): out += "▄"
                case (false, false): out += " "
                }
            }
            if style == .ansi { out += "\u{1B}[0m" }
            out += "\n"
        }
        return out
    }

    /// A one-bit bitmap: `scale` pixels a module, a white quiet zone of `quietZone` modules,
    /// dark modules black (unlit), light modules white (lit).
    package func bitmap(scale: Int = 8, quietZone: Int = 4) throws(BitmapError) -> Bitmap {
        let s = max(1, scale), zone = max(0, quietZone)
        let side = (size + 2 * zone) * s
        var image = try Bitmap(width: side, height: side, format: .oneBit, background: .white)
        for y in 0..<size {
            for x in 0..<size where rows[y][x] {
                image.fill(PixelRect(x: (x + zone) * s, y: (y + zone) * s, width: s, height: s), color: .clear)
            }
        }
        return image
    }

    /// The symbol as a 1-bit grayscale PNG (see `bitmap(scale:quietZone:)`).
    package func png(scale: Int = 8, quietZone: Int = 4) throws -> [UInt8] {
        try PNGEncoder.encode(try bitmap(scale: scale, quietZone: quietZone), mode: .grayscale)
    }
}
