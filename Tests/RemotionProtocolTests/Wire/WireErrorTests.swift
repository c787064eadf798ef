import Testing
import RemotionProtocol
@testable import RemotionProtocol

/// Every WireError case is reachable with a crafted datagram, and the decoder reports
/// exactly that case.
@Suite struct WireErrorTests {
    static let h = "52 01 01 00 2a 00 00 00"
    static let ping = h + " 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"
    static let event = "01 00 00 00 00 01 00 00 00 00 00 00 00 00"   // seq 1, A, down, t 0
    static let motionHead = h + " 04 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00"

    struct Case: Sendable, CustomTestStringConvertible {
        var error: WireError
        var hex: String
        var why: String
        var testDescription: String { "\(error): \(why)" }
    }

    static let cases: [Case] = [
        Case(error: .truncated, hex: "", why: "empty datagram"),
        Case(error: .truncated, hex: "52 01 01 00 2a 00 00", why: "7-byte header"),
        Case(error: .truncated, hex: h, why: "header without a message"),
        Case(error: .truncated, hex: String(ping.dropLast(3)), why: "ping one byte short"),
        Case(error: .truncated, hex: h + " 03 02 " + event, why: "batch says 2, carries 1"),
        Case(error: .truncated, hex: motionHead + " 01 00 00 00 00 00 00 f0 3f", why: "attitude cut short"),
        Case(error: .truncated, hex: h + " 06", why: "disconnect without a reason"),
        Case(error: .badMagic, hex: "53 01 01 00 2a 00 00 00 06 00", why: "first byte not 'R'"),
        Case(error: .unsupportedVersion, hex: "52 02 01 00 2a 00 00 00 06 00", why: "version 2"),
        Case(error: .unsupportedVersion, hex: "52 00 01 00 2a 00 00 00 06 00", why: "version 0"),
        Case(error: .unknownKind, hex: "52 01 00 00 2a 00 00 00 06 00", why: "kind 0"),
        Case(error: .unknownKind, hex: "52 01 06 00 2a 00 00 00 06 00", why: "kind 6"),
        Case(error: .unknownKind, hex: "52 01 05 00 2a 00 00 00 06 00", why: "an encrypted kind is not a plain datagram"),
        Case(error: .reservedNotZero, hex: "52 01 01 01 2a 00 00 00 06 00", why: "reserved byte set"),
        Case(error: .zeroSession, hex: "52 01 01 00 00 00 00 00 06 00", why: "session 0"),
        Case(error: .unknownMessageType, hex: h + " 00", why: "type 0"),
        Case(error: .unknownMessageType, hex: h + " 08 00", why: "type 8"),
        Case(error: .truncated, hex: h + " 07 01 ff 80 00 00", why: "feedback one byte short"),
        Case(error: .trailingBytes, hex: h + " 07 00 ff 80 00 00 00 00", why: "feedback plus one byte"),
        Case(error: .invalidFields, hex: h + " 07 02 ff 80 00 00 00", why: "feedback flags bit 1"),
        Case(error: .invalidFields, hex: h + " 07 00 ff 80 00 00 01", why: "feedback colour bytes without the lightbar flag"),
        Case(error: .trailingBytes, hex: ping + " 00", why: "ping plus one byte"),
        Case(error: .trailingBytes, hex: h + " 06 00 00", why: "disconnect plus one byte"),
        Case(error: .trailingBytes, hex: h + " 03 01 " + event + " 00", why: "batch plus one byte"),
        Case(error: .trailingBytes, hex: h + " 05 00 00 00 00 00 00 00 00 00 00 00 00 ff", why: "ack plus one byte"),
        Case(error: .trailingBytes, hex: motionHead + " 02 00 00 00 00 00 00 00 00 00 00 00 00 00", why: "motion plus one byte"),
        Case(error: .invalidButton, hex: h + " 03 01 01 00 00 00 10 01 00 00 00 00 00 00 00 00", why: "button 16"),
        Case(error: .invalidButtonState, hex: h + " 03 01 01 00 00 00 00 02 00 00 00 00 00 00 00 00", why: "state 2"),
        Case(error: .invalidBatchCount, hex: h + " 03 00", why: "empty batch"),
        Case(error: .invalidBatchCount, hex: h + " 03 21" + String(repeating: " " + event, count: 33), why: "33 events"),
        Case(error: .invalidFields, hex: motionHead + " 10", why: "unknown fields bit 4"),
        Case(error: .truncated, hex: motionHead + " 08 00 00 00 00 00 00 00 00 00 00", why: "analog (bit 3) short of its 12 bytes"),
        Case(error: .invalidAnalog, hex: motionHead + " 08 00 00 00 80 00 00 00 00 00 00 00 00", why: "a stick axis of -32768"),
        Case(error: .invalidFields, hex: motionHead + " 81 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", why: "unknown fields bit 7"),
        Case(error: .nonFiniteValue, hex: motionHead + " 01 00 00 00 00 00 00 f8 7f 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", why: "attitude roll NaN"),
        Case(error: .nonFiniteValue, hex: motionHead + " 01 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 f0 ff", why: "attitude yaw -infinity"),
        Case(error: .nonFiniteValue, hex: motionHead + " 02 00 00 80 7f 00 00 00 00 00 00 00 00", why: "gyro x +infinity"),
        Case(error: .nonFiniteValue, hex: motionHead + " 02 00 00 00 00 01 00 c0 ff 00 00 00 00", why: "gyro y NaN with payload"),
        Case(error: .nonFiniteValue, hex: motionHead + " 04 00 00 00 00 00 00 00 00 00 00 c0 7f", why: "acceleration z NaN"),
        Case(error: .invalidReason, hex: h + " 06 07", why: "reason 7 (5 revoked and 6 full are the last known)"),
        Case(error: .invalidReason, hex: h + " 06 ff", why: "reason 255"),
    ]

    @Test(arguments: cases)
    func rejects(_ c: Case) {
        #expect(throws: c.error) { try PlainDatagram.decode(bytes(hex: c.hex)) }
    }

    @Test func everyCaseIsReachable() {
        #expect(Set(Self.cases.map(\.error)) == Set(WireError.allCases))
    }

    @Test func descriptionsAreDistinctAndKebabCase() {
        let names = WireError.allCases.map(\.description)
        #expect(Set(names).count == names.count)
        #expect(names.allSatisfy { $0.allSatisfy { $0.isLowercase || $0 == "-" } })
    }

    /// Non-finite floats never get past the decoder, whichever field or bit pattern.
    @Test func everyNonFiniteFloatIsRejected() {
        let doubles: [Double] = [.nan, -.nan, .signalingNaN, .infinity, -.infinity, Double(bitPattern: 0x7ff0_0000_0000_0001)]
        let floats: [Float] = [.nan, -.nan, .signalingNaN, .infinity, -.infinity, Float(bitPattern: 0xff80_0001)]
        for field in 0..<3 {
            for bad in doubles {
                var values: [Double] = [0, 0, 0]
                values[field] = bad
                var w = ByteWriter()
                w.raw(bytes(hex: Self.motionHead)); w.u8(1)
                for v in values { w.f64(v) }
                #expect(throws: WireError.nonFiniteValue) { try PlainDatagram.decode(w.bytes) }
            }
            for bad in floats {
                for block: UInt8 in [2, 4] {
                    var values: [Float] = [0, 0, 0]
                    values[field] = bad
                    var w = ByteWriter()
                    w.raw(bytes(hex: Self.motionHead)); w.u8(block)
                    for v in values { w.f32(v) }
                    #expect(throws: WireError.nonFiniteValue) { try PlainDatagram.decode(w.bytes) }
                }
            }
        }
    }

    @Test func byteReaderFailsInsteadOfTrapping() {
        let buffer: [UInt8] = [1, 2, 3]
        buffer.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            #expect(throws: WireError.truncated) { try r.u32() }
            #expect(throws: WireError.truncated) { try r.bytes(-1) }
            #expect(throws: WireError.truncated) { try r.bytes(4) }
            #expect((try? r.bytes(3))?.count == 3)
            #expect(throws: WireError.truncated) { try r.u8() }
        }
    }
}
