// FuzzGamepad, what a game (through the kernel or hidraw) and the kernel write
// to a virtual DualSense (docs/FUZZING.md): output reports (`DualSenseOutput.parse`) and the
// UHID conversation (`DualSensePad.handle`). The first byte picks the part:
//   0: the rest is an output report as written; it parses or not, never traps; an accepted
//      USB one is 48…63 bytes, an accepted Bluetooth one is 78 bytes with a good CRC.
//   1: the rest, cut or padded to a Bluetooth output report (0x31, 78 bytes) and signed with
//      its CRC (seed 0xA2): it must parse, and with any one byte of it changed it must not.
//   2: the rest is a script of kernel events for one pad (op byte, then its fields): nothing
//      traps; every GET_REPORT and SET_REPORT gets exactly one reply with its own id.
// The properties are `DualSenseProperties` (RemotionGamepadFuzzChecks), which the normal
// suite also checks on seeded inputs.
import RemotionFuzzChecks
import RemotionGamepadFuzzChecks
import RemotionHostLogic
import RemotionProtocol

enum GamepadTarget {
    static func run(_ input: UnsafeBufferPointer<UInt8>) {
        let bytes = Array(input)
        guard let mode = bytes.first else { return }
        let rest = Array(bytes.dropFirst())
        switch mode % 3 {
        case 0: PropertyViolation.trapIfAny(DualSenseProperties.outputReport(rest))
        case 1: PropertyViolation.trapIfAny(DualSenseProperties.signedReport(rest, change: Int(rest.first ?? 0), mask: 0x5A))
        default: script(rest)
        }
    }

    /// Kernel events from bytes, handed to one pad; the replies are counted by id.
    static func script(_ b: [UInt8]) {
        var pad = DualSensePad(identity: "fuzz", bus: (b.first ?? 0) & 1 == 0 ? .bluetooth : .usb)
        var i = 1, id: UInt32 = 0
        while i < b.count {
            let op = b[i] % 7
            i += 1
            var event: DualSensePad.Event
            switch op {
            case 0: event = .start
            case 1: event = .stop
            case 2: event = .open
            case 3: event = .close
            case 4:
                id &+= 1
                event = .getReport(id: id, number: i < b.count ? b[i] : 0, type: i + 1 < b.count ? b[i + 1] % 3 : 0)
                i += 2
            default:
                let n = i < b.count ? Int(b[i]) : 0
                let payload = Array(b.dropFirst(i + 1).prefix(n))
                i += 1 + payload.count
                if op == 5 {
                    id &+= 1
                    event = .setReport(id: id, number: payload.first ?? 0, type: 0, data: payload)
                } else {
                    event = .output(data: payload, type: 1)
                }
            }
            PropertyViolation.trapIfAny(DualSenseProperties.handle(event, by: &pad))
        }
        _ = pad.finish(at: .seconds(1))
    }
}
