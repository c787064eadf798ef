import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// FuzzGamepad's properties (Sources/Testing/Fuzzers/FuzzGamepad) on seeded random inputs in
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
            guard let output = DualSenseOutput.parse(r) else { continue }
            accepted += 1
            let usb = r.first == DualSenseReports.usbOutputID && (48...DualSenseReports.usbOutputSize).contains(r.count)
            let bt = r.count == DualSenseReports.btOutputSize && DualSenseCRC.isSigned(r, seed: DualSenseCRC.outputSeed)
            #expect(usb || bt, "accepted \(r.count) bytes starting \(r.first ?? 0)")
            _ = output.change
        }
        #expect(accepted > 0, "some random USB reports are well formed")
    }

    @Test func aSignedBluetoothReportParsesAndOneChangedByteRefusesIt() {
        var g = SplitMix64(seed: 0xD5_0002)
        for _ in 0..<2_000 {
            var r = Self.bytes(&g, count: DualSenseReports.btOutputSize)
            r[0] = DualSenseReports.btOutputID
            DualSenseCRC.sign(&r, seed: DualSenseCRC.outputSeed)
            #expect(DualSenseOutput.parse(r) != nil)
            let at = Int(g.next() % UInt64(r.count))
            r[at] ^= UInt8(1 + g.next() % 255)
            #expect(DualSenseOutput.parse(r) == nil, "byte \(at) changed")
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
                let actions = pad.handle(event)
                switch event {
                case let .getReport(want, _, _):
                    #expect(actions.filter { if case .getReportReply(want, _, _) = $0 { true } else { false } }.count == 1)
                case let .setReport(want, _, _, _):
                    #expect(actions.filter { if case .setReportReply(want, _) = $0 { true } else { false } }.count == 1)
                default:
                    break
                }
            }
            #expect(pad.finish(at: .seconds(1)).last == .destroy)
        }
    }
}
