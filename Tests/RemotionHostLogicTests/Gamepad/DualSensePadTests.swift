import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The feature answers and the UHID conversation.
@Suite struct DualSensePadTests {
    func le16(_ r: [UInt8], _ at: Int) -> Int { Int(Int16(bitPattern: UInt16(r[at]) | UInt16(r[at + 1]) << 8)) }

    /// The kernel's mult_frac(numer, x, denom) (include/linux/math.h), in integers as it does it.
    func multFrac(_ x: Int, _ numer: Int, _ denom: Int) -> Int {
        let q = x / denom, r = x % denom
        return q * numer + r * numer / denom
    }

    @Test func macIsStableLocallyAdministeredAndPerIdentity() {
        let a = DualSenseMAC(identity: "ed25519:phone-a"), again = DualSenseMAC(identity: "ed25519:phone-a")
        let b = DualSenseMAC(identity: "ed25519:phone-b")
        #expect(a == again)
        #expect(a != b)
        #expect(a.bytes.count == 6)
        #expect(a.bytes[0] & 0x03 == 0x02)   // locally administered, unicast
        #expect(a.description.count == 17)
        #expect(a.description == a.description.lowercased())
    }

    @Test func pairingInfoCarriesTheMACLeastSignificantFirstWithItsCRC() throws {
        let mac = DualSenseMAC(identity: "x")
        let r = try #require(DualSenseFeatures.answer(id: 0x09, bus: .bluetooth, mac: mac))
        #expect(r.count == 20 && r[0] == 0x09)
        #expect(Array(r[1...6]) == mac.bytes.reversed())
        #expect(DualSenseCRC.isSigned(r, seed: DualSenseCRC.featureSeed))
        let usb = try #require(DualSenseFeatures.answer(id: 0x09, bus: .usb, mac: mac))
        #expect(Array(usb[16...19]) == [0, 0, 0, 0])
    }

    @Test func firmwareInfoHasTheVersionsWhereTheDriverReadsThem() throws {
        let r = try #require(DualSenseFeatures.answer(id: 0x20, bus: .bluetooth, mac: DualSenseMAC(identity: "x")))
        #expect(r.count == 64 && r[0] == 0x20)
        #expect(Array(r[24...27]) == [0x11, 0x04, 0x00, 0x00])
        #expect(Array(r[28...31]) == [0x2A, 0x00, 0x10, 0x01])
        #expect(Array(r[44...45]) == [0x30, 0x06])
        #expect(DualSenseCRC.isSigned(r, seed: DualSenseCRC.featureSeed))
    }

    @Test func calibrationGivesTheScaleTheKernelComputes() throws {
        let r = try #require(DualSenseFeatures.answer(id: 0x05, bus: .bluetooth, mac: DualSenseMAC(identity: "x")))
        #expect(r.count == 41 && r[0] == 0x05)
        #expect(DualSenseCRC.isSigned(r, seed: DualSenseCRC.featureSeed))
        // The driver's reading (dualsense_get_calibration_data): biases at 1, 3, 5; plus/minus
        // pairs at 7…17; speeds at 19, 21; accel plus/minus at 23…33.
        let speed2x = le16(r, 19) + le16(r, 21)
        for axis in 0..<3 {
            let bias = le16(r, 1 + 2 * axis), plus = le16(r, 7 + 4 * axis), minus = le16(r, 9 + 4 * axis)
            let raw = Int(DualSenseInputReport.sensor(90, DualSenseUnits.gyroPerDegreePerSecond))
            // 90 °/s reads 90 × 1024 on the Motion Sensors node (1024 per °/s).
            #expect(multFrac(raw - bias, speed2x * 1024, plus - minus) == 90 * 1024)
            let aplus = le16(r, 23 + 4 * axis), aminus = le16(r, 25 + 4 * axis)
            let range = aplus - aminus, abias = aplus - range / 2
            let g = Int(DualSenseInputReport.sensor(1, DualSenseUnits.accelPerG))
            #expect(multFrac(g - abias, 2 * 8192, range) == 8192)   // 1 g reads 8192
        }
    }

    @Test func everyFeatureTheDriverAsksIsAnsweredWithItsSize() {
        for bus in DualSenseBus.allCases {
            var pad = DualSensePad(identity: "c1", bus: bus)
            _ = pad.create()
            _ = pad.handle(.start)
            for (n, (id, size)) in DualSenseReports.features.enumerated() {
                let actions = pad.handle(.getReport(id: UInt32(n + 7), number: id, type: 0))
                guard case let .getReportReply(rid, error, data)? = actions.first else {
                    Issue.record("no reply to \(id)"); continue
                }
                #expect(rid == UInt32(n + 7) && error == 0 && data.count == size && data[0] == id)
            }
            let unknown = pad.handle(.getReport(id: 99, number: 0x42, type: 0))
            #expect(unknown == [.getReportReply(id: 99, error: DualSensePad.refused, data: [])])
            #expect(pad.handle(.setReport(id: 100, number: 0x08, type: 0, data: [0x08, 1])) == [.setReportReply(id: 100, error: 0)])
            #expect(pad.counters.featuresAnswered == 3 && pad.counters.featuresRefused == 1)
        }
    }

    @Test func createCarriesTheDualSenseIdentity() {
        let pad = DualSensePad(identity: "c1")
        guard case let .create(c)? = pad.create().first else { Issue.record("no create"); return }
        #expect(c.vendor == 0x054C && c.product == 0x0CE6 && c.bus == 0x05)
        #expect(c.uniq == pad.mac.description)
        #expect(c.descriptor == DualSenseDescriptor.bytes(for: .bluetooth))
    }

    @Test func noInputBeforeStartThenReports() {
        var pad = DualSensePad(identity: "c1")
        let state = GamepadState(buttons: [.cross], motion: .still(at: .milliseconds(1)))
        #expect(pad.update(state).isEmpty)
        _ = pad.handle(.start)
        let actions = pad.update(state)
        guard case let .input(r)? = actions.first else { Issue.record("no input"); return }
        #expect(r.count == 78 && r[9] & 0x20 != 0)
    }

    @Test func restBeforeDestroy() {
        var pad = DualSensePad(identity: "c1")
        _ = pad.handle(.start)
        let held = GamepadState(leftStick: .init(x: 1, y: -1), rightTrigger: 1, buttons: [.cross, .r1], dpad: [.down],
                                motion: .init(angularRate: Vector3(x: 30, y: 0, z: 0), acceleration: Vector3(x: 0, y: 1, z: 0),
                                              time: .milliseconds(5)))
        _ = pad.update(held)
        let actions = pad.finish(at: .milliseconds(20))
        #expect(actions.count == 2)
        #expect(actions.last == .destroy)
        guard case let .input(r)? = actions.first else { Issue.record("no rest report"); return }
        #expect(Array(r[2...7]) == [128, 128, 128, 128, 0, 0])
        #expect(r[9] == 8 && r[10] == 0 && r[11] == 0)        // d-pad released, no buttons
        #expect(le16(r, 17) == 0)                              // no rotation
        #expect(le16(r, 25) == 10_000)                         // gravity stays
        #expect(pad.finish(at: .milliseconds(30)).isEmpty)
        #expect(pad.update(held).isEmpty)
    }

    @Test func neverStartedPadIsOnlyDestroyed() {
        var pad = DualSensePad(identity: "c1")
        #expect(pad.finish(at: .zero) == [.destroy])
    }

    @Test func outputReportsGiveRumbleAndLightbarOrAreCounted() {
        var pad = DualSensePad(identity: "c1")
        _ = pad.handle(.start)
        var bt = [UInt8](repeating: 0, count: 78)
        bt[0] = 0x31; bt[2] = 0x10
        bt[3] = 0x03; bt[4] = 0x04                 // valid flags: rumble; lightbar
        bt[5] = 40; bt[6] = 200                    // motor right, motor left
        bt[3 + 44] = 1; bt[3 + 45] = 2; bt[3 + 46] = 3
        DualSenseCRC.sign(&bt, seed: DualSenseCRC.outputSeed)
        let expected = DualSenseOutput(rumbleLeft: 200, rumbleRight: 40, lightbar: (1, 2, 3))
        #expect(pad.handle(.output(data: bt, type: 1)) == [.output(expected)])
        bt[10] ^= 0xFF                             // the CRC no longer matches
        #expect(pad.handle(.output(data: bt, type: 1)).isEmpty)
        #expect(pad.handle(.output(data: [0x02, 1], type: 1)).isEmpty)
        #expect(pad.counters.outputsMalformed == 2)
    }

    /// SDL's check (SDL_hidapi_ps5.c, HIDAPI_DriverPS5_LoadCalibrationData): it ignores a
    /// calibration whose bias exceeds 1024 or whose sensitivity is more than half off the
    /// nominal (64 per raw gyro unit, 1 per raw accelerometer unit, at 1024/°/s and 8192/g).
    @Test func sdlsSanityCheckAcceptsTheCalibration() throws {
        let r = try #require(DualSenseFeatures.answer(id: 0x05, bus: .usb, mac: DualSenseMAC(identity: "x")))
        let speed = Float(le16(r, 19) + le16(r, 21)) * 1024
        for axis in 0..<3 {
            let sensitivity = speed / Float(le16(r, 7 + 4 * axis) - le16(r, 9 + 4 * axis))
            #expect(abs(le16(r, 1 + 2 * axis)) <= 1024 && abs(1 - sensitivity / 64) <= 0.5)
            let range = le16(r, 23 + 4 * axis) - le16(r, 25 + 4 * axis)
            #expect(abs(le16(r, 23 + 4 * axis) - range / 2) <= 1024 && abs(1 - 2 * 8192 / Float(range)) <= 0.5)
        }
    }

    @Test func sdlsOutputReportsAreReadToo() {
        // USB: 48 bytes, the common part from byte 1.
        var usb = [UInt8](repeating: 0, count: 48)
        usb[0] = 0x02; usb[1] = 0x03; usb[3] = 10; usb[4] = 20
        #expect(DualSenseOutput.parse(usb) == DualSenseOutput(rumbleLeft: 20, rumbleRight: 10, lightbar: nil))
        // Bluetooth: 0x02 at byte 1, the common part from byte 2, CRC seeded 0xA2.
        var bt = [UInt8](repeating: 0, count: 78)
        bt[0] = 0x31; bt[1] = 0x02; bt[2] = 0x03; bt[3] = 0x04; bt[4] = 30; bt[5] = 40
        bt[2 + 44] = 7; bt[2 + 45] = 8; bt[2 + 46] = 9
        DualSenseCRC.sign(&bt, seed: DualSenseCRC.outputSeed)
        #expect(DualSenseOutput.parse(bt) == DualSenseOutput(rumbleLeft: 40, rumbleRight: 30, lightbar: (7, 8, 9)))
        #expect(DualSenseOutput.parse(Array(usb.prefix(47))) == nil)
    }
}
