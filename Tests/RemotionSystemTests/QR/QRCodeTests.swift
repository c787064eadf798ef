import Foundation
import Testing
import RemotionSystem
import RemotionHostLogic
import RemotionTestSupport

@Suite struct QRCodeTests {
    static let urls = [
        "https://192.168.1.20:7476/#pair=AbCdEfGhIjKlMnOpQrSt_-&fp=1A2B-3C4D-5E6F-7081-92A3-B4C5-D6E7-F809",
        "https://studio-mac.local:7476/#pair=Zz09_-aaBBccDDeeFFggHH&fp=8FA5-DC37-FC98-7FF3-6A82-6717-A08D-7C5D",
        "https://[fe80::1c2d:3e4f:5a6b:7c8d]:7476/#pair=q1w2e3r4t5y6u7i8o9p0AA&fp=0000-FFFF-0000-FFFF-0000-FFFF-0000-FFFF",
    ]

    /// Writes `bytes` to a temporary file and returns what `zbarimg --raw -q` reads from it.
    func zbar(_ png: [UInt8]) throws -> ToolResult {
        let dir = try TemporaryDirectory(); defer { dir.remove() }
        let file = dir.url.appendingPathComponent("qr.png")
        try Data(png).write(to: file)
        return try runTool("zbarimg", ["--raw", "-q", file.path])
    }

    @Test(arguments: urls) func pngDecodesToTheURL(url: String) throws {
        let code = try QRCode(text: url, level: .medium)
        #expect(code.size == 17 + 4 * code.version && code.rows.count == code.size)
        #expect(code.rows.allSatisfy { $0.count == code.size })
        let png = try code.png(scale: 8, quietZone: 4)
        #expect(Array(png.prefix(8)) == PNGEncoder.signature)
        let decoded = try zbar(png)
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout == url + "\n")
    }

    @Test func finderPatternsAreWhereTheStandardPutsThem() throws {
        let code = try QRCode(text: Self.urls[0])
        // Each corner finder: a dark 7×7 ring, a light ring, a dark 3×3 centre.
        for (ox, oy) in [(0, 0), (code.size - 7, 0), (0, code.size - 7)] {
            for y in 0..<7 {
                for x in 0..<7 {
                    let ring = max(abs(x - 3), abs(y - 3))
                    #expect(code.isDark(x: ox + x, y: oy + y) == (ring != 2), "finder at \(ox),\(oy): \(x),\(y)")
                }
            }
        }
        #expect(!code.isDark(x: -1, y: 0) && !code.isDark(x: code.size, y: 0))
    }

    @Test(arguments: urls) func terminalRenderingDecodesToTheURL(url: String) throws {
        let code = try QRCode(text: url)
        let text = code.terminalText(quietZone: 2)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == (code.size + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 4 })
        #expect(Set(text).isSubset(of: ["█", "▀", "▄", " ", "\n"]))

        // Back to modules: a cell is one module wide and two high; foreground = light.
        let image = TerminalImage(text: text)
        for y in 0..<code.size {
            for x in 0..<code.size {
                #expect(image.light(x: x + 2, y: y + 2) == !code.isDark(x: x, y: y))
            }
        }
        for i in 0..<(code.size + 4) {   // the quiet zone is light on all four sides
            #expect(image.light(x: i, y: 0) && image.light(x: i, y: 1))
            #expect(image.light(x: 0, y: i) && image.light(x: code.size + 3, y: i))
            #expect(image.light(x: i, y: code.size + 2) && image.light(x: i, y: code.size + 3))
        }

        // As a phone sees it on a dark-background terminal: foreground white, background black,
        // with more dark terminal around it, 6 px a module.
        let png = try PNGEncoder.encode(try image.screenshot(margin: 6, scale: 6), mode: .grayscale)
        let decoded = try zbar(png)
        #expect(decoded.status == 0, "\(decoded.stderr)")
        #expect(decoded.stdout == url + "\n")
    }

    @Test func ansiStyleIsThePlainTextInWhiteOnBlack() throws {
        let code = try QRCode(text: Self.urls[1])
        let plain = code.terminalText()
        let ansi = code.terminalText(style: .ansi)
        let lines = ansi.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("\u{1B}[97;40m") && $0.hasSuffix("\u{1B}[0m") })
        let stripped = ansi.replacingOccurrences(of: "\u{1B}[97;40m", with: "").replacingOccurrences(of: "\u{1B}[0m", with: "")
        #expect(stripped == plain)
    }

    @Test func levelsAndLimits() throws {
        let url = Self.urls[0]
        let low = try QRCode(text: url, level: .low)
        let high = try QRCode(text: url, level: .high)
        #expect(low.version < high.version)
        #expect(try zbar(high.png()).stdout == url + "\n")
        #expect(throws: QRCodeError.tooLong(bytes: 8_000)) { try QRCode(text: String(repeating: "a", count: 8_000)) }
    }
}

/// A terminal screen read back as pixels: each character cell is 1×2 (top, bottom) pixels,
/// lit where the cell shows foreground.
struct TerminalImage {
    var width = 0
    var rows: [[Bool]] = []   // true = foreground (light)

    init(text: String) {
        for line in text.split(separator: "\n") {
            var top: [Bool] = [], bottom: [Bool] = []
            for ch in line {
                top.append(ch == "█" || ch == "▀")
                bottom.append(ch == "█" || ch == "▄")
            }
            rows.append(top)
            rows.append(bottom)
            width = max(width, top.count)
        }
    }

    func light(x: Int, y: Int) -> Bool {
        guard y >= 0, y < rows.count, x >= 0, x < rows[y].count else { return false }
        return rows[y][x]
    }

    /// Foreground white, terminal background black, `margin` more background cells around.
    func screenshot(margin: Int, scale: Int) throws -> Bitmap {
        let w = (width + 2 * margin) * scale, h = (rows.count + 2 * margin) * scale
        var image = try Bitmap(width: w, height: h, format: .oneBit, background: .clear)
        for y in 0..<rows.count {
            for x in 0..<rows[y].count where rows[y][x] {
                image.fill(PixelRect(x: (x + margin) * scale, y: (y + margin) * scale, width: scale, height: scale), color: .white)
            }
        }
        return image
    }
}
