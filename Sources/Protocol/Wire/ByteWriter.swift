/// Appends little-endian fields to a byte array.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 64) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public mutating func u8(_ v: UInt8) { bytes.append(v) }
    public mutating func u16(_ v: UInt16) { appendLE(v) }
    public mutating func u32(_ v: UInt32) { appendLE(v) }
    public mutating func u64(_ v: UInt64) { appendLE(v) }
    public mutating func i64(_ v: Int64) { appendLE(UInt64(bitPattern: v)) }
    public mutating func f32(_ v: Float) { appendLE(v.bitPattern) }
    public mutating func f64(_ v: Double) { appendLE(v.bitPattern) }
    public mutating func raw(_ v: some Sequence<UInt8>) { bytes.append(contentsOf: v) }

    @inline(__always)
    private mutating func appendLE<T: FixedWidthInteger>(_ v: T) {
        var le = v.littleEndian
        withUnsafeBytes(of: &le) { bytes.append(contentsOf: $0) }
    }
}

/// Reads little-endian fields from a byte buffer, failing with `WireError.truncated`
/// instead of trapping when the buffer ends early.
public struct ByteReader {
    public let buffer: UnsafeRawBufferPointer
    public private(set) var offset: Int = 0

    public init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    public var remaining: Int { buffer.count - offset }

    public mutating func u8() throws(WireError) -> UInt8 { try read(UInt8.self) }
    public mutating func u16() throws(WireError) -> UInt16 { try read(UInt16.self) }
    public mutating func u32() throws(WireError) -> UInt32 { try read(UInt32.self) }
    public mutating func u64() throws(WireError) -> UInt64 { try read(UInt64.self) }
    public mutating func i64() throws(WireError) -> Int64 { Int64(bitPattern: try read(UInt64.self)) }
    public mutating func f32() throws(WireError) -> Float { Float(bitPattern: try read(UInt32.self)) }
    public mutating func f64() throws(WireError) -> Double { Double(bitPattern: try read(UInt64.self)) }

    public mutating func bytes(_ count: Int) throws(WireError) -> UnsafeRawBufferPointer {
        guard count >= 0, remaining >= count else { throw .truncated }
        defer { offset += count }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + count])
    }

    @inline(__always)
    private mutating func read<T: FixedWidthInteger>(_: T.Type) throws(WireError) -> T {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { throw .truncated }
        let v = buffer.loadUnaligned(fromByteOffset: offset, as: T.self)
        offset += size
        return T(littleEndian: v)
    }
}
