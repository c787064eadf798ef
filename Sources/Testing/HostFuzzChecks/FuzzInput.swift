import RemotionProtocol

/// Bytes read as a script: each read takes what it needs and reads zeros past the end, so
/// every input is a whole script and a longer one only adds steps.
struct FuzzInput {
    private let bytes: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { at >= bytes.count }

    mutating func u8() -> UInt8 {
        defer { at += 1 }
        return at < bytes.count ? bytes[at] : 0
    }

    mutating func u16() -> UInt16 { UInt16(u8()) | UInt16(u8()) << 8 }
    mutating func u32() -> UInt32 { UInt32(u16()) | UInt32(u16()) << 16 }
    mutating func u64() -> UInt64 { UInt64(u32()) | UInt64(u32()) << 32 }
    mutating func bool() -> Bool { u8() & 1 == 1 }

    /// A float: usually an ordinary value of the size controllers send, sometimes one of the
    /// values codecs admit at their limits (the largest finite, the smallest, ±0), sometimes
    /// any bit pattern (NaN and infinities included, for the paths that do not refuse them).
    mutating func float() -> Float {
        switch u8() % 8 {
        case 0: return Float.greatestFiniteMagnitude
        case 1: return -Float.greatestFiniteMagnitude
        case 2: return Float(bitPattern: u32())
        case 3: return .leastNonzeroMagnitude
        default: return Float(Int16(bitPattern: u16())) / 1024
        }
    }

    mutating func vector() -> Vector3 { Vector3(x: float(), y: float(), z: float()) }

    /// A finite float (the codecs that refuse NaN and infinities).
    mutating func finiteFloat() -> Float {
        let f = float()
        return f.isFinite ? f : 0
    }

    mutating func finiteVector() -> Vector3 { Vector3(x: finiteFloat(), y: finiteFloat(), z: finiteFloat()) }

    /// A sample time relative to the previous one of the same controller: the next plausible
    /// step, a repeat, a step back, a jump of about 4e15 µs (the one that trapped a host with
    /// a pad), u64's extremes, or any value.
    mutating func timestamp(after previous: UInt64) -> UInt64 {
        switch u8() % 10 {
        case 0: return previous
        case 1: return previous &- UInt64(u16())
        case 2: return previous &+ 4_000_000_000_000_000
        case 3: return .max
        case 4: return 0
        case 5: return u64()
        case 6: return previous &+ 1_000_001
        default: return previous &+ UInt64(u8()) &* 100 &+ 1
        }
    }
}
