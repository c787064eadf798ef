import Foundation
import RemotionApp
import RemotionHostLogic
import Testing

/// POST /api/calibrate and the gyro settings in the form, on a real server on 127.0.0.1.
@Suite(.timeLimit(.minutes(1)))
struct DashboardCalibrationTests {
    private func start(_ settings: InMemorySettingsControl) async throws -> (DashboardServer, Int) {
        let server = DashboardServer()
        let port = try await server.start(host: "127.0.0.1", port: 0, publisher: SnapshotPublisher(), settings: settings)
        return (server, port)
    }

    private func error(_ response: RawClient.HTTPResponse) -> String {
        (try? JSONDecoder().decode([String: String].self, from: Data(response.body.utf8)))?["error"] ?? ""
    }

    @Test func calibrateStartsAKnownControllerOnly() async throws {
        let control = InMemorySettingsControl(controllers: ["0000abcd"])
        let (server, port) = try await start(control)
        let ok = try await RawClient.request(port, "POST", "/api/calibrate", token: server.token, body: #"{"session":"0000abcd"}"#)
        #expect(ok.status == 200)
        #expect(try JSONDecoder().decode([String: String].self, from: Data(ok.body.utf8))
                == ["session": "0000abcd", "result": "started"])
        let unknown = try await RawClient.request(port, "POST", "/api/calibrate", token: server.token, body: #"{"session":"00001234"}"#)
        #expect(unknown.status == 404 && error(unknown).contains("no controller"))
        let bad = try await RawClient.request(port, "POST", "/api/calibrate", token: server.token, body: #"{"controller":1}"#)
        #expect(bad.status == 400 && error(bad).contains("expected a JSON object"))
        #expect(try await RawClient.request(port, "GET", "/api/calibrate").status != 200)
        #expect(control.calibrationRequests == ["0000abcd"])
        await server.shutdown()
    }

    /// POST /api/pad gives one controller a virtual pad or takes it away (the dashboard's
    /// "Give a pad"); 404 for an unknown controller or a host without pads; 400 for bad JSON.
    @Test func padIsGivenAndTakenForAKnownControllerOnly() async throws {
        let control = InMemorySettingsControl(controllers: ["0000abcd"])
        let (server, port) = try await start(control)
        let none = try await RawClient.request(port, "POST", "/api/pad", token: server.token, body: #"{"session":"0000abcd","on":true}"#)
        #expect(none.status == 404 && error(none).contains("--gamepad dualsense"), "a host without pads")
        control.pads.withLock { $0 = [] }
        let on = try await RawClient.request(port, "POST", "/api/pad", token: server.token, body: #"{"session":"0000abcd","on":true}"#)
        #expect(on.status == 200 && on.body.contains(#""pad":true"#))
        #expect(control.pads.withLock { $0 } == ["0000abcd"])
        let off = try await RawClient.request(port, "POST", "/api/pad", token: server.token, body: #"{"session":"0000abcd","on":false}"#)
        #expect(off.status == 200 && off.body.contains(#""pad":false"#) && control.pads.withLock { $0 } == [])
        let unknown = try await RawClient.request(port, "POST", "/api/pad", token: server.token, body: #"{"session":"00001234","on":true}"#)
        #expect(unknown.status == 404)
        let bad = try await RawClient.request(port, "POST", "/api/pad", token: server.token, body: #"{"session":"0000abcd"}"#)
        #expect(bad.status == 400)
        #expect(try await RawClient.request(port, "POST", "/api/pad", body: #"{"session":"0000abcd","on":true}"#).status != 200,
                "not without the dashboard's token")
        let page = try await RawClient.request(port, "GET", "/")
        #expect(page.body.contains("pad-toggle"))
        await server.shutdown()
    }

    @Test func calibrateIsRefusedWhileCalibrationIsOff() async throws {
        let control = InMemorySettingsControl(controllers: ["0000abcd"])
        let (server, port) = try await start(control)
        let off = try await RawClient.request(port, "POST", "/api/settings", token: server.token, body: #"{"key":"calibration.mode","value":"off"}"#)
        #expect(off.status == 200)
        let refused = try await RawClient.request(port, "POST", "/api/calibrate", token: server.token, body: #"{"session":"0000abcd"}"#)
        #expect(refused.status == 409 && error(refused).contains("calibration.mode = off"))
        #expect(control.calibrationRequests.isEmpty)
        await server.shutdown()
    }

    @Test func theFormOffersTheGyroSettings() async throws {
        let (server, port) = try await start(InMemorySettingsControl())
        let read = try await RawClient.request(port, "GET", "/api/settings")
        let view = try JSONDecoder().decode(SettingsView.self, from: Data(read.body.utf8))
        #expect(view.choices["fps.space"] == ["local", "player", "world"])
        #expect(view.choices["calibration.mode"] == ["continuous", "manual", "off"])
        #expect(view.choices["calibration.rest_gate"] == ["true", "false"])
        #expect(view.choices["sensors.accelerometer"] == ["up", "down"])
        #expect(view.values["fps.clutch"] == "always" && view.values["calibration.duration"] == "3.0")
        let clutch = try await RawClient.request(port, "POST", "/api/settings", token: server.token, body: #"{"key":"fps.clutch","value":"off-while:B"}"#)
        #expect(clutch.status == 200)
        let page = try await RawClient.request(port, "GET", "/")
        for key in ["fps.space", "fps.clutch", "calibration.mode", "calibration.duration", "calibration.rest_gate",
                    "sensors.accelerometer"] {
            #expect(page.body.contains("data-key=\"\(key)\""), "\(key) is in the form")
        }
        #expect(page.body.contains("class=\"calibrate\""))
        let script = try await RawClient.request(port, "GET", "/assets/dashboard.js")
        #expect(script.body.contains("/api/calibrate"))
        await server.shutdown()
    }

    /// Gyro as a pad stick (`gyro_stick.*`, docs/GAMEPAD.md): its target a select in the form,
    /// set live through the API; a bad value answered with the one-line message.
    @Test func theFormOffersTheGyroStick() async throws {
        let (server, port) = try await start(InMemorySettingsControl())
        let read = try await RawClient.request(port, "GET", "/api/settings")
        let view = try JSONDecoder().decode(SettingsView.self, from: Data(read.body.utf8))
        #expect(view.choices["gyro_stick.target"] == ["off", "right", "left"])
        #expect(view.values["gyro_stick.target"] == "off" && view.values["gyro_stick.rate"] == "360.0")
        let on = try await RawClient.request(port, "POST", "/api/settings", token: server.token,
                                             body: #"{"key":"gyro_stick.target","value":"left"}"#)
        #expect(on.status == 200 && on.body.contains(#""gyro_stick.target":"left""#), "\(on.body)")
        let bad = try await RawClient.request(port, "POST", "/api/settings", token: server.token,
                                              body: #"{"key":"gyro_stick.target","value":"up"}"#)
        #expect(bad.status == 400 && bad.body.contains("use one of: off, right, left"), "\(bad.body)")
        let page = try await RawClient.request(port, "GET", "/")
        for key in ["gyro_stick.target", "gyro_stick.rate"] {
            #expect(page.body.contains("data-key=\"\(key)\""), "\(key) is in the form")
        }
        await server.shutdown()
    }
}
