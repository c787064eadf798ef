import RemotionProtocol
import CZlib

/// Encodes and decodes DSU packets. Pure: bytes in, bytes or a `DSUDecodeError` out;
/// decoding never traps, whatever the input.
///
/// Decoding rules (after the protocol description and DS4Windows):
/// - at least 20 bytes, magic `DSUS`/`DSUC`, version 1001;
/// - the length field L must be ≥ 4 (the type) and 16 + L ≤ datagram size; bytes past
///   16 + L are ignored ("truncate if it's too long");
/// - the CRC-32 covers bytes 0 ..< 16 + L with bytes 8 ..< 12 zeroed;
/// - the payload must hold the message's fixed fields; extra payload is ignored
///   (Dolphin's port-info request struct always carries four slot bytes).
package enum DSUCodec {
    /// CRC-32 as zlib computes it (IEEE 802.3, reflected, init and xor-out all ones).
    package static func crc32(_ bytes: some Collection<UInt8>) -> UInt32 {
        let array = Array(bytes)
        return array.withUnsafeBufferPointer { UInt32(truncatingIfNeeded: CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }

    // MARK: encoding

    package static func encode(_ packet: DSUPacket) -> [UInt8] {
        var w = ByteWriter(capacity: DSU.padDataReplySize)
        w.raw(packet.message.isFromServer ? DSU.serverMagic : DSU.clientMagic)
        w.u16(DSU.version)
        w.u16(0)           // length, patched below
        w.u32(0)           // CRC, patched below
        w.u32(packet.senderID)
        w.u32(packet.message.type.rawValue)
        switch packet.message {
        case .versionRequest:
            break
        case .versionReply(let v):
            w.u16(v)
            w.u16(0)
        case .portInfoRequest(let slots):
            let s = Array(slots.prefix(DSU.slotCount))
            w.u32(UInt32(s.count))
            w.raw(s)
        case .portInfo(let info):
            writeSlotInfo(info, to: &w)
            w.u8(0)
        case .padDataRequest(let r):
            w.u8(r.flags)
            w.u8(r.slot)
            w.raw(r.mac.bytes)
        case .padData(let p):
            writePadData(p, to: &w)
        }
        var bytes = w.bytes
        let length = UInt16(truncatingIfNeeded: bytes.count - DSU.headerSize)
        bytes[6] = UInt8(truncatingIfNeeded: length)
        bytes[7] = UInt8(truncatingIfNeeded: length >> 8)
        let crc = crc32(bytes)
        for i in 0..<4 { bytes[8 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        return bytes
    }

    private static func writeSlotInfo(_ info: DSUSlotInfo, to w: inout ByteWriter) {
        w.u8(info.slot)
        w.u8(info.state.rawValue)
        w.u8(info.model.rawValue)
        w.u8(info.connection.rawValue)
        w.raw(info.mac.bytes)
        w.u8(info.battery.rawValue)
    }

    private static func writePadData(_ p: DSUPadData, to w: inout ByteWriter) {
        writeSlotInfo(p.info, to: &w)
        w.u8(p.isConnected ? 1 : 0)
        w.u32(p.packetCounter)
        w.u8(p.buttons1)
        w.u8(p.buttons2)
        w.u8(p.home)
        w.u8(p.touchButton)
        w.u8(p.leftStickX); w.u8(p.leftStickY); w.u8(p.rightStickX); w.u8(p.rightStickY)
        w.raw(p.analog.bytes)
        for t in [p.touch1, p.touch2] {
            w.u8(t.isActive ? 1 : 0); w.u8(t.id); w.u16(t.x); w.u16(t.y)
        }
        w.u64(p.motionTimestampMicros)
        w.f32(p.accel.x); w.f32(p.accel.y); w.f32(p.accel.z)
        w.f32(p.gyro.pitch); w.f32(p.gyro.yaw); w.f32(p.gyro.roll)
    }

    // MARK: decoding

    package static func decode(_ datagram: some Collection<UInt8>) throws(DSUDecodeError) -> DSUPacket {
        var bytes = Array(datagram)
        guard bytes.count >= DSU.minimumPacketSize else { throw .truncated }
        let magic = Array(bytes[0..<4])
        let fromServer: Bool
        if magic == DSU.serverMagic { fromServer = true }
        else if magic == DSU.clientMagic { fromServer = false }
        else { throw .badMagic }
        var r = DSUByteReader(bytes, from: 4)
        guard try r.u16() == DSU.version else { throw .badVersion }
        let length = Int(try r.u16())
        guard length >= 4, DSU.headerSize + length <= bytes.count else { throw .badLength }
        bytes.removeSubrange((DSU.headerSize + length)...)
        let crc = try r.u32()
        for i in 8..<12 { bytes[i] = 0 }
        guard crc32(bytes) == crc else { throw .badCRC }
        r = DSUByteReader(bytes, from: 12)
        let sender = try r.u32()
        let rawType = try r.u32()
        guard let type = DSUMessageType(rawValue: rawType) else { throw .unknownType }
        let message: DSUMessage
        switch (type, fromServer) {
        case (.version, false):
            message = .versionRequest
        case (.version, true):
            message = .versionReply(try r.u16())
        case (.portInfo, false):
            let count = Int32(bitPattern: try r.u32())
            guard count >= 0, count <= Int32(DSU.slotCount) else { throw .countOutOfRange }
            let slots = try r.bytes(Int(count))
            guard slots.allSatisfy({ Int($0) < DSU.slotCount }) else { throw .slotOutOfRange }
            message = .portInfoRequest(slots: slots)
        case (.portInfo, true):
            let info = try readSlotInfo(&r)
            _ = try r.u8()
            message = .portInfo(info)
        case (.padData, false):
            let flags = try r.u8(), slot = try r.u8()
            let mac = DSUMAC(bytes: try r.bytes(6)) ?? .zero
            guard flags & ~3 == 0 else { throw .badFlags }
            if flags & 1 != 0, Int(slot) >= DSU.slotCount { throw .slotOutOfRange }
            message = .padDataRequest(DSUPadRequest(flags: flags, slot: slot, mac: mac))
        case (.padData, true):
            message = .padData(try readPadData(&r))
        }
        return DSUPacket(senderID: sender, message: message)
    }

    private static func readSlotInfo(_ r: inout DSUByteReader) throws(DSUDecodeError) -> DSUSlotInfo {
        let slot = try r.u8()
        let state = try r.u8(), model = try r.u8(), connection = try r.u8()
        let mac = DSUMAC(bytes: try r.bytes(6)) ?? .zero
        let battery = try r.u8()
        guard Int(slot) < DSU.slotCount else { throw .slotOutOfRange }
        return DSUSlotInfo(slot: slot, state: DSUSlotState(rawValue: state), model: DSUDeviceModel(rawValue: model),
                           connection: DSUConnectionType(rawValue: connection), mac: mac,
                           battery: DSUBattery(rawValue: battery))
    }

    private static func readPadData(_ r: inout DSUByteReader) throws(DSUDecodeError) -> DSUPadData {
        // Check the whole fixed payload first so a short packet is `truncated`
        // rather than a misleading field error.
        guard r.remaining >= DSU.padDataReplySize - DSU.minimumPacketSize else { throw .truncated }
        var p = DSUPadData(info: try readSlotInfo(&r))
        p.isConnected = try r.u8() != 0
        p.packetCounter = try r.u32()
        p.buttons1 = try r.u8(); p.buttons2 = try r.u8()
        p.home = try r.u8(); p.touchButton = try r.u8()
        p.leftStickX = try r.u8(); p.leftStickY = try r.u8()
        p.rightStickX = try r.u8(); p.rightStickY = try r.u8()
        p.analog = DSUAnalogButtons(bytes: try r.bytes(12))
        p.touch1 = try readTouch(&r)
        p.touch2 = try readTouch(&r)
        p.motionTimestampMicros = try r.u64()
        p.accel = DSUAccel(x: try r.f32(), y: try r.f32(), z: try r.f32())
        p.gyro = DSUGyro(pitch: try r.f32(), yaw: try r.f32(), roll: try r.f32())
        return p
    }

    private static func readTouch(_ r: inout DSUByteReader) throws(DSUDecodeError) -> DSUTouch {
        DSUTouch(isActive: try r.u8() != 0, id: try r.u8(), x: try r.u16(), y: try r.u16())
    }
}

/// Little-endian reads from a byte array that fail with `.truncated` instead of trapping.
struct DSUByteReader {
    let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], from offset: Int = 0) { self.bytes = bytes; self.offset = offset }

    var remaining: Int { Swift.max(0, bytes.count - offset) }

    mutating func u8() throws(DSUDecodeError) -> UInt8 { UInt8(try le(1)) }
    mutating func u16() throws(DSUDecodeError) -> UInt16 { UInt16(try le(2)) }
    mutating func u32() throws(DSUDecodeError) -> UInt32 { UInt32(try le(4)) }
    mutating func u64() throws(DSUDecodeError) -> UInt64 { try le(8) }
    mutating func f32() throws(DSUDecodeError) -> Float { Float(bitPattern: try u32()) }

    mutating func bytes(_ n: Int) throws(DSUDecodeError) -> [UInt8] {
        guard n >= 0, remaining >= n else { throw .truncated }
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }

    private mutating func le(_ n: Int) throws(DSUDecodeError) -> UInt64 {
        guard remaining >= n else { throw .truncated }
        var v: UInt64 = 0
        for i in 0..<n { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        offset += n
        return v
    }
}
