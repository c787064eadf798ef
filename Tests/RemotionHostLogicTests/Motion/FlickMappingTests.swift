import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// Flick stick through the mapper (FPS mode): the controller's stick in each sample's analog
/// state, the game's counts per 360 from `fps.counts_per_360`, time from the samples.
@Suite struct FlickMappingTests {
    func mapper(_ keys: [String: String]) throws -> MotionMapper {
        var m = MotionMapper()
        for (k, v) in ["mode": "fps", "fps.calibration": "counts", "fps.counts_per_360": "3600"].merging(keys, uniquingKeysWith: { $1 }) {
            try m.settings.set(k, to: v)
        }
        return m
    }

    /// A still controller (gyro 0) with its right stick at (x, y), at 250 Hz.
    func sample(_ i: Int, x: Float = 0, y: Float = 0, left: Bool = false) -> MotionSample {
        let a = left ? AnalogState(leftX: x, leftY: y) : AnalogState(rightX: x, rightY: y)
        return MotionSample(timestampMicros: UInt64(1_000_000 + i * 4_000), gyro: Vector3(x: 0, y: 0, z: 0), analog: a)
    }

    @Test func aPushRightTurnsAQuarterOverTheNextSamples() throws {
        var m = try mapper(["flick.stick": "right"])
        var total = 0, moved = 0
        for i in 0..<40 {
            let d = m.update(sample(i, x: i < 10 ? 1 : 0), screen: fullHD).moveBy
            #expect(d.dy == 0)
            total += d.dx
            if d.dx != 0 { moved += 1 }
        }
        #expect(total == 900, "a quarter of 3600 counts: \(total)")
        #expect(moved == 25, "spread over 0.1 s of 4 ms samples: \(moved)")
    }

    @Test func offByDefaultAndOnlyInFPSMode() throws {
        var off = try mapper([:])
        #expect((0..<40).map { off.update(sample($0, x: 1), screen: fullHD).moveBy.dx }.reduce(0, +) == 0)
        var pointer = try mapper(["flick.stick": "right", "mode": "pointer"])
        #expect((0..<40).allSatisfy { pointer.update(sample($0, x: 1), screen: fullHD).moveBy == (0, 0) })
    }

    @Test func theLeftStickWhenChosenAndTheClutchDoesNotStopIt() throws {
        var m = try mapper(["flick.stick": "left", "flick.time": "0", "fps.clutch": "hold:A"])
        #expect(m.update(sample(0, x: -1, left: true), screen: fullHD).moveBy.dx == -900,
                "turns left at once; gyro is held off by the clutch, the stick is not")
        var right = try mapper(["flick.stick": "left", "flick.time": "0"])
        #expect(right.update(sample(0, x: 1), screen: fullHD).moveBy.dx == 0, "the right stick is not the chosen one")
    }

    @Test func aModeChangeStopsAFlickUnderWay() throws {
        var m = try mapper(["flick.stick": "right"])
        _ = m.update(sample(0, x: 1), screen: fullHD)
        _ = m.update(sample(5, x: 1), screen: fullHD)
        m.settings.mode = .pointer
        m.settings.mode = .fps
        let rest = (6..<40).map { m.update(sample($0), screen: fullHD).moveBy.dx }.reduce(0, +)
        #expect(rest == 0, "nothing left of the flick after the mode changed: \(rest)")
    }

    @Test func theSettingsHaveTheirKeysAndRanges() throws {
        var s = MappingSettings()
        try s.set("flick.snap", to: "8")
        #expect(s.flick.snap == .eight && s.value(of: "flick.snap") == "8")
        #expect(throws: MappingSettingError.self) { try s.set("flick.threshold", to: "0.1") }
        #expect(throws: MappingSettingError.self) { try s.set("flick.stick", to: "middle") }
        #expect(MappingSettings.keys.contains("flick.forward_deadzone"))
    }
}
