import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Exact byte layouts, written by hand from the protocol description (v1993/
/// cemuhook-protocol, absolute offsets in the pad data). The CRC bytes were computed
/// with Python's zlib.crc32 over the hand-written bytes, not with this encoder.
@Suite struct GoldenTests {
    struct Golden: Sendable, CustomTestStringConvertible {
        var name: String
        var packet: DSUPacket
        var bytes: String
        var testDescription: String { name }
    }

    static let padData: DSUPadData = {
        var p = DSUPadData(info: DSUSlotInfo(slot: 0, state: .connected, model: .fullGyro, connection: .bluetooth),
                           isConnected: true, packetCounter: 0x0102_0304,
                           buttons1: 0x81, buttons2: 0x41, home: 1, touchButton: 0,
                           leftStickX: 0x80, leftStickY: 0x7F, rightStickX: 0x80, rightStickY: 0xFF,
                           touch1: DSUTouch(isActive: true, id: 5, x: 0x0102, y: 0x0304),
                           motionTimestampMicros: 0x01_0203_0405,
                           accel: DSUAccel(x: 0.5, y: -1, z: 0.25),
                           gyro: DSUGyro(pitch: 90, yaw: -45, roll: 1.5))
        p.analog.dpadLeft = 255
        p.analog.cross = 255
        p.analog.l2 = 0x80
        return p
    }()

    static let goldens: [Golden] = [
        Golden(name: "version request", packet: DSUPacket(senderID: testClientID, message: .versionRequest),
               bytes: "44 53 55 43 e9 03 04 00 ef 02 b8 2e 44 33 22 11 00 00 10 00"),
        Golden(name: "version reply", packet: DSUPacket(senderID: testServerID, message: .versionReply(1001)),
               bytes: "44 53 55 53 e9 03 08 00 2a 7e f8 be dd cc bb aa 00 00 10 00 e9 03 00 00"),
        Golden(name: "port info request, 4 slots",
               packet: DSUPacket(senderID: testClientID, message: .portInfoRequest(slots: [0, 1, 2, 3])),
               bytes: "44 53 55 43 e9 03 0c 00 6a c4 74 2c 44 33 22 11 01 00 10 00 04 00 00 00 00 01 02 03"),
        Golden(name: "port info request, 2 slots",
               packet: DSUPacket(senderID: testClientID, message: .portInfoRequest(slots: [1, 3])),
               bytes: "44 53 55 43 e9 03 0a 00 a2 b7 e5 fd 44 33 22 11 01 00 10 00 02 00 00 00 01 03"),
        Golden(name: "port info reply",
               packet: DSUPacket(senderID: testServerID, message: .portInfo(DSUSlotInfo(
                   slot: 1, state: .connected, model: .fullGyro, connection: .bluetooth,
                   mac: DSUMAC(rawValue: 0x01_0203_0405_06), battery: .full))),
               bytes: "44 53 55 53 e9 03 10 00 a4 2f f7 75 dd cc bb aa 01 00 10 00 01 02 02 02 01 02 03 04 05 06 05 00"),
        Golden(name: "pad data request, all", packet: DSUPacket(senderID: testClientID, message: .padDataRequest(.allPads)),
               bytes: "44 53 55 43 e9 03 0c 00 6f 41 5d 75 44 33 22 11 02 00 10 00 00 00 00 00 00 00 00 00"),
        Golden(name: "pad data request, slot 2", packet: DSUPacket(senderID: testClientID, message: .padDataRequest(.slot(2))),
               bytes: "44 53 55 43 e9 03 0c 00 d8 50 68 2e 44 33 22 11 02 00 10 00 01 02 00 00 00 00 00 00"),
        Golden(name: "pad data request, MAC",
               packet: DSUPacket(senderID: testClientID, message: .padDataRequest(.mac(DSUMAC(rawValue: 0xAA_BBCC_DDEE_FF)))),
               bytes: "44 53 55 43 e9 03 0c 00 ad 8b dd bc 44 33 22 11 02 00 10 00 02 00 aa bb cc dd ee ff"),
        Golden(name: "pad data reply", packet: DSUPacket(senderID: testServerID, message: .padData(padData)),
               bytes: """
               44 53 55 53 e9 03 54 00 fb a7 bf 78 dd cc bb aa 02 00 10 00
               00 02 02 02 00 00 00 00 00 00 00
               01
               04 03 02 01
               81 41 01 00
               80 7f 80 ff
               ff 00 00 00 00 ff 00 00 00 00 00 80
               01 05 02 01 04 03 00 00 00 00 00 00
               05 04 03 02 01 00 00 00
               00 00 00 3f 00 00 80 bf 00 00 80 3e
               00 00 b4 42 00 00 34 c2 00 00 c0 3f
               """),
    ]

    @Test(arguments: goldens)
    func encodesToGolden(_ g: Golden) {
        #expect(hexString(DSUCodec.encode(g.packet)) == hexString(hex(g.bytes)))
    }

    @Test(arguments: goldens)
    func decodesGolden(_ g: Golden) throws {
        #expect(try DSUCodec.decode(hex(g.bytes)) == g.packet)
    }

    @Test func goldenSizes() {
        let sizes = Dictionary(uniqueKeysWithValues: Self.goldens.map { ($0.name, hex($0.bytes).count) })
        #expect(sizes["version request"] == DSU.versionRequestSize)
        #expect(sizes["version reply"] == DSU.versionReplySize)
        #expect(sizes["port info reply"] == DSU.portInfoReplySize)
        #expect(sizes["pad data request, all"] == DSU.padDataRequestSize)
        #expect(sizes["pad data reply"] == DSU.padDataReplySize)
    }

    @Test func padDataFieldsAtTheirOffsets() throws {
        let b = hex(Self.goldens.last!.bytes)
        let p = Self.padData
        #expect(b[31] == 1)
        #expect(b[36] == p.buttons1 && b[37] == p.buttons2 && b[38] == 1)
        // Byte 36 = 0x81: d-pad left (bit 7) and share (bit 0); byte 37 = 0x41: cross
        // (bit 6, Nintendo B) and L2 (bit 0).
        #expect(p.buttons == DSUButtons([.dpadLeft, .share, .cross, .l2, .home]))
        #expect(Array(b[76..<80]) == [0, 0, 0, 0x3F])   // 0.5 g
        #expect(Array(b[96..<100]) == [0, 0, 0xC0, 0x3F]) // roll 1.5 °/s
    }

    @Test func crcKnownAnswer() {
        #expect(DSUCodec.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(DSUCodec.crc32([UInt8]()) == 0)
    }

    /// A pad-data request (all pads) made by another implementation: found in a
    /// third-party CemuhookUDP C# test; its CRC also checks out with Python's zlib.
    @Test func decodesThirdPartyPacket() throws {
        let b = hex("44 53 55 43 E9 03 0C 00 9F 0A 18 86 75 D7 D7 A3 02 00 10 00 00 00 00 00 00 00 00 00")
        let p = try DSUCodec.decode(b)
        #expect(p == DSUPacket(senderID: 0xA3D7_D775, message: .padDataRequest(.allPads)))
        #expect(DSUCodec.encode(p) == b)
    }
}
