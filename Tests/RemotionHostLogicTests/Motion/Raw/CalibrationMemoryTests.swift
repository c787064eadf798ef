import Foundation
import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The calibration memory as a value: trust by age, the bound, what `remember` refuses, and
/// the strict decode of the file (docs/MOTION.md, "Calibration memory").
@Suite struct CalibrationMemoryTests {
    static let day = 86_400.0
    static let t0 = 1_700_000_000.0
    static let good = GyroCalibration(bias: Vec3(0.01, -0.02, 0.005), confidence: 1, weight: 20)

    @Test func trustHalvesEveryDayAndEndsAfterThirtyDays() throws {
        #expect(CalibrationMemory.trust(age: 0) == 1)
        #expect(CalibrationMemory.trust(age: -5) == 1, "a clock set back a little: as new, never more")
        #expect(abs(CalibrationMemory.trust(age: Self.day) - 0.5) < 1e-12)
        #expect(abs(CalibrationMemory.trust(age: 7 * Self.day) - 1.0 / 128) < 1e-12)
        #expect(CalibrationMemory.trust(age: 30 * Self.day + 1) == 0)
        #expect(CalibrationMemory.trust(age: .nan) == 0)

        var memory = CalibrationMemory()
        let kept = memory.remember("web:phone", Self.good, established: Self.t0)
        #expect(kept)
        let fresh = try #require(memory.recall("web:phone", now: Self.t0 + 10))
        #expect(fresh.ageSeconds == 10 && fresh.calibration.bias == Self.good.bias)
        let dayOld = try #require(memory.recall("web:phone", now: Self.t0 + Self.day))
        #expect(abs(dayOld.calibration.confidence - 0.5) < 1e-12 && abs(dayOld.calibration.weight - 10) < 1e-9)
        #expect(dayOld.calibration.bias == Self.good.bias, "age lowers the trust, never the bias")
        #expect(memory.recall("web:phone", now: Self.t0 + 31 * Self.day) == nil)
        #expect(memory.recall("web:other", now: Self.t0) == nil)
    }

    @Test func atMostCapacityControllersAndTheOldestGoFirst() {
        var memory = CalibrationMemory()
        for i in 0..<300 { memory.remember("udp:\(i)", Self.good, established: Self.t0 + Double(i)) }
        #expect(memory.entries.count == CalibrationMemory.capacity)
        #expect((0..<44).allSatisfy { memory.entries["udp:\($0)"] == nil }, "the 44 calibrated longest ago are evicted")
        #expect((44..<300).allSatisfy { memory.entries["udp:\($0)"] != nil })
        // Updating a controller already kept evicts nobody.
        memory.remember("udp:44", Self.good, established: Self.t0 + 1000)
        #expect(memory.entries.count == CalibrationMemory.capacity && memory.entries["udp:45"] != nil)
    }

    @Test func rememberRefusesWhatIsNeverACalibration() {
        var memory = CalibrationMemory()
        let tooBig = GyroCalibration(bias: Vec3(0, 0, MotionMath.radians(11)), confidence: 1, weight: 20)
        let nan = GyroCalibration(bias: Vec3(.nan, 0, 0), confidence: 1, weight: 20)
        let overconfident = GyroCalibration(bias: .zero, confidence: 1.5, weight: 20)
        let heavy = GyroCalibration(bias: .zero, confidence: 1, weight: 21)
        let refused = [
            memory.remember("web:a", tooBig, established: Self.t0),       // beyond maxBias (10 °/s): a turn, not bias
            memory.remember("web:a", nan, established: Self.t0),
            memory.remember("web:a", overconfident, established: Self.t0),
            memory.remember("web:a", heavy, established: Self.t0),
            memory.remember("web:a", Self.good, established: .infinity),
            memory.remember("", Self.good, established: Self.t0),
            memory.remember("web:a\u{7}", Self.good, established: Self.t0),
            memory.remember(String(repeating: "x", count: 201), Self.good, established: Self.t0),
        ]
        #expect(refused == Array(repeating: false, count: 8))
        #expect(memory.entries.isEmpty)
    }

    @Test func encodedBytesDecodeToTheSameMemory() {
        var memory = CalibrationMemory()
        memory.remember("web:phone", Self.good, established: Self.t0)
        memory.remember("dsu:aa:bb:cc:dd:ee:ff", GyroCalibration(bias: Vec3(-0.1, 0.1, 0.0), confidence: 0.25, weight: 0.75),
                        established: Self.t0 - 3600)
        let bytes = memory.encoded()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("{\"controllers\":[{\"bias\":[") && text.contains("\"version\":1"))
        let (back, report) = CalibrationMemory.decode(bytes, now: Self.t0)
        #expect(back == memory)
        #expect(report == CalibrationMemory.DecodeReport(unreadable: false, malformed: 0, expired: 0, kept: 2))
    }

    @Test func aFileThatIsNotAMemoryIsUnreadableNotACrash() {
        for text in ["", "not json", "[]", "{\"version\":2,\"controllers\":[]}", "{\"version\":1,\"controllers\":{}}",
                     "{\"version\":1}", "{\"version\":\"1\",\"controllers\":[]}"] {
            let (memory, report) = CalibrationMemory.decode(Array(text.utf8), now: Self.t0)
            #expect(report.unreadable && memory.entries.isEmpty, "\(text)")
        }
        let (_, random) = CalibrationMemory.decode((0..<512).map { UInt8(truncatingIfNeeded: $0 &* 37) }, now: Self.t0)
        #expect(random.unreadable)
    }

    @Test func malformedEntriesAreDroppedAndCountedTheRestKept() {
        let t = Int(Self.t0)
        func entry(_ id: String, bias: String = "[0.01,0,0]", confidence: String = "1", weight: String? = "20",
                   established: String? = nil) -> String {
            "{\"id\":\(id),\"bias\":\(bias),\"confidence\":\(confidence)"
                + (weight.map { ",\"weight\":\($0)" } ?? "") + ",\"established\":\(established ?? "\(t)")}"
        }
        let entries = [
            entry("\"web:good\""),
            entry("\"web:noweight\"", confidence: "0.5", weight: nil),       // weight derived: 0.5 × 3 s
            entry("\"web:short\"", bias: "[0.01,0]"),
            entry("\"web:text\"", bias: "\"fast\""),
            entry("\"web:big\"", bias: "[0.2,0,0]"),                          // 11.5 °/s > maxBias
            entry("\"web:neg\"", confidence: "-1"),
            entry("\"web:heavy\"", weight: "100"),
            entry("\"web:future\"", established: "\(t + 3 * 86_400)"),
            entry("\"web:before1970\"", established: "-5"),
            entry("\"\""),
            entry("42"),
            "\"just a string\"",
            entry("\"web:expired\"", established: "\(t - 40 * 86_400)"),
            entry("\"web:dup\"", bias: "[0.001,0,0]", established: "\(t - 100)"),
            entry("\"web:dup\"", bias: "[0.002,0,0]", established: "\(t - 50)"),
        ]
        let text = "{\"version\":1,\"controllers\":[" + entries.joined(separator: ",") + "]}"
        let (memory, report) = CalibrationMemory.decode(Array(text.utf8), now: Self.t0)
        #expect(!report.unreadable)
        #expect(Set(memory.entries.keys) == ["web:good", "web:noweight", "web:dup"])
        #expect(report.malformed == 11 && report.expired == 1 && report.kept == 3, "\(report)")
        #expect(memory.entries["web:noweight"]?.calibration.weight == 1.5)
        #expect(memory.entries["web:dup"]?.calibration.bias.x == 0.002, "of two entries for one id the newer stays")
    }

    @Test func moreEntriesThanTheBoundKeepTheNewest() {
        let list = (0..<300).map { "{\"id\":\"udp:\($0)\",\"bias\":[0,0,0],\"confidence\":1,\"weight\":20,\"established\":\(Int(Self.t0) - 300 + $0)}" }
        let text = "{\"version\":1,\"controllers\":[" + list.joined(separator: ",") + "]}"
        let (memory, report) = CalibrationMemory.decode(Array(text.utf8), now: Self.t0)
        #expect(memory.entries.count == CalibrationMemory.capacity && report.malformed == 44)
        #expect(memory.entries["udp:299"] != nil && memory.entries["udp:43"] == nil)
    }

    /// A DSU server names its pads' MACs itself, unauthenticated: one that reports a new MAC
    /// each time (1000 of them) keeps at most `perSourceCapacity` entries, its newest, and
    /// evicts nobody else's — the phones, the local pads and another server's pads stay.
    @Test func rotatingIdentitiesOfOneSourceLeaveEveryOtherSourcesEntries() {
        var memory = CalibrationMemory()
        let rotating = "dsu 192.0.2.7:26760", other = "dsu 192.0.2.9:26760"
        memory.remember("web:phone", Self.good, established: Self.t0)
        memory.remember("udp:KEY", Self.good, established: Self.t0 + 1)
        memory.remember("dsu:00:00:00:00:bb:01", Self.good, established: Self.t0 + 2, source: other)
        memory.remember("pad:a0:ab:51:00:00:01", Self.good, established: Self.t0 + 3, source: "local pads")
        func mac(_ i: Int) -> String { "dsu:00:00:00:\(String(format: "%02x:%02x:%02x", i >> 16, (i >> 8) & 0xff, i & 0xff))" }
        for i in 0..<1000 { memory.remember(mac(i), Self.good, established: Self.t0 + 10 + Double(i), source: rotating) }
        for key in ["web:phone", "udp:KEY", "dsu:00:00:00:00:bb:01", "pad:a0:ab:51:00:00:01"] {
            #expect(memory.recall(key, now: Self.t0 + 2000) != nil, "\(key) kept")
        }
        let ofRotating = memory.entries.filter { $0.value.source == rotating }
        #expect(ofRotating.count == CalibrationMemory.perSourceCapacity)
        #expect(Set(ofRotating.keys) == Set((1000 - CalibrationMemory.perSourceCapacity..<1000).map(mac)), "its newest")
        #expect(memory.entries.count == 4 + CalibrationMemory.perSourceCapacity)
        // A pad that moves to another server is counted there, and the file keeps who named what.
        memory.remember(mac(999), Self.good, established: Self.t0 + 2000, source: other)
        let (back, report) = CalibrationMemory.decode(memory.encoded(), now: Self.t0 + 2000)
        #expect(back == memory && report.malformed == 0)
        #expect(back.entries[mac(999)]?.source == other && back.entries["web:phone"]?.source == "web:phone")
    }

    /// A file holds the bound per source too (written by a host before it, or edited): the
    /// newest `perSourceCapacity` of a source are kept, the rest dropped and counted; an entry
    /// without a source is its own, and a source that is no valid name is malformed.
    @Test func aFileKeepsTheNewestOfEachSource() {
        func entry(_ id: String, _ age: Int, source: String? = nil) -> String {
            "{\"id\":\"\(id)\",\"bias\":[0,0,0],\"confidence\":1,\"weight\":20,\"established\":\(Int(Self.t0) - age)"
                + (source.map { ",\"source\":\"\($0)\"" } ?? "") + "}"
        }
        let list = (0..<40).map { entry("dsu:\($0)", 100 - $0, source: "dsu 192.0.2.7:26760") }
            + [entry("web:old", 5000), entry("dsu:x", 1, source: "bad\\u0007source")]
        let text = "{\"version\":1,\"controllers\":[" + list.joined(separator: ",") + "]}"
        let (memory, report) = CalibrationMemory.decode(Array(text.utf8), now: Self.t0)
        #expect(memory.entries.count == CalibrationMemory.perSourceCapacity + 1 && memory.entries["web:old"] != nil)
        #expect((40 - CalibrationMemory.perSourceCapacity..<40).allSatisfy { memory.entries["dsu:\($0)"] != nil })
        #expect(report.malformed == 40 - CalibrationMemory.perSourceCapacity + 1, "\(report)")
    }

    @Test func controllerKeysNameEachKindAndRefuseNoIdentity() {
        #expect(ControllerCalibrationKey.web(device: "d41d8cd9") == "web:d41d8cd9")
        #expect(ControllerCalibrationKey.web(device: "") == nil)
        #expect(ControllerCalibrationKey.udp(staticKey: [UInt8](repeating: 0, count: 32)) == "udp:" + String(repeating: "A", count: 52))
        #expect(ControllerCalibrationKey.udp(staticKey: []) == nil)
        #expect(ControllerCalibrationKey.dsu(mac: DSUMAC(rawValue: 0xA0AB_5100_0001)) == "dsu:a0:ab:51:00:00:01")
        #expect(ControllerCalibrationKey.dsu(mac: .zero) == nil, "an all-zero MAC names no pad")
        #expect(ControllerCalibrationKey.localPad(uniq: "a0:ab:51:00:00:01") == "pad:a0:ab:51:00:00:01")
        #expect(ControllerCalibrationKey.localPad(uniq: "") == nil)
        #expect(ControllerCalibrationKey.localPad(uniq: String(repeating: "u", count: 300)) == nil)
    }
}
