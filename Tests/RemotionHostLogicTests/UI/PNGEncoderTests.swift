import CZlib
import Foundation
import RemotionHostLogic
import Testing

/// A decoded PNG, read back independently of the encoder: chunks split by length,
/// CRCs checked with a bitwise CRC-32 written here, IDAT re-inflated with zlib's uncompress.
struct DecodedPNG {
    var width = 0, height = 0, bitDepth = 0, colorType = 0
    var chunkTypes: [String] = []
    var raw: [UInt8] = []

    static func bitwiseCRC32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ b: [UInt8], _ i: Int) -> Int {
        Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3])
    }

    init(_ png: [UInt8]) throws {
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var i = 8
        var idat: [UInt8] = []
        while i + 12 <= png.count {
            let length = Self.be32(png, i)
            let typeAndData = Array(png[(i + 4)..<(i + 8 + length)])
            let type = String(decoding: typeAndData.prefix(4), as: UTF8.self)
            let data = Array(typeAndData.dropFirst(4))
            #expect(UInt32(Self.be32(png, i + 8 + length)) == Self.bitwiseCRC32(typeAndData), "CRC of \(type)")
            chunkTypes.append(type)
            if type == "IHDR" {
                width = Self.be32(data, 0); height = Self.be32(data, 4)
                bitDepth = Int(data[8]); colorType = Int(data[9])
            }
            if type == "IDAT" { idat += data }
            i += 12 + length
        }
        #expect(i == png.count)
        let bitsPerPixel = bitDepth * (colorType == 6 ? 4 : 1)
        var size = uLongf((width * bitsPerPixel + 7) / 8 * height + height)
        raw = [UInt8](repeating: 0, count: Int(size))
        let status = raw.withUnsafeMutableBufferPointer { out in
            idat.withUnsafeBufferPointer { uncompress(out.baseAddress, &size, $0.baseAddress, uLong($0.count)) }
        }
        #expect(status == Z_OK)
        #expect(Int(size) == raw.count)
    }
}

@Suite struct PNGEncoderTests {
    @Test func rgbaRoundTripsThroughZlib() throws {
        var bitmap = try Bitmap(width: 5, height: 3, format: .rgba, background: .black)
        bitmap.set(x: 0, y: 0, color: RGBA(r: 255, g: 0, b: 0))
        bitmap.set(x: 4, y: 2, color: RGBA(r: 1, g: 2, b: 3, a: 4))
        let png = try DecodedPNG(PNGEncoder.encode(bitmap))
        #expect(png.chunkTypes == ["IHDR", "IDAT", "IEND"])
        #expect(png.width == 5 && png.height == 3 && png.bitDepth == 8 && png.colorType == 6)
        for y in 0..<3 {
            let row = y * (5 * 4 + 1)
            #expect(png.raw[row] == 0, "filter type")
            for x in 0..<5 {
                let c = bitmap.color(x: x, y: y)
                #expect(Array(png.raw[(row + 1 + x * 4)..<(row + 5 + x * 4)]) == [c.r, c.g, c.b, c.a])
            }
        }
    }

    @Test func oneBitBitmapIsOneBitGrayscale() throws {
        var bitmap = try Bitmap(width: 10, height: 2, format: .oneBit)
        bitmap.set(x: 0, y: 0, color: .white)
        bitmap.set(x: 9, y: 1, color: .white)
        let png = try DecodedPNG(PNGEncoder.encode(bitmap, mode: .grayscale))
        #expect(png.bitDepth == 1 && png.colorType == 0)
        #expect(png.raw == [0, 0x80, 0x00, 0, 0x00, 0x40])
    }

    @Test func rgbaAsGrayscaleUsesLuma() throws {
        var bitmap = try Bitmap(width: 2, height: 1, format: .rgba, background: .white)
        bitmap.set(x: 1, y: 0, color: RGBA(r: 0, g: 255, b: 0))
        let png = try DecodedPNG(PNGEncoder.encode(bitmap, mode: .grayscale))
        #expect(png.bitDepth == 8 && png.colorType == 0)
        #expect(png.raw == [0, 255, 150])
    }

    @Test func zlibCRCMatchesBitwiseCRC() {
        let bytes = Array("IEND".utf8)
        #expect(PNGEncoder.crc(bytes) == 0xAE42_6082)
        #expect(PNGEncoder.crc(bytes) == DecodedPNG.bitwiseCRC32(bytes))
    }

    @Test func invalidBitmapSizesAreTypedErrors() {
        #expect(throws: BitmapError.invalidSize(width: 0, height: 3)) {
            try Bitmap(width: 0, height: 3, format: .rgba)
        }
    }

    /// Renders the welcome banner to a PNG (written to $TMPDIR/remotion-banner.png to look at)
    /// and checks the decoded pixels equal the bitmap's.
    @Test func welcomeBannerPNG() throws {
        var font = try PixelFont.standard()
        let text = font.layout("REMOTION\nHOST 1.2", style: TextStyle(gridSize: 6, pixelSize: 5))
        let margin = 12
        var bitmap = try Bitmap(width: text.width + 2 * margin, height: text.height + 2 * margin,
                                format: .rgba, background: RGBA(r: 16, g: 20, b: 28))
        bitmap.draw(text, x: margin, y: margin, color: RGBA(r: 120, g: 230, b: 160))
        let bytes = try PNGEncoder.encode(bitmap)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("remotion-banner.png")
        try Data(bytes).write(to: url)
        let png = try DecodedPNG(bytes)
        #expect(png.width == bitmap.width && png.height == bitmap.height)
        var pixels: [UInt8] = []
        for y in 0..<png.height {
            let start = y * (png.width * 4 + 1)
            #expect(png.raw[start] == 0)
            pixels += png.raw[(start + 1)...(start + png.width * 4)]
        }
        #expect(pixels == bitmap.bytes)
    }

    /// The whole character set as a one-bit grayscale PNG ($TMPDIR/remotion-charset.png).
    @Test func charsetPNG() throws {
        var font = try PixelFont.standard()
        let text = font.layout("ABCDEFGHIJKLM\nNOPQRSTUVWXYZ\n0123456789\n.,:;-+_/\\()[]%\n!?'\"#=<>*@&°",
                               style: TextStyle(gridSize: 5, pixelSize: 4))
        var bitmap = try Bitmap(width: text.width + 20, height: text.height + 20, format: .oneBit)
        bitmap.draw(text, x: 10, y: 10)
        let bytes = try PNGEncoder.encode(bitmap, mode: .grayscale)
        try Data(bytes).write(to: FileManager.default.temporaryDirectory.appendingPathComponent("remotion-charset.png"))
        let png = try DecodedPNG(bytes)
        #expect(png.bitDepth == 1 && png.width == bitmap.width)
        let stride = bitmap.bytesPerRow
        for y in 0..<png.height {
            #expect(Array(png.raw[(y * (stride + 1) + 1)...(y * (stride + 1) + stride)])
                    == Array(bitmap.bytes[(y * stride)..<((y + 1) * stride)]))
        }
    }
}
