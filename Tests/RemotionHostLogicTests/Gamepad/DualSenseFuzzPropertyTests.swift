import Testing
import RemotionGamepadFuzzChecks
import RemotionProtocol
@testable import RemotionHostLogic

/// FuzzGamepad's properties (`DualSenseProperties`, shared with the fuzz target) on seeded random inputs in
/// the normal suite, so CI checks them on every run although the libFuzzer target itself is
/// opt-in (docs/FUZZING.md): what a game and the kernel write to a virtual DualSense never
/// traps, an accepted output report has a valid size (and CRC), a signed Bluetooth report
/// parses and any one byte changed refuses it, and every GET_REPORT and SET_REPORT gets
/// exactly one reply with its own id.
@Suite struct DualSenseFuzzPropertyTests {
    static func bytes(_ g: inout SplitMix64, count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: g.next()) }
    }

    @Test func randomOutputReportsParseOnlyWhenWellFormed() {
        var g = SplitMix64(seed: 0xD5_0001)
        var accepted = 0
        for _ in 0..<20_000 {
            var r = Self.bytes(&g, count: Int(g.next() % 90))
            if !r.isEmpty { r[0] = [DualSenseReports.usbOutputID, DualSenseReports.btOutputID, r[0]][Int(g.next() % 3)] }
            if DualSenseOutput.parse(r) != nil { accepted += 1 }
            #expect(DualSenseProperties.outputReport(r) == nil)
        }
        #expect(accepted > 0, "some random USB reports are well formed")
    }

    @Test func aSignedBluetoothReportParsesAndOneChangedByteRefusesIt() {
        var g = SplitMix64(seed: 0xD5_0002)
        for _ in 0..<2_000 {
            let body = Self.bytes(&g, count: DualSenseReports.btOutputSize)
            let at = Int(g.next() % UInt64(body.count))
            #expect(DualSenseProperties.signedReport(body, change: at, mask: UInt8(1 + g.next() % 255)) == nil, "byte \(at) changed")
        }
    }

    @Test func everyReportRequestGetsExactlyOneReplyWithItsId() {
        var g = SplitMix64(seed: 0xD5_0003)
        for round in 0..<300 {
            var pad = DualSensePad(identity: "prop\(round)", bus: round % 2 == 0 ? .bluetooth : .usb)
            var id: UInt32 = 0
            for _ in 0..<40 {
                let event: DualSensePad.Event
                switch g.next() % 7 {
                case 0: event = .start
                case 1: event = .stop
                case 2: event = .open
                case 3: event = .close
                case 4:
                    id &+= 1
                    event = .getReport(id: id, number: UInt8(truncatingIfNeeded: g.next()), type: UInt8(g.next() % 3))
                case 5:
                    id &+= 1
                    let data = Self.bytes(&g, count: Int(g.next() % 80))
                    event = .setReport(id: id, number: data.first ?? 0, type: 0, data: data)
                default:
                    event = .output(data: Self.bytes(&g, count: Int(g.next() % 80)), type: 1)
                }
                #expect(DualSenseProperties.handle(event, by: &pad) == nil)
            }
            #expect(pad.finish(at: .seconds(1)).last == .destroy)
        }
    }
}
