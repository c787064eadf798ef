import RemotionHostLogic
import CQREncode

package enum QRCodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text does not fit in a version-40 symbol at this error-correction level.
    case tooLong(bytes: Int)
    /// libqrencode failed for another reason (errno).
    case encodingFailed(errno: Int32)

    package var description: String {
        switch self {
        case let .tooLong(n): "QR code: \(n) bytes of text do not fit in one symbol"
        case let .encodingFailed(e): "QR code: libqrencode failed (errno \(e))"
        }
    }
}

/// A QR code symbol made by libqrencode: a square matrix of modules, `true` = dark.
package struct QRCode: Sendable, Hashable {
    package enum ErrorCorrection: Sendable, Hashable {
        /// About 7 %, 15 %, 25 %, 30 % of the codewords can be restored.
        case low, medium, quartile, high

        var qrLevel: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// Modules per side, without the quiet zone (21 for version 1, +4 a version).
    package let size: Int
    /// The symbol version, 1…40.
    package let version: Int
    /// `size` rows of `size` modules, top row first; `true` is a dark module.
    package let rows: [[Bool]]

    /// Encodes `text` (UTF-8, case-sensitive, smallest version that fits, modes chosen
    /// by libqrencode per segment: numeric, alphanumeric or 8-bit).
    package init(text: String, level: ErrorCorrection = .medium) throws(QRCodeError) {
        let count = text.utf8.count
        let encoded = text.withCString { QRcode_encodeString($0, 0, level.qrLevel, QR_MODE_8, 1) }
        guard let symbol = encoded else {
            let code = qrErrno()
            throw code == ERANGE ? .tooLong(bytes: count) : .encodingFailed(errno: code)
        }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        var rows: [[Bool]] = []
        rows.reserveCapacity(width)
        for y in 0..<width {
            // Bit 0 of each byte is the module colour (1 = dark); the other bits say
            // what the module is (finder, timing, data, …).
            rows.append((0..<width).map { x in symbol.pointee.data[y * width + x] & 1 == 1 })
        }
        self.size = width
        self.version = Int(symbol.pointee.version)
        self.rows = rows
    }

    /// Whether the module at (x, y) is dark; outside the symbol (the quiet zone) is light.
    package func isDark(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return rows[y][x]
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

private func qrErrno() -> Int32 { errno }
