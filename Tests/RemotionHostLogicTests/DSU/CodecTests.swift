import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Round trips and every decode error, each reached on purpose.
@Suite struct CodecTests {
    static let versionRequest = hex("44 53 55 43 e9 03 04 00 ef 02 b8 2e 44 33 22 11 00 00 10 00")
    static let portInfoAll = hex("44 53 55 43 e9 03 0c 00 6a c4 74 2c 44 33 22 11 01 00 10 00 04 00 00 00 00 01 02 03")

    static func randomPadData(_ g: inout SplitMix64) -> DSUPadData {
        func f(_ g: inout SplitMix64) -> Float { Float.random(in: -2000...2000, using: &g) }
        var p = DSUPadData(info: DSUSlotInfo(slot: UInt8(g.next() % 4), state: DSUSlotState(rawValue: g.byte()),
                                             model: DSUDeviceModel(rawValue: g.byte()),
                                             connection: DSUConnectionType(rawValue: g.byte()),
                                             mac: DSUMAC(rawValue: g.next()), battery: DSUBattery(rawValue: g.byte())))
        p.isConnected = g.chance(0.5)
        p.packetCounter = UInt32(truncatingIfNeeded: g.next())
        p.buttons1 = g.byte(); p.buttons2 = g.byte(); p.home = g.byte(); p.touchButton = g.byte()
        p.leftStickX = g.byte(); p.leftStickY = g.byte(); p.rightStickX = g.byte(); p.rightStickY = g.byte()
        p.analog = DSUAnalogButtons(bytes: g.bytes(12))
        p.touch1 = DSUTouch(isActive: g.chance(0.5), id: g.byte(), x: UInt16(truncatingIfNeeded: g.next()), y: 7)
        p.touch2 = DSUTouch(isActive: g.chance(0.5), id: g.byte(), x: 9, y: UInt16(truncatingIfNeeded: g.next()))
        p.motionTimestampMicros = g.next()
        p.accel = DSUAccel(x: f(&g), y: f(&g), z: f(&g))
        p.gyro = DSUGyro(pitch: f(&g), yaw: f(&g), roll: f(&g))
        return p
    }

    static func randomPacket(_ g: inout SplitMix64) -> DSUPacket {
        let id = UInt32(truncatingIfNeeded: g.next())
        let slot = UInt8(g.next() % 4)
        switch g.next() % 6 {
        case 0: return DSUPacket(senderID: id, message: .versionRequest)
        case 1: return DSUPacket(senderID: id, message: .versionReply(UInt16(truncatingIfNeeded: g.next())))
        case 2: return DSUPacket(senderID: id, message: .portInfoRequest(slots: (0..<Int(g.next() % 5)).map { _ in UInt8(g.next() % 4) }))
        case 3: return DSUPacket(senderID: id, message: .portInfo(DSUSlotInfo(slot: slot, state: .connected, mac: DSUMAC(rawValue: g.next()))))
        case 4: return DSUPacket(senderID: id, message: .padDataRequest(DSUPadRequest(flags: UInt8(g.next() % 4), slot: slot, mac: DSUMAC(rawValue: g.next()))))
        default: return DSUPacket(senderID: id, message: .padData(randomPadData(&g)))
        }
    }

    @Test func roundTripsRandomPackets() throws {
        var g = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            let p = Self.randomPacket(&g)
            let bytes = DSUCodec.encode(p)
            #expect(try DSUCodec.decode(bytes) == p)
            #expect(Int(bytes[6]) | Int(bytes[7]) << 8 == bytes.count - 16)
        }
    }

    @Test func ignoresBytesPastTheLengthField() throws {
        let p = try DSUCodec.decode(Self.versionRequest + [0xDE, 0xAD])
        #expect(p.message == .versionRequest)
    }

    @Test func acceptsExtraPayloadWithinLength() throws {
        // Dolphin-style: count 2 but four slot bytes, length 12.
        var b = Self.portInfoAll
        b[20] = 2
        let p = try DSUCodec.decode(resealed(b))
        #expect(p.message == .portInfoRequest(slots: [0, 1]))
    }

    @Test func versionReplyWithoutPaddingDecodes() throws {
        var b = hex("44 53 55 53 e9 03 06 00 00 00 00 00 dd cc bb aa 00 00 10 00 e9 03")
        b = resealed(b)
        #expect(try DSUCodec.decode(b).message == .versionReply(1001))
    }

    @Test func eachErrorHasItsReason() {
        let v = Self.versionRequest
        func err(_ b: [UInt8]) -> DSUDecodeError? {
            if case .failure(let e) = decodeResult(b) { return e } else { return nil }
        }
        #expect(err([]) == .truncated)
        #expect(err(Array(v.prefix(19))) == .truncated)
        var m = v; m[3] = UInt8(ascii: "X")
        #expect(err(m) == .badMagic)
        m = v; m[4] = 0xEA
        #expect(err(resealed(m)) == .badVersion)
        m = v; m[6] = 0x05                   // claims 21 bytes, 20 arrived
        #expect(err(m) == .badLength)
        m = v; m[6] = 0x03                   // too short to hold the type
        #expect(err(m) == .badLength)
        m = v; m[13] ^= 1
        #expect(err(m) == .badCRC)
        m = v; m[18] = 0x11                  // type 0x110000
        #expect(err(resealed(m)) == .unknownType)
        m = v; m[16] = 0x03                  // type 0x100003 (unofficial motor info)
        #expect(err(resealed(m)) == .unknownType)
        m = Self.portInfoAll; m[20] = 5
        #expect(err(resealed(m)) == .countOutOfRange)
        m = Self.portInfoAll; m[20] = 0xFF; m[23] = 0xFF  // −1
        #expect(err(resealed(m)) == .countOutOfRange)
        m = Self.portInfoAll; m[25] = 4
        #expect(err(resealed(m)) == .slotOutOfRange)
        m = Array(Self.portInfoAll.prefix(26)); m[6] = 10   // count 4, two slot bytes
        #expect(err(resealed(m)) == .truncated)
        let pad = hex("44 53 55 43 e9 03 0c 00 00 00 00 00 44 33 22 11 02 00 10 00 04 00 00 00 00 00 00 00")
        #expect(err(resealed(pad)) == .badFlags)
        m = pad; m[20] = 1; m[21] = 4
        #expect(err(resealed(m)) == .slotOutOfRange)
        // A server pad-data packet cut to 60 bytes but sealed as such.
        var short = DSUCodec.encode(DSUPacket(senderID: 1, message: .padData(GoldenTests.padData)))
        short = Array(short.prefix(60)); short[6] = 44
        #expect(err(resealed(short)) == .truncated)
        var slot9 = DSUCodec.encode(DSUPacket(senderID: 1, message: .padData(GoldenTests.padData)))
        slot9[20] = 9
        #expect(err(resealed(slot9)) == .slotOutOfRange)
    }

    @Test func macBytesRoundTrip() {
        let mac = DSUMAC(bytes: [0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF])!
        #expect(mac.rawValue == 0xAABB_CCDD_EEFF)
        #expect(mac.bytes == [0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF])
        #expect(mac.description == "aa:bb:cc:dd:ee:ff")
        #expect(DSUMAC(bytes: [1, 2, 3]) == nil)
    }
}
