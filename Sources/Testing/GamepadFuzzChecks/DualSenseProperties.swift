import RemotionFuzzChecks
import RemotionHostLogic

/// The properties of what a game and the kernel write to a virtual DualSense, shared by the
/// FuzzGamepad libFuzzer target (which traps on a violation so libFuzzer keeps the input) and
/// `DualSenseFuzzPropertyTests` (seeded random inputs in the normal suite, so CI checks them
/// though the fuzz target is opt-in; docs/FUZZING.md).
package enum DualSenseProperties {
    /// An output report as written: it parses or not, never traps; an accepted USB one is
    /// 48…63 bytes, an accepted Bluetooth one is 78 bytes with a good CRC.
    package static func outputReport(_ r: [UInt8]) -> PropertyViolation? {
        guard let output = DualSenseOutput.parse(r) else { return nil }
        _ = output.change
        let usb = r.first == DualSenseReports.usbOutputID && (48...DualSenseReports.usbOutputSize).contains(r.count)
        let bt = r.count == DualSenseReports.btOutputSize && DualSenseCRC.isSigned(r, seed: DualSenseCRC.outputSeed)
        return usb || bt ? nil : PropertyViolation("an accepted output report has a valid size (and CRC)", input: r)
    }

    /// `body` cut or padded to a Bluetooth output report (0x31, 78 bytes) and signed: it must
    /// parse, and with the byte at `change` (modulo its length) XORed with `mask` (not 0) it
    /// must not.
    package static func signedReport(_ body: [UInt8], change: Int, mask: UInt8) -> PropertyViolation? {
        let size = DualSenseReports.btOutputSize
        var report = Array((body + Array(repeating: 0, count: size)).prefix(size))
        report[0] = DualSenseReports.btOutputID
        DualSenseCRC.sign(&report, seed: DualSenseCRC.outputSeed)
        guard DualSenseOutput.parse(report) != nil else {
            return PropertyViolation("a signed Bluetooth output report parses", input: report)
        }
        report[change % size] ^= mask == 0 ? 0x5A : mask
        return DualSenseOutput.parse(report) == nil ? nil
            : PropertyViolation("one byte changed: the CRC (or the id) refuses it", input: report)
    }

    /// One kernel event handed to `pad`: every GET_REPORT and SET_REPORT gets exactly one
    /// reply with its own id.
    package static func handle(_ event: DualSensePad.Event, by pad: inout DualSensePad) -> PropertyViolation? {
        let actions = pad.handle(event)
        let replies: Int
        switch event {
        case let .getReport(want, _, _):
            replies = actions.filter { if case .getReportReply(want, _, _) = $0 { true } else { false } }.count
        case let .setReport(want, _, _, _):
            replies = actions.filter { if case .setReportReply(want, _) = $0 { true } else { false } }.count
        default:
            return nil
        }
        return replies == 1 ? nil : PropertyViolation("a report request gets exactly one reply with its id (\(event))", input: [])
    }
}
