import Foundation
import Testing
@testable import RemotionHostLogic

@Suite struct MappingSettingsTests {
    @Test func everyKeyRoundTripsThroughItsText() throws {
        var changed = MappingSettings()
        changed.mode = .seed
        changed.sensitivity = 1.5
        changed.pointer.fovX = 55
        changed.fps.calibration = .counts
        changed.fps.tightening = 2.5
        changed.filter = .oneEuro(minCutoff: 0.5, beta: 0.02, dCutoff: 2)
        changed.fps.space = .world
        changed.fps.clutch = .holdToDisable(.p)
        changed.sensors.calibrationMode = .manual
        changed.sensors.restGate = false
        changed.sensors.calibrationDuration = 7.5
        changed.sensors.accelerometer = .down
        changed.touchpad.speed = 2.5
        changed.touchpad.acceleration = 0
        changed.touchpad.scrollPixels = 40
        var copy = MappingSettings()
        for key in MappingSettings.keys {
            #expect(!changed.value(of: key).isEmpty, "\(key)")
            try copy.set(key, to: changed.value(of: key))
        }
        #expect(copy == changed)
        #expect(MappingSettings().value(of: "no.such.key") == "")
    }

    @Test func setsModesAndNumbers() throws {
        var s = MappingSettings()
        try s.set("mode", to: " FPS ")
        #expect(s.mode == .fps)
        try s.set("sensitivity", to: "2.25")
        #expect(s.sensitivity == 2.25)
        try s.set("pointer.fov_x", to: "35")
        try s.set("fps.slow_sensitivity", to: "0.5")
        try s.set("fps.calibration", to: "counts")
        #expect(s.pointer.fovX == 35 && s.fps.slowSensitivity == 0.5 && s.fps.calibration == .counts)
        #expect(s.value(of: "mode") == "fps")
        #expect(s.value(of: "sensitivity") == "2.25")
    }

    @Test func filterParametersMayComeBeforeOrAfterTheKind() throws {
        var a = MappingSettings()
        try a.set("filter.beta", to: "0.5")
        try a.set("filter", to: "oneeuro")
        var b = MappingSettings()
        try b.set("filter", to: "one-euro")
        try b.set("filter.beta", to: "0.5")
        #expect(a.filter == .oneEuro(minCutoff: 1, beta: 0.5, dCutoff: 1))
        #expect(a == b)
        try a.set("filter", to: "lowpass")
        try a.set("filter.factor", to: "0.2")
        #expect(a.filter == .lowPass(factor: 0.2))
        try a.set("filter", to: "none")
        #expect(a.filter == MotionFilter.none)
    }

    @Test func badValuesSayWhatIsWrongAndWhatIsAllowed() {
        var s = MappingSettings()
        let before = s
        #expect(throws: MappingSettingError.self) { try s.set("mode", to: "banana") }
        do {
            try s.set("mode", to: "banana")
            Issue.record("accepted a bad mode")
        } catch {
            #expect(error.kind == .invalidValue)
            #expect(error.message == "mode: \"banana\" is not allowed; use one of: pointer, fps, seed")
        }
        do {
            try s.set("sensitivity", to: "fast")
            Issue.record("accepted a non-number")
        } catch {
            #expect(error.message == "sensitivity: \"fast\" is not a number; expected a number > 0 and ≤ 100")
        }
        do {
            try s.set("pointer.fov_x", to: "0")
            Issue.record("accepted a zero field of view")
        } catch {
            #expect(error.message == "pointer.fov_x: 0 is out of range; expected a number > 0 and ≤ 360 (degrees)")
        }
        do {
            try s.set("filter.factor", to: "1.5")
            Issue.record("accepted factor 1.5")
        } catch {
            #expect(error.message.contains("expected a number > 0 and ≤ 1"))
        }
        do {
            try s.set("filter", to: "kalman")
            Issue.record("accepted an unknown filter")
        } catch {
            #expect(error.message == "filter: \"kalman\" is not allowed; use one of: none, lowpass, oneeuro")
        }
        do {
            try s.set("pointer.fov", to: "40")
            Issue.record("accepted an unknown key")
        } catch {
            #expect(error.kind == .unknownKey)
            #expect(error.message.hasPrefix("unknown setting \"pointer.fov\"; known settings: mode, sensitivity, pointer.fov_x"))
        }
        for bad in ["nan", "inf", "", "1e400", "-3"] {
            #expect(throws: MappingSettingError.self) { try s.set("fps.tightening", to: bad) }
        }
        #expect(s == before)
    }

    /// The gyro keys: defaults, spellings, and what a bad value says.
    @Test func gyroKeys() throws {
        var s = MappingSettings()
        #expect(s.value(of: "fps.space") == "player" && s.value(of: "fps.clutch") == "always")
        #expect(s.value(of: "calibration.mode") == "continuous" && s.value(of: "calibration.rest_gate") == "true")
        #expect(s.value(of: "calibration.duration") == "3.0" && s.value(of: "sensors.accelerometer") == "up")
        for (text, mode) in [("hold:c", GyroClutch.Mode.holdToEnable(.c)), ("TOGGLE:R", nil), ("toggle:R", nil),
                             ("off-while:A", .holdToDisable(.a)), ("toggle:p", .toggle(.p)), ("always", .always)] {
            if let mode {
                try s.set("fps.clutch", to: text)
                #expect(s.fps.clutch == mode)
                #expect(s.value(of: "fps.clutch") == mode.description)
            } else {
                #expect(throws: MappingSettingError.self) { try s.set("fps.clutch", to: text) }
            }
        }
        try s.set("calibration.rest_gate", to: "off")
        #expect(!s.sensors.restGate)
        try s.set("fps.space", to: " World ")
        #expect(s.fps.space == .world)
        let before = s
        for (key, value) in [("fps.space", "screen"), ("fps.clutch", "hold:"), ("fps.clutch", "hold:AB"),
                             ("calibration.mode", "sometimes"), ("calibration.rest_gate", "maybe"),
                             ("calibration.duration", "0.1"), ("sensors.accelerometer", "sideways")] {
            #expect(throws: MappingSettingError.self) { try s.set(key, to: value) }
        }
        #expect(s == before)
        do {
            try s.set("fps.clutch", to: "grab:C")
            Issue.record("accepted a bad clutch")
        } catch {
            #expect(error.message == "fps.clutch: \"grab:C\" is not allowed; use one of: always, hold:X, toggle:X, off-while:X (X a button A–P)")
        }
    }

    @Test func codableRoundTrip() throws {
        var s = MappingSettings()
        s.mode = .fps
        s.fps.clutch = .toggle(.d)
        s.sensors.calibrationMode = .off
        s.filter = .lowPass(factor: 0.4)
        s.fps.countsPer360 = 7200
        let data = try JSONEncoder().encode(s)
        #expect(try JSONDecoder().decode(MappingSettings.self, from: data) == s)
    }
}
