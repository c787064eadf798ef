/// Why a pixel font descriptor was rejected.
package enum PixelFontError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The descriptor does not have exactly six space-separated rows.
    case wrongRowCount(letter: Character, rows: Int)
    /// Not every row has the same number of columns (or a row is empty).
    case unequalRowWidths(letter: Character)
    /// A row contains something other than "0" and "1".
    case invalidPixel(letter: Character, found: Character)
    /// The font has no "?" glyph to draw unknown characters with.
    case missingFallbackGlyph

    package var description: String {
        switch self {
        case let .wrongRowCount(l, n): "pixel font glyph \"\(l)\": expected \(PixelGlyph.rowCount) rows, found \(n)"
        case let .unequalRowWidths(l): "pixel font glyph \"\(l)\": rows must be non-empty and of equal width"
        case let .invalidPixel(l, c): "pixel font glyph \"\(l)\": rows may contain only 0 and 1, found \"\(c)\""
        case .missingFallbackGlyph: "pixel font has no \"?\" glyph for unknown characters"
        }
    }
}

/// One character of a pixel font: `width` columns by six rows of lit/unlit pixels.
package struct PixelGlyph: Hashable, Sendable {
    package static let rowCount = 6
    package let width: Int
    /// Row-major, `rowCount × width` entries.
    package let pixels: [Bool]

    /// Parses the seed's descriptor format: "000 111 101 111 101 101".
    package init(letter: Character, descriptor: String) throws(PixelFontError) {
        let rows = descriptor.split(separator: " ", omittingEmptySubsequences: true)
        guard rows.count == Self.rowCount else { throw .wrongRowCount(letter: letter, rows: rows.count) }
        let width = rows[0].count
        guard width > 0, rows.allSatisfy({ $0.count == width }) else { throw .unequalRowWidths(letter: letter) }
        var pixels: [Bool] = []
        pixels.reserveCapacity(width * Self.rowCount)
        for row in rows {
            for c in row {
                switch c {
                case "0": pixels.append(false)
                case "1": pixels.append(true)
                default: throw .invalidPixel(letter: letter, found: c)
                }
            }
        }
        self.width = width
        self.pixels = pixels
    }

    package func isLit(column: Int, row: Int) -> Bool {
        guard column >= 0, column < width, row >= 0, row < Self.rowCount else { return false }
        return pixels[row * width + column]
    }
}

/// Per-font memo of generated glyph pixels and sizes (the seed's pixelCache and
/// sizeCache), keyed by letter and geometry. Letters repeat a lot in text.
package struct GlyphCache: Sendable {
    struct Key: Hashable, Sendable {
        var letter: Character
        var gridSize: Int
        var pixelSize: Int
    }
    var pixels: [Key: [PixelRect]] = [:]
    var sizes: [Key: PixelSize] = [:]
    package private(set) var hits = 0
    package private(set) var misses = 0

    package init() {}
    package var count: Int { pixels.count }

    mutating func recordHit() { hits += 1 }
    mutating func recordMiss() { misses += 1 }
}

/// A pixel font: validated glyphs plus its caches. A value type; each renderer owns its copy.
package struct PixelFont: Sendable {
    package let glyphs: [Character: PixelGlyph]
    package private(set) var cache = GlyphCache()

    /// Parses and validates every descriptor; the font must contain a "?" glyph.
    package init(descriptors: [Character: String]) throws(PixelFontError) {
        var glyphs: [Character: PixelGlyph] = [:]
        for (letter, descriptor) in descriptors {
            glyphs[letter] = try PixelGlyph(letter: letter, descriptor: descriptor)
        }
        guard glyphs["?"] != nil else { throw .missingFallbackGlyph }
        self.glyphs = glyphs
    }

    /// The built-in font (A–Z, 0–9, space, punctuation, °), validated on first use.
    /// `RemotionUITests` checks that every built-in descriptor parses.
    package static func standard() throws(PixelFontError) -> PixelFont {
        try PixelFont(descriptors: StandardGlyphs.descriptors)
    }

    /// The letter a character is drawn as: itself, its upper case, or "?".
    package func resolve(_ c: Character) -> Character {
        if glyphs[c] != nil { return c }
        let upper = Character(c.uppercased())
        if c.uppercased().count == 1, glyphs[upper] != nil { return upper }
        return "?"
    }

    package func glyph(for c: Character) -> PixelGlyph {
        // `init` guarantees the fallback glyph exists.
        glyphs[resolve(c)] ?? glyphs["?"]!
    }

    /// Rectangles of the lit pixels of `c`, relative to the glyph's top-left corner (cached).
    package mutating func pixels(for c: Character, style: TextStyle) -> [PixelRect] {
        let key = GlyphCache.Key(letter: resolve(c), gridSize: style.gridSize, pixelSize: style.pixelSize)
        if let hit = cache.pixels[key] {
            cache.recordHit()
            return hit
        }
        cache.recordMiss()
        generate(key)
        return cache.pixels[key] ?? []
    }

    /// The glyph's box in output pixels: width from its columns, height from six rows (cached).
    package mutating func size(for c: Character, style: TextStyle) -> PixelSize {
        let key = GlyphCache.Key(letter: resolve(c), gridSize: style.gridSize, pixelSize: style.pixelSize)
        if let hit = cache.sizes[key] { return hit }
        generate(key)
        return cache.sizes[key] ?? PixelSize(width: 0, height: 0)
    }

    private mutating func generate(_ key: GlyphCache.Key) {
        let glyph = glyph(for: key.letter)
        var rects: [PixelRect] = []
        for row in 0..<PixelGlyph.rowCount {
            for column in 0..<glyph.width where glyph.isLit(column: column, row: row) {
                rects.append(PixelRect(x: column * key.gridSize, y: row * key.gridSize,
                                       width: key.pixelSize, height: key.pixelSize))
            }
        }
        cache.pixels[key] = rects
        cache.sizes[key] = PixelSize(width: Self.extent(cells: glyph.width, key.gridSize, key.pixelSize),
                                     height: Self.extent(cells: PixelGlyph.rowCount, key.gridSize, key.pixelSize))
    }

    /// Output pixels spanned by `cells` font pixels: the last one is only `pixelSize` wide.
    static func extent(cells: Int, _ gridSize: Int, _ pixelSize: Int) -> Int {
        cells <= 0 ? 0 : (cells - 1) * gridSize + pixelSize
    }
}
