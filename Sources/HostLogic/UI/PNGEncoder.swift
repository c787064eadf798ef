import CZlib

package enum PNGError: Error, Hashable, Sendable, CustomStringConvertible {
    /// zlib's compress2 returned this status (Z_MEM_ERROR, Z_BUF_ERROR, …).
    case compressionFailed(status: Int32)
    package var description: String {
        switch self {
        case let .compressionFailed(s): "PNG: zlib compress2 failed with status \(s)"
        }
    }
}

/// Writes bitmaps as PNG files (RFC 2083): signature, IHDR, one IDAT with the
/// zlib-compressed scanlines (filter type 0 on every row), IEND. Chunk CRCs and
/// compression come from the system zlib.
package enum PNGEncoder {
    package enum ColorMode: Hashable, Sendable {
        /// Colour type 6, 8 bits a channel (one-bit bitmaps expand to white/clear).
        case rgba
        /// Colour type 0: 1 bit a pixel for one-bit bitmaps (lit = white),
        /// 8 bits of luma for RGBA bitmaps (alpha is dropped).
        case grayscale
    }

    package static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    package static func encode(_ bitmap: Bitmap, mode: ColorMode = .rgba) throws(PNGError) -> [UInt8] {
        let (bitDepth, colorType, rows) = scanlines(bitmap, mode: mode)
        var ihdr: [UInt8] = []
        appendBigEndian(UInt32(bitmap.width), to: &ihdr)
        appendBigEndian(UInt32(bitmap.height), to: &ihdr)
        ihdr += [bitDepth, colorType, 0, 0, 0]  // compression 0, filter 0, no interlace
        var png = signature
        appendChunk("IHDR", ihdr, to: &png)
        appendChunk("IDAT", try compress(rows), to: &png)
        appendChunk("IEND", [], to: &png)
        return png
    }

    /// The raw image data: each row is a filter-type byte (0) and the row's samples.
    static func scanlines(_ bitmap: Bitmap, mode: ColorMode) -> (bitDepth: UInt8, colorType: UInt8, data: [UInt8]) {
        var data: [UInt8] = []
        switch (bitmap.format, mode) {
        case (.oneBit, .grayscale):
            let stride = bitmap.bytesPerRow
            data.reserveCapacity((stride + 1) * bitmap.height)
            for y in 0..<bitmap.height {
                data.append(0)
                data += bitmap.bytes[(y * stride)..<((y + 1) * stride)]
            }
            return (1, 0, data)
        case (.rgba, .rgba):
            let stride = bitmap.bytesPerRow
            data.reserveCapacity((stride + 1) * bitmap.height)
            for y in 0..<bitmap.height {
                data.append(0)
                data += bitmap.bytes[(y * stride)..<((y + 1) * stride)]
            }
            return (8, 6, data)
        case (_, .rgba):
            data.reserveCapacity((bitmap.width * 4 + 1) * bitmap.height)
            for y in 0..<bitmap.height {
                data.append(0)
                for x in 0..<bitmap.width {
                    let c = bitmap.color(x: x, y: y)
                    data += [c.r, c.g, c.b, c.a]
                }
            }
            return (8, 6, data)
        case (_, .grayscale):
            data.reserveCapacity((bitmap.width + 1) * bitmap.height)
            for y in 0..<bitmap.height {
                data.append(0)
                for x in 0..<bitmap.width { data.append(bitmap.color(x: x, y: y).luma) }
            }
            return (8, 0, data)
        }
    }

    static func compress(_ input: [UInt8]) throws(PNGError) -> [UInt8] {
        var capacity = compressBound(uLong(input.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = output.withUnsafeMutableBufferPointer { out in
            input.withUnsafeBufferPointer { inp in
                compress2(out.baseAddress, &capacity, inp.baseAddress, uLong(inp.count), Z_BEST_COMPRESSION)
            }
        }
        guard status == Z_OK else { throw .compressionFailed(status: status) }
        output.removeSubrange(Int(capacity)...)
        return output
    }

    /// zlib's CRC-32 over `bytes` (the PNG chunk CRC covers type and data).
    package static func crc(_ bytes: [UInt8]) -> UInt32 {
        let value = bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        return UInt32(truncatingIfNeeded: value)
    }

    static func appendChunk(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        appendBigEndian(UInt32(data.count), to: &png)
        png += typeBytes
        png += data
        appendBigEndian(crc(typeBytes + data), to: &png)
    }

    static func appendBigEndian(_ v: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(v >> 24), UInt8((v >> 16) & 0xff), UInt8((v >> 8) & 0xff), UInt8(v & 0xff)]
    }
}
