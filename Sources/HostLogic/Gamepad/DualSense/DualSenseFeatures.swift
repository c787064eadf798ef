import RemotionProtocol

/// The pad's own MAC address, derived from a controller's identity (its key fingerprint, its
/// paired name, a DSU slot…) so that the same controller gets the same address, and so the
/// same `uniq` on every node, each time it connects: a game keeps its binding. FNV-1a 64 of
/// the identity; the first byte is marked locally administered and unicast, so it can never
/// be a real vendor's address.
package struct DualSenseMAC: Hashable, Sendable, CustomStringConvertible {
    /// In display order (`aa:bb:cc:dd:ee:ff` → [0xaa, …, 0xff]).
    package let bytes: [UInt8]

    package init(identity: String) {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in identity.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
        var out = (0..<6).map { UInt8(truncatingIfNeeded: h >> (8 * UInt64($0))) }
        out[0] = (out[0] & 0xFC) | 0x02
        bytes = out
    }

    /// How the kernel prints it into `uniq` (`%pMR`): lower-case hex, display order.
    package var description: String {
        bytes.map { b in
            let s = String(b, radix: 16)
            return s.count == 1 ? "0" + s : s
        }.joined(separator: ":")
    }
}

/// The answers to the feature reports the kernel's driver (and SDL) ask for with
/// GET_REPORT, each exactly the size the driver checks; on Bluetooth each ends with its
/// CRC-32 seeded 0xA3, which the driver verifies.
package enum DualSenseFeatures {
    /// The calibration blob: gyro bias 0 and ±10000 per axis at a speed of 500+500 °/s, so
    /// 20 raw units per °/s; accelerometer ±10000 per axis, so 10000 per g. The kernel's
    /// scale: speed·1024 / (plus − minus) for the gyro, 2·8192 / (plus − minus) for the
    /// accelerometer, with bias plus − (plus − minus)/2 = 0.
    package static let gyroBias: [Int16] = [0, 0, 0]
    package static let gyroPlus: Int16 = 10_000, gyroMinus: Int16 = -10_000
    package static let gyroSpeedPlus: Int16 = 500, gyroSpeedMinus: Int16 = 500
    package static let accelPlus: Int16 = 10_000, accelMinus: Int16 = -10_000

    /// Firmware info: hardware 0x00000411, firmware 0x0110002A, update version 0x0630 at 44.
    package static let hardwareVersion: UInt32 = 0x0000_0411
    package static let firmwareVersion: UInt32 = 0x0110_002A
    package static let updateVersion: UInt16 = 0x0630

    /// The answer to feature report `id`, or nil for an id the pad does not have.
    package static func answer(id: UInt8, bus: DualSenseBus, mac: DualSenseMAC) -> [UInt8]? {
        var r: [UInt8]
        switch id {
        case DualSenseReports.pairingID:
            r = [UInt8](repeating: 0, count: DualSenseReports.pairingSize)
            // Bytes 1–6: the MAC, least significant byte first (the driver stores it so).
            for (i, b) in mac.bytes.reversed().enumerated() { r[1 + i] = b }
        case DualSenseReports.firmwareID:
            r = [UInt8](repeating: 0, count: DualSenseReports.firmwareSize)
            let built = Array("Nov 25 2026".utf8) + Array("12:00:00".utf8)
            for (i, b) in built.enumerated() { r[1 + i] = b }
            put32(&r, 24, hardwareVersion)
            put32(&r, 28, firmwareVersion)
            put16(&r, 44, updateVersion)
        case DualSenseReports.calibrationID:
            r = [UInt8](repeating: 0, count: DualSenseReports.calibrationSize)
            let values: [Int16] = gyroBias + [
                gyroPlus, gyroMinus, gyroPlus, gyroMinus, gyroPlus, gyroMinus,
                gyroSpeedPlus, gyroSpeedMinus,
                accelPlus, accelMinus, accelPlus, accelMinus, accelPlus, accelMinus,
            ]
            for (i, v) in values.enumerated() { put16(&r, 1 + 2 * i, UInt16(bitPattern: v)) }
        default:
            return nil
        }
        r[0] = id
        if bus == .bluetooth { DualSenseCRC.sign(&r, seed: DualSenseCRC.featureSeed) }
        return r
    }

    private static func put16(_ r: inout [UInt8], _ at: Int, _ v: UInt16) {
        r[at] = UInt8(v & 0xFF); r[at + 1] = UInt8(v >> 8)
    }

    private static func put32(_ r: inout [UInt8], _ at: Int, _ v: UInt32) {
        for i in 0..<4 { r[at + i] = UInt8(truncatingIfNeeded: v >> (8 * UInt32(i))) }
    }
}

/// What a game (through the kernel or hidraw) wrote to the pad: rumble motors and the
/// lightbar, read from the output report's common part.
package struct DualSenseOutput: Hashable, Sendable {
    package var rumbleLeft: UInt8
    package var rumbleRight: UInt8
    /// The report sets the motors: SDL's always (its rumble flags clear and motors 0 stop
    /// them), the kernel's with valid_flag0 bit 0 or 1 or valid_flag2 bit 2; else the motor
    /// bytes mean nothing (a colour sent alone).
    package var setsRumble = true
    /// Set when the report carries a lightbar colour (valid_flag1 bit 2).
    package var lightbar: (red: UInt8, green: UInt8, blue: UInt8)?

    package init(rumbleLeft: UInt8, rumbleRight: UInt8, setsRumble: Bool = true,
                 lightbar: (red: UInt8, green: UInt8, blue: UInt8)?) {
        self.rumbleLeft = rumbleLeft; self.rumbleRight = rumbleRight
        self.setsRumble = setsRumble; self.lightbar = lightbar
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.rumbleLeft == b.rumbleLeft && a.rumbleRight == b.rumbleRight && a.setsRumble == b.setsRumble
            && a.lightbar?.red == b.lightbar?.red && a.lightbar?.green == b.lightbar?.green
            && a.lightbar?.blue == b.lightbar?.blue && (a.lightbar == nil) == (b.lightbar == nil)
    }

    package func hash(into h: inout Hasher) {
        h.combine(rumbleLeft); h.combine(rumbleRight); h.combine(setsRumble)
        h.combine(lightbar?.red); h.combine(lightbar?.green); h.combine(lightbar?.blue)
    }

    /// Parses a USB 0x02 or Bluetooth 0x31 output report; nil when it is neither, too short,
    /// or (Bluetooth) its CRC-32 seeded 0xA2 is wrong. Two writers lay them out differently:
    /// the kernel sends USB reports of 63 bytes and Bluetooth ones with a sequence byte, the
    /// tag 0x10 and the common part from byte 3; SDL sends USB reports of 48 bytes and
    /// Bluetooth ones with 0x02 at byte 1 and the common part from byte 2. Both are read.
    package static func parse(_ r: [UInt8]) -> DualSenseOutput? {
        let c: Int
        if r.first == DualSenseReports.usbOutputID, r.count >= 48, r.count <= DualSenseReports.usbOutputSize {
            c = 1
        } else if r.count == DualSenseReports.btOutputSize, r.first == DualSenseReports.btOutputID,
                  DualSenseCRC.isSigned(r, seed: DualSenseCRC.outputSeed) {
            c = r[2] == 0x10 ? 3 : 2
        } else {
            return nil
        }
        let lightbar = (r[c + 1] & 0x04) != 0 ? (red: r[c + 44], green: r[c + 45], blue: r[c + 46]) : nil
        // The kernel (common part from byte 3 over Bluetooth, 63 bytes over USB) sets the
        // motors only with its rumble flags (valid_flag0 bit 0 or 1, valid_flag2 bit 2) and
        // sends a colour alone without them. SDL (from byte 2; 48 bytes) writes its whole
        // state every time: its rumble flags clear with both motors 0 is how it stops.
        let sdl = c == 2 || r.count == 48
        let setsRumble = sdl || r[c] & 0x03 != 0 || r[c + 38] & 0x04 != 0
        return DualSenseOutput(rumbleLeft: r[c + 3], rumbleRight: r[c + 2], setsRumble: setsRumble, lightbar: lightbar)
    }

    /// What it changes of the controller's feedback: the left motor is the heavy one.
    package var change: FeedbackChange {
        FeedbackChange(rumble: setsRumble ? FeedbackChange.Rumble(low: rumbleLeft, high: rumbleRight) : nil,
                       lightbar: lightbar.map { ControllerFeedback.Color(red: $0.red, green: $0.green, blue: $0.blue) })
    }
}
