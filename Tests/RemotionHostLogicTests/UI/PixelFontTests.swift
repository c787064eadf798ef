import RemotionHostLogic
import Testing

@Suite struct PixelFontTests {
    @Test func standardFontCoversTheRequiredCharacters() throws {
        let font = try PixelFont.standard()
        let required = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;-+_/\\()[]%!?'\"#=<>*@&°")
        for c in required {
            #expect(font.glyphs[c] != nil, "missing glyph \(c)")
        }
        #expect(font.glyphs.count == required.count)
        // Every lit glyph but space has at least one pixel; no two glyphs look the same.
        var seen: [PixelGlyph: Character] = [:]
        for (c, g) in font.glyphs {
            if c != " " { #expect(g.pixels.contains(true), "glyph \(c) is blank") }
            #expect(seen[g] == nil, "\(c) looks like \(seen[g].map(String.init) ?? "")")
            seen[g] = c
        }
    }

    @Test func seedDescriptorsParse() throws {
        let a = try PixelGlyph(letter: "A", descriptor: "000 111 101 111 101 101")
        #expect(a.width == 3)
        #expect(a.isLit(column: 0, row: 1) && a.isLit(column: 2, row: 5) && !a.isLit(column: 1, row: 2))
        let m = try PixelGlyph(letter: "M", descriptor: "00000 11111 10101 10101 10101 10101")
        #expect(m.width == 5)
        #expect(m.pixels.filter { $0 }.count == 5 + 3 * 4)
    }

    @Test func badDescriptorsAreRejectedWithTypedErrors() {
        #expect(throws: PixelFontError.wrongRowCount(letter: "X", rows: 5)) {
            try PixelGlyph(letter: "X", descriptor: "1 1 1 1 1")
        }
        #expect(throws: PixelFontError.unequalRowWidths(letter: "X")) {
            try PixelGlyph(letter: "X", descriptor: "11 1 11 11 11 11")
        }
        #expect(throws: PixelFontError.invalidPixel(letter: "X", found: "2")) {
            try PixelGlyph(letter: "X", descriptor: "12 11 11 11 11 11")
        }
        #expect(throws: PixelFontError.missingFallbackGlyph) {
            try PixelFont(descriptors: ["A": "0 0 0 0 0 0"])
        }
    }

    @Test func lowerCaseDrawsAsUpperAndUnknownAsQuestionMark() throws {
        let font = try PixelFont.standard()
        #expect(font.resolve("q") == "Q")
        #expect(font.resolve("€") == "?")
        #expect(font.glyph(for: "m") == font.glyph(for: "M"))
    }

    @Test func pixelsAndSizesAreCachedPerLetter() throws {
        var font = try PixelFont.standard()
        let style = TextStyle(gridSize: 4, pixelSize: 3)
        let first = font.pixels(for: "A", style: style)
        #expect(first.count == 12)
        #expect(first.contains(PixelRect(x: 8, y: 20, width: 3, height: 3)))
        #expect(font.size(for: "A", style: style) == PixelSize(width: 11, height: 23))
        #expect(font.pixels(for: "a", style: style) == first)
        #expect(font.cache.misses == 1 && font.cache.hits == 1)
        _ = font.pixels(for: "A", style: TextStyle(gridSize: 2, pixelSize: 2))
        #expect(font.cache.misses == 2 && font.cache.count == 2)
    }

    @Test func layoutPlacesLettersWithOneColumnSpacing() throws {
        var font = try PixelFont.standard()
        let text = font.layout("AM", style: TextStyle(gridSize: 2, pixelSize: 1))
        #expect(text.columns == 3 + 1 + 5)
        #expect(text.width == 8 * 2 + 1)
        #expect(text.height == 5 * 2 + 1)
        // M starts at font column 4 → x = 8; its top-left pixel is at row 1.
        #expect(text.rects.contains(PixelRect(x: 8, y: 2, width: 1, height: 1)))
        let two = font.layout("A\nA", style: .terminal)
        #expect(two.lineCount == 2 && two.height == 12)
        #expect(two.rects.count == 24)
    }

    @Test func wrapBreaksAtSpacesThenInsideWords() throws {
        let font = try PixelFont.standard()
        #expect(font.wrap("AB CD", maxColumns: 7) == ["AB", "CD"])
        #expect(font.wrap("ABCD", maxColumns: 7) == ["AB", "CD"])
        #expect(font.wrap("AB CD", maxColumns: 100) == ["AB CD"])
    }

    @Test func terminalGoldens() throws {
        var font = try PixelFont.standard()
        GoldenFile.check("remotion.txt", font.terminalLines("REMOTION"))
        GoldenFile.check("a1colon.txt", font.terminalLines("A1:"))
        GoldenFile.check("charset.txt", font.terminalLines("ABCDEFGHIJKLM\nNOPQRSTUVWXYZ\n0123456789\n.,:;-+_/\\()[]%\n!?'\"#=<>*@&°"))
    }
}
