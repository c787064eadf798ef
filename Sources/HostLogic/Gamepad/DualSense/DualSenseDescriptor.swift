/// The bus a virtual DualSense claims. Bluetooth is the default: on it SDL (and so Steam,
/// Proton and most emulators) opens the pad's hidraw node and reads its gyro; on the USB bus
/// a UHID device has no USB parent, SDL's hidraw backend skips it and games see no motion.
package enum DualSenseBus: String, Hashable, Sendable, CaseIterable {
    case bluetooth
    case usb

    /// The `bus` field of UHID_CREATE2 (linux/input.h: BUS_USB 0x03, BUS_BLUETOOTH 0x05).
    package var linuxBus: UInt16 { self == .bluetooth ? 0x05 : 0x03 }
}

/// Report ids and sizes (sizes include the id byte) as the kernel's hid-playstation driver
/// expects them.
package enum DualSenseReports {
    package static let vendorID: UInt32 = 0x054C
    package static let productID: UInt32 = 0x0CE6
    package static let usbInputID: UInt8 = 0x01, usbInputSize = 64
    package static let btInputID: UInt8 = 0x31, btInputSize = 78
    /// What a Bluetooth DualSense sends before enhanced reports are on (declared, never sent).
    package static let btSimpleInputSize = 10
    package static let usbOutputID: UInt8 = 0x02, usbOutputSize = 63
    package static let btOutputID: UInt8 = 0x31, btOutputSize = 78
    package static let calibrationID: UInt8 = 0x05, calibrationSize = 41
    package static let pairingID: UInt8 = 0x09, pairingSize = 20
    package static let firmwareID: UInt8 = 0x20, firmwareSize = 64
    /// The feature reports the driver (and SDL) read, with their sizes.
    package static let features: [(id: UInt8, size: Int)] = [
        (calibrationID, calibrationSize), (pairingID, pairingSize), (firmwareID, firmwareSize),
    ]
}

/// The HID report descriptor of the virtual pad, written from the report layouts above: a
/// Generic Desktop Game Pad application collection whose input report names its sticks and
/// triggers with their Generic Desktop usages and carries the rest as vendor bytes (the
/// kernel driver and SDL read DualSense reports by offset, not through the descriptor), plus
/// the output report and the three feature reports, each with the size the driver checks.
package enum DualSenseDescriptor {
    package static func bytes(for bus: DualSenseBus) -> [UInt8] {
        var d: [UInt8] = [
            0x05, 0x01,        // Usage Page (Generic Desktop)
            0x09, 0x05,        // Usage (Game Pad)
            0xA1, 0x01,        // Collection (Application)
        ]
        switch bus {
        case .usb:
            d += sticksAndTriggers(reportID: DualSenseReports.usbInputID,
                                   totalSize: DualSenseReports.usbInputSize)
            d += vendor(reportID: DualSenseReports.usbOutputID, count: DualSenseReports.usbOutputSize - 1, main: 0x91)
        case .bluetooth:
            d += sticksAndTriggers(reportID: DualSenseReports.usbInputID,
                                   totalSize: DualSenseReports.btSimpleInputSize)
            d += vendor(reportID: DualSenseReports.btInputID, count: DualSenseReports.btInputSize - 1, main: 0x81)
            d += vendor(reportID: DualSenseReports.btOutputID, count: DualSenseReports.btOutputSize - 1, main: 0x91)
        }
        for feature in DualSenseReports.features {
            d += vendor(reportID: feature.id, count: feature.size - 1, main: 0xB1)
        }
        d.append(0xC0)         // End Collection
        return d
    }

    /// Report `reportID`: X, Y, Z, Rz (the sticks), Rx, Ry (the triggers), 8 bits each, then
    /// vendor bytes up to `totalSize` (the id included).
    private static func sticksAndTriggers(reportID: UInt8, totalSize: Int) -> [UInt8] {
        var d: [UInt8] = [
            0x85, reportID,
            0x05, 0x01,        // Usage Page (Generic Desktop)
            0x09, 0x30, 0x09, 0x31, 0x09, 0x32, 0x09, 0x35, // X, Y, Z, Rz
            0x09, 0x33, 0x09, 0x34,                         // Rx, Ry
            0x15, 0x00,        // Logical Minimum (0)
            0x26, 0xFF, 0x00,  // Logical Maximum (255)
            0x75, 0x08,        // Report Size (8)
            0x95, 0x06,        // Report Count (6)
            0x81, 0x02,        // Input (Data, Variable, Absolute)
        ]
        d += vendorItems(count: totalSize - 1 - 6, main: 0x81)
        return d
    }

    private static func vendor(reportID: UInt8, count: Int, main: UInt8) -> [UInt8] {
        [0x85, reportID] + vendorItems(count: count, main: main)
    }

    /// `count` vendor-defined bytes as one main item (Input 0x81, Output 0x91, Feature 0xB1).
    private static func vendorItems(count: Int, main: UInt8) -> [UInt8] {
        [
            0x06, 0x00, 0xFF,  // Usage Page (Vendor 0xFF00)
            0x09, 0x20,        // Usage (0x20)
            0x15, 0x00,        // Logical Minimum (0)
            0x26, 0xFF, 0x00,  // Logical Maximum (255)
            0x75, 0x08,        // Report Size (8)
            0x95, UInt8(count),// Report Count
            main, 0x02,        // (Data, Variable, Absolute)
        ]
    }
}

/// CRC-32 (IEEE 802.3, reflected, as zlib and the kernel's crc32_le compute it) over a seed
/// byte then the data: how Bluetooth DualSense reports are signed. Seeds: 0xA1 input, 0xA2
/// output, 0xA3 feature.
package enum DualSenseCRC {
    package static let inputSeed: UInt8 = 0xA1
    package static let outputSeed: UInt8 = 0xA2
    package static let featureSeed: UInt8 = 0xA3

    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = (c & 1) != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// Plain CRC-32 of `bytes` (the check value of "123456789" is 0xCBF43926).
    package static func crc32<C: Collection>(_ bytes: C, initial: UInt32 = 0) -> UInt32 where C.Element == UInt8 {
        var c = ~initial
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return ~c
    }

    package static func crc32(seed: UInt8, _ bytes: ArraySlice<UInt8>) -> UInt32 {
        crc32(bytes, initial: crc32([seed]))
    }

    /// Writes the CRC of everything before the last four bytes into them (little-endian).
    package static func sign(_ report: inout [UInt8], seed: UInt8) {
        let end = report.count - 4
        let crc = crc32(seed: seed, report[0..<end])
        for i in 0..<4 { report[end + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
    }

    package static func isSigned(_ report: [UInt8], seed: UInt8) -> Bool {
        guard report.count > 4 else { return false }
        let end = report.count - 4
        let stored = (0..<4).reduce(UInt32(0)) { $0 | UInt32(report[end + $1]) << (8 * UInt32($1)) }
        return stored == crc32(seed: seed, report[0..<end])
    }
}
