#if os(Linux)
import Testing
import Glibc
import RemotionHostLogic
@testable import RemotionSystem

/// struct uhid_event's layout (linux/uhid.h), both ways, and the one-line open failure.
@Suite struct UHIDEventTests {
    func le32(_ e: [UInt8], _ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(e[at + $1]) << (8 * UInt32($1)) } }
    func le16(_ e: [UInt8], _ at: Int) -> UInt16 { UInt16(e[at]) | UInt16(e[at + 1]) << 8 }

    @Test func create2HasEveryFieldAtItsOffset() {
        let pad = DualSensePad(identity: "probe")
        guard case let .create(c)? = pad.create().first else { Issue.record("no create"); return }
        let e = UHIDEvent.create2(c)
        #expect(e.count == 4376)
        #expect(le32(e, 0) == 11)
        #expect(Array(e[4..<(4 + c.name.utf8.count)]) == Array(c.name.utf8) && e[4 + c.name.utf8.count] == 0)
        #expect(Array(e[196..<(196 + 17)]) == Array(c.uniq.utf8))
        #expect(Int(le16(e, 260)) == c.descriptor.count)
        #expect(le16(e, 262) == 0x05)
        #expect(le32(e, 264) == 0x054C && le32(e, 268) == 0x0CE6)
        #expect(Array(e[280..<(280 + c.descriptor.count)]) == c.descriptor)
    }

    @Test func repliesAndInput() {
        let reply = UHIDEvent.getReportReply(id: 0x0102_0304, error: 0, data: [9, 8, 7])
        #expect(reply == [10, 0, 0, 0, 4, 3, 2, 1, 0, 0, 3, 0, 9, 8, 7])
        #expect(UHIDEvent.setReportReply(id: 7, error: 5) == [14, 0, 0, 0, 7, 0, 0, 0, 5, 0])
        #expect(UHIDEvent.input2([0x31, 0xAA]) == [12, 0, 0, 0, 2, 0, 0x31, 0xAA])
        #expect(UHIDEvent.destroy() == [1, 0, 0, 0])
    }

    @Test func kernelEventsDecode() {
        var get = [UInt8](repeating: 0, count: UHIDEvent.size)
        get[0] = 9; get[4] = 0x2A; get[8] = 0x09; get[9] = 0
        #expect(UHIDEvent.decode(get[...]) == .getReport(id: 0x2A, number: 0x09, type: 0))
        var set = [UInt8](repeating: 0, count: UHIDEvent.size)
        set[0] = 13; set[4] = 3; set[8] = 0x08; set[9] = 0; set[10] = 2; set[12] = 0x08; set[13] = 0x55
        #expect(UHIDEvent.decode(set[...]) == .setReport(id: 3, number: 0x08, type: 0, data: [0x08, 0x55]))
        var output = [UInt8](repeating: 0, count: UHIDEvent.size)
        output[0] = 6; output[4] = 0x31; output[5] = 0x10; output[4 + 4096] = 2; output[4 + 4098] = 1
        #expect(UHIDEvent.decode(output[...]) == .output(data: [0x31, 0x10], type: 1))
        #expect(UHIDEvent.decode([2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0][...]) == .start)
        #expect(UHIDEvent.decode([99, 0, 0, 0][...]) == nil)
        #expect(UHIDEvent.decode([9, 0][...]) == nil)
    }

    /// The kernel's side of a probe, as bytes: START, the three GET_REPORTs hid-playstation
    /// sends, OPEN, a SET_REPORT; every reply carries the request's id and the right size.
    @Test func aProbeConversationAsBytes() {
        var pad = DualSensePad(identity: "probe")
        func event(_ kind: UInt32, _ fill: (inout [UInt8]) -> Void = { _ in }) -> [UInt8] {
            var e = [UInt8](repeating: 0, count: UHIDEvent.size)
            UHIDEvent.put32(&e, 0, kind)
            fill(&e)
            return e
        }
        var written: [[UInt8]] = []
        func feed(_ e: [UInt8]) {
            guard let decoded = UHIDEvent.decode(e[...]) else { Issue.record("did not decode \(e[0])"); return }
            written += pad.handle(decoded).compactMap(UHIDEvent.bytes(for:))
        }
        feed(event(2))
        for (n, (id, _)) in DualSenseReports.features.enumerated() {
            feed(event(9) { UHIDEvent.put32(&$0, 4, UInt32(100 + n)); $0[8] = id; $0[9] = 0 })
        }
        feed(event(4))
        feed(event(13) { UHIDEvent.put32(&$0, 4, 200); $0[8] = 0x80; $0[9] = 0; UHIDEvent.put16(&$0, 10, 1); $0[12] = 0x80 })
        #expect(written.count == 4)
        for (n, (id, size)) in DualSenseReports.features.enumerated() {
            let reply = written[n]
            #expect(le32(reply, 0) == 10 && le32(reply, 4) == UInt32(100 + n) && le16(reply, 8) == 0)
            #expect(Int(le16(reply, 10)) == size && reply.count == 12 + size && reply[12] == id)
        }
        #expect(written[3] == UHIDEvent.setReportReply(id: 200, error: 0))
        #expect(pad.started && pad.opened)
        let input = pad.update(GamepadState(motion: .still(at: .zero))).compactMap(UHIDEvent.bytes(for:))
        #expect(input.count == 1 && le32(input[0], 0) == 12 && le16(input[0], 4) == 78 && input[0][6] == 0x31)
        let end = pad.finish(at: .milliseconds(1)).compactMap(UHIDEvent.bytes(for:))
        #expect(end.count == 2 && le32(end[0], 0) == 12 && end[1] == UHIDEvent.destroy())
    }

    @Test func longNamesAreCutAndStayNulTerminated() {
        var c = DualSensePad.Creation(name: String(repeating: "n", count: 300), phys: "p", uniq: "u", bus: 5,
                                      vendor: 1, product: 2, version: 3, descriptor: [0xC0])
        let e = UHIDEvent.create2(c)
        #expect(e[4 + 126] == UInt8(ascii: "n") && e[4 + 127] == 0)
        c.descriptor = [UInt8](repeating: 0x11, count: 5000)
        #expect(le16(UHIDEvent.create2(c), 260) == 4096)
    }

    @Test func openingWithoutAccessSaysWhatToDo() {
        // A path that cannot exist stands for a kernel without uhid; the rule is named for EACCES.
        do {
            _ = try UHIDDualSense(identity: "x", path: "/nonexistent/uhid")
            Issue.record("opened a path that does not exist")
        } catch {
            #expect(error.description.contains("modprobe uhid"))
        }
        let denied = UHIDError.openFailure(errno: EACCES, path: "/dev/uhid")
        #expect(denied.description.contains("KERNEL==\"uhid\", TAG+=\"uaccess\""))
        #expect(!denied.description.contains("\n"))
    }
}
#endif
