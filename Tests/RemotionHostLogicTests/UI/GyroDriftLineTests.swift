import Foundation
import RemotionProtocol
import RemotionHostLogic
import Testing

/// The terminal view's second gyro line: residual drift at rest and the calibration's age
/// (docs/UI.md), and the JSON the dashboard reads them from.
@Suite struct GyroDriftLineTests {
    static func controller(_ gyro: GyroStatus) -> ControllerStatus {
        ControllerStatus(session: SessionID(0xabcd), name: "Pixel 7", address: "192.168.1.20:50123", state: .connected,
                         mappingMode: "fps", gyro: gyro)
    }

    @Test func driftAndAgeShowUnderTheGyroLineOnceKnown() {
        var gyro = GyroStatus(calibration: .calibrated, confidence: 1, biasDegreesPerSecond: [0.01, -0.02, 0], still: true)
        let view = ControlView(width: 100)
        let without = view.block(for: Self.controller(gyro))
        #expect(without.last?.hasPrefix("  gyro calibrated 100%") == true, "no drift line before anything is known")

        gyro.residualDriftDegreesPerMinute = 0.4236
        gyro.calibrationAgeSeconds = 185
        let with = view.block(for: Self.controller(gyro))
        #expect(with.count == without.count + 1)
        #expect(with.last == "       drift 0.42 °/min at rest · calibrated 3 min ago")

        gyro.residualDriftDegreesPerMinute = nil
        gyro.calibrationAgeSeconds = 2.5 * 86_400
        #expect(gyro.driftSummary == "calibrated 2 d ago")
        #expect([GyroStatus.age(-3), GyroStatus.age(59.9), GyroStatus.age(7200), GyroStatus.age(.infinity)]
                == ["0 s", "59 s", "2 h", "0 s"])
    }

    @Test func theNewFieldsTravelInTheJSONAndOldJSONStillDecodes() throws {
        var gyro = GyroStatus(calibration: .calibrated, confidence: 0.5)
        gyro.residualDriftDegreesPerMinute = 1.5
        gyro.calibrationAgeSeconds = 42
        let json = try JSONEncoder().encode(gyro)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(object["residualDriftDegreesPerMinute"] as? Double == 1.5 && object["calibrationAgeSeconds"] as? Double == 42)
        #expect(try JSONDecoder().decode(GyroStatus.self, from: json) == gyro)
        let old = #"{"calibration":"calibrated","progress":0,"confidence":1,"biasDegreesPerSecond":[0,0,0],"still":false,"clutchEngaged":true,"fused":false}"#
        let decoded = try JSONDecoder().decode(GyroStatus.self, from: Data(old.utf8))
        #expect(decoded.residualDriftDegreesPerMinute == nil && decoded.calibrationAgeSeconds == nil)
    }
}
