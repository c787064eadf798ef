import Foundation
import RemotionHostLogic

/// The settings as the page shows them: every key in display order with its text value,
/// and the choices of the keys that take one.
package struct SettingsView: Codable, Sendable, Equatable {
    package var keys: [String]
    package var values: [String: String]
    package var choices: [String: [String]]

    package init(_ settings: MappingSettings) {
        keys = MappingSettings.keys
        values = Dictionary(uniqueKeysWithValues: keys.map { ($0, settings.value(of: $0)) })
        choices = [
            "mode": MappingSettings.Mode.allCases.map(\.rawValue),
            "filter": FilterSettings.Kind.allCases.map(\.rawValue),
            "fps.calibration": FPSSettings.Calibration.allCases.map(\.rawValue),
            "fps.space": GyroSpace.allCases.map(\.rawValue),
            "calibration.mode": GyroCalibrator.Mode.allCases.map(\.rawValue),
            "calibration.rest_gate": ["true", "false"],
            "sensors.accelerometer": RawMotionPipeline.AccelerometerConvention.allCases.map(\.rawValue),
            "gyro_stick.target": GyroStickSettings.Target.allCases.map(\.rawValue),
        ]
    }
}

/// A settings change, as POST /api/settings's body or a WebSocket text message.
package struct SettingsChange: Codable, Sendable, Equatable {
    package var key: String
    package var value: String
    package init(key: String, value: String) { self.key = key; self.value = value }
}

/// A calibration request, as POST /api/calibrate's body.
/// POST /api/pad: give one controller a virtual pad or take it away.
package struct PadRequest: Codable, Sendable, Equatable {
    package var session: String
    package var on: Bool
    package init(session: String, on: Bool) { self.session = session; self.on = on }
}

/// Its answer: whether the controller has a pad now.
package struct PadAnswer: Codable, Sendable, Equatable {
    package var session: String
    package var pad: Bool
}

package struct CalibrationRequest: Codable, Sendable, Equatable {
    package var session: String
    package init(session: String) { self.session = session }
}

/// What the server sends over the WebSocket (`type` tells which fields are set).
package struct DashboardMessage: Codable, Sendable {
    package enum Kind: String, Codable, Sendable { case snapshot, settings, error }
    package var type: Kind
    /// The publisher's generation the snapshot came from.
    package var generation: Int?
    package var snapshot: HostSnapshot?
    package var settings: SettingsView?
    package var error: String?

    package static func snapshot(_ s: HostSnapshot, generation: Int) -> DashboardMessage {
        DashboardMessage(type: .snapshot, generation: generation, snapshot: s, settings: SettingsView(s.settings))
    }
    package static func settings(_ s: MappingSettings) -> DashboardMessage {
        DashboardMessage(type: .settings, settings: SettingsView(s))
    }
    package static func error(_ message: String) -> DashboardMessage {
        DashboardMessage(type: .error, error: message)
    }
}

/// JSON in and out (non-finite numbers become strings rather than failing).
enum DashboardJSON {
    static func encode<T: Encodable>(_ value: T) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        // Every type encoded here is plain data; encoding cannot fail for them.
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    static func decodeChange(_ data: Data) throws(DashboardRequestError) -> SettingsChange {
        do {
            return try JSONDecoder().decode(SettingsChange.self, from: data)
        } catch {
            throw DashboardRequestError(message: "expected a JSON object {\"key\": \"...\", \"value\": \"...\"}")
        }
    }
}

/// A request the dashboard could not understand.
package struct DashboardRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}
