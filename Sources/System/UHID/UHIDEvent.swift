import RemotionHostLogic

/// `struct uhid_event` (linux/uhid.h) as bytes: a 32-bit type then the packed payload of
/// that type. Little-endian, as on every host this runs on (x86-64, arm64). Pure: the
/// device below reads and writes these buffers.
package enum UHIDEvent {
    /// enum uhid_event_type.
    package enum Kind: UInt32 {
        case destroy = 1, start = 2, stop = 3, open = 4, close = 5, output = 6
        case getReport = 9, getReportReply = 10, create2 = 11, input2 = 12
        case setReport = 13, setReportReply = 14
    }

    /// sizeof(struct uhid_event): the type and the largest member, uhid_create2_req
    /// (128 + 64 + 64 + 2 + 2 + 4·4 + HID_MAX_DESCRIPTOR_SIZE 4096).
    package static let size = 4 + 4372
    /// UHID_DATA_MAX and HID_MAX_DESCRIPTOR_SIZE.
    package static let dataMax = 4096

    package static func create2(_ c: DualSensePad.Creation) -> [UInt8] {
        var e = [UInt8](repeating: 0, count: size)
        put32(&e, 0, Kind.create2.rawValue)
        putString(&e, 4, c.name, 128)
        putString(&e, 4 + 128, c.phys, 64)
        putString(&e, 4 + 192, c.uniq, 64)
        let n = min(c.descriptor.count, dataMax)
        put16(&e, 260, UInt16(n))
        put16(&e, 262, c.bus)
        put32(&e, 264, c.vendor)
        put32(&e, 268, c.product)
        put32(&e, 272, c.version)
        put32(&e, 276, 0)                     // country
        e.replaceSubrange(280..<(280 + n), with: c.descriptor[0..<n])
        return e
    }

    /// UHID_INPUT2 for `report` written into `event`, reused when it has the size already.
    package static func input2(_ report: [UInt8], into event: inout [UInt8]) {
        let n = min(report.count, dataMax)
        if event.count != 6 + n { event = [UInt8](repeating: 0, count: 6 + n) }
        put32(&event, 0, Kind.input2.rawValue)
        put16(&event, 4, UInt16(n))
        event.withUnsafeMutableBufferPointer { e in
            report.withUnsafeBufferPointer { r in
                for i in 0..<n { e[6 + i] = r[i] }
            }
        }
    }

    package static func input2(_ report: [UInt8]) -> [UInt8] {
        var e: [UInt8] = []
        input2(report, into: &e)
        return e
    }

    package static func getReportReply(id: UInt32, error: UInt16, data: [UInt8]) -> [UInt8] {
        var e = [UInt8](repeating: 0, count: 12)
        put32(&e, 0, Kind.getReportReply.rawValue)
        put32(&e, 4, id)
        put16(&e, 8, error)
        put16(&e, 10, UInt16(min(data.count, dataMax)))
        return e + data.prefix(dataMax)
    }

    package static func setReportReply(id: UInt32, error: UInt16) -> [UInt8] {
        var e = [UInt8](repeating: 0, count: 10)
        put32(&e, 0, Kind.setReportReply.rawValue)
        put32(&e, 4, id)
        put16(&e, 8, error)
        return e
    }

    package static func destroy() -> [UInt8] {
        var e = [UInt8](repeating: 0, count: 4)
        put32(&e, 0, Kind.destroy.rawValue)
        return e
    }

    /// What the kernel wrote, as the pad's event; nil for types the pad does not act on.
    package static func decode(_ e: ArraySlice<UInt8>) -> DualSensePad.Event? {
        let e = Array(e)
        guard e.count >= 4, let kind = Kind(rawValue: get32(e, 0)) else { return nil }
        switch kind {
        case .start: return .start
        case .stop: return .stop
        case .open: return .open
        case .close: return .close
        case .output:
            guard e.count >= 4 + dataMax + 3 else { return nil }
            let n = min(Int(get16(e, 4 + dataMax)), dataMax)
            return .output(data: Array(e[4..<(4 + n)]), type: e[4 + dataMax + 2])
        case .getReport:
            guard e.count >= 10 else { return nil }
            return .getReport(id: get32(e, 4), number: e[8], type: e[9])
        case .setReport:
            guard e.count >= 12 else { return nil }
            let n = min(Int(get16(e, 10)), dataMax, e.count - 12)
            return .setReport(id: get32(e, 4), number: e[8], type: e[9], data: Array(e[12..<(12 + n)]))
        default:
            return nil
        }
    }

    /// The bytes to write for one of the pad's actions (nil: nothing to write).
    package static func bytes(for action: DualSensePad.Action) -> [UInt8]? {
        switch action {
        case let .create(c): return create2(c)
        case let .input(r): return input2(r)
        case let .getReportReply(id, error, data): return getReportReply(id: id, error: error, data: data)
        case let .setReportReply(id, error): return setReportReply(id: id, error: error)
        case .destroy: return destroy()
        case .output: return nil
        }
    }

    static func put16(_ e: inout [UInt8], _ at: Int, _ v: UInt16) {
        e[at] = UInt8(v & 0xFF); e[at + 1] = UInt8(v >> 8)
    }

    static func put32(_ e: inout [UInt8], _ at: Int, _ v: UInt32) {
        for i in 0..<4 { e[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) }
    }

    static func get16(_ e: [UInt8], _ at: Int) -> UInt16 { UInt16(e[at]) | UInt16(e[at + 1]) << 8 }

    static func get32(_ e: [UInt8], _ at: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(e[at + $1]) << (8 * UInt32($1)) }
    }

    private static func putString(_ e: inout [UInt8], _ at: Int, _ s: String, _ capacity: Int) {
        let bytes = Array(s.utf8.prefix(capacity - 1))
        e.replaceSubrange(at..<(at + bytes.count), with: bytes)
    }
}
