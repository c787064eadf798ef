import RemotionProtocol
@testable import RemotionHostLogic

/// "44 53 55 43" → bytes. Hand-written expectations only; traps on a typo so a broken
/// golden cannot pass silently.
func hex(_ s: String) -> [UInt8] {
    s.split(whereSeparator: { $0 == " " || $0 == "\n" }).map { UInt8($0, radix: 16)! }
}

func hexString(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
}

/// Decodes or records the error, for `#expect` on either.
func decodeResult(_ bytes: [UInt8]) -> Result<DSUPacket, DSUDecodeError> {
    do { return .success(try DSUCodec.decode(bytes)) } catch { return .failure(error) }
}

/// Re-seals a hand-edited packet: fixes the CRC (zlib through the codec's helper) so a
/// test can reach the check after the CRC.
func resealed(_ bytes: [UInt8]) -> [UInt8] {
    var b = bytes
    for i in 8..<12 { b[i] = 0 }
    let crc = DSUCodec.crc32(b)
    for i in 0..<4 { b[8 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    return b
}

let testClientID: UInt32 = 0x1122_3344
let testServerID: UInt32 = 0xAABB_CCDD
