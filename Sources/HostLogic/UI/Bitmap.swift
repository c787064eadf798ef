/// A colour with straight (not premultiplied) alpha.
package struct RGBA: Hashable, Sendable {
    package var r: UInt8
    package var g: UInt8
    package var b: UInt8
    package var a: UInt8
    package init(r: UInt8, g: UInt8, b: UInt8, a: UInt8 = 255) { self.r = r; self.g = g; self.b = b; self.a = a }

    package static let clear = RGBA(r: 0, g: 0, b: 0, a: 0)
    package static let black = RGBA(r: 0, g: 0, b: 0)
    package static let white = RGBA(r: 255, g: 255, b: 255)

    /// Rec. 601 luma, 0…255.
    package var luma: UInt8 {
        let red: Int = 299 * Int(r)
        let green: Int = 587 * Int(g)
        let blue: Int = 114 * Int(b)
        return UInt8((red + green + blue + 500) / 1000)
    }
    /// A pixel counts as lit (for one-bit output and terminal blocks) when at least half opaque.
    package var isLit: Bool { a >= 128 }
}

package enum BitmapError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidSize(width: Int, height: Int)
    package var description: String {
        switch self {
        case let .invalidSize(w, h): "bitmap size \(w)×\(h) is outside 1…\(Bitmap.maxSide) on each side"
        }
    }
}

/// A raster to draw pixel text into: one bit per pixel or 8-bit RGBA.
package struct Bitmap: Hashable, Sendable {
    package enum Format: Hashable, Sendable {
        /// Rows packed most significant bit first, `(width + 7) / 8` bytes a row (as in PNG).
        case oneBit
        /// Four bytes a pixel, r g b a.
        case rgba
    }

    package static let maxSide = 16_384

    package let width: Int
    package let height: Int
    package let format: Format
    /// The raw rows, laid out as `format` says.
    package private(set) var bytes: [UInt8]

    package init(width: Int, height: Int, format: Format, background: RGBA = .clear) throws(BitmapError) {
        guard width > 0, height > 0, width <= Self.maxSide, height <= Self.maxSide else {
            throw .invalidSize(width: width, height: height)
        }
        self.width = width
        self.height = height
        self.format = format
        switch format {
        case .oneBit:
            bytes = [UInt8](repeating: background.isLit ? 0xff : 0, count: ((width + 7) / 8) * height)
        case .rgba:
            bytes = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buf, n in
                for i in 0..<(width * height) {
                    buf[4 * i] = background.r; buf[4 * i + 1] = background.g
                    buf[4 * i + 2] = background.b; buf[4 * i + 3] = background.a
                }
                n = width * height * 4
            }
        }
    }

    package var bytesPerRow: Int { format == .oneBit ? (width + 7) / 8 : width * 4 }

    /// The colour at (x, y); one-bit pixels read as white (lit) or clear. Outside: clear.
    package func color(x: Int, y: Int) -> RGBA {
        guard x >= 0, y >= 0, x < width, y < height else { return .clear }
        switch format {
        case .oneBit:
            return bytes[y * bytesPerRow + x / 8] & (0x80 >> UInt8(x % 8)) != 0 ? .white : .clear
        case .rgba:
            let i = (y * width + x) * 4
            return RGBA(r: bytes[i], g: bytes[i + 1], b: bytes[i + 2], a: bytes[i + 3])
        }
    }

    package func isLit(x: Int, y: Int) -> Bool { color(x: x, y: y).isLit }

    /// Sets one pixel; one-bit pixels are set when `color.isLit`. Outside: ignored.
    package mutating func set(x: Int, y: Int, color: RGBA) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        switch format {
        case .oneBit:
            let i = y * bytesPerRow + x / 8
            let mask: UInt8 = 0x80 >> UInt8(x % 8)
            if color.isLit { bytes[i] |= mask } else { bytes[i] &= ~mask }
        case .rgba:
            let i = (y * width + x) * 4
            bytes[i] = color.r; bytes[i + 1] = color.g; bytes[i + 2] = color.b; bytes[i + 3] = color.a
        }
    }

    /// Fills `rect`, clipped to the bitmap.
    package mutating func fill(_ rect: PixelRect, color: RGBA) {
        let x0 = max(0, rect.x), y0 = max(0, rect.y)
        let x1 = min(width, rect.x + rect.width), y1 = min(height, rect.y + rect.height)
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            for x in x0..<x1 { set(x: x, y: y, color: color) }
        }
    }

    /// Draws laid-out text with its top-left corner at (x, y).
    package mutating func draw(_ text: TextLayout, x: Int = 0, y: Int = 0, color: RGBA = .white) {
        for r in text.rects { fill(r.offsetBy(dx: x, dy: y), color: color) }
    }
}
