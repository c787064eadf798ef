import Foundation
import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import Testing

/// A real dashboard on 127.0.0.1 (port 0), with an in-memory settings control.
struct Fixture {
    let server: DashboardServer
    let publisher: SnapshotPublisher
    let settings: InMemorySettingsControl
    let port: Int

    static func start() async throws -> Fixture {
        let server = DashboardServer(), publisher = SnapshotPublisher(), settings = InMemorySettingsControl()
        let port = try await server.start(host: "127.0.0.1", port: 0, publisher: publisher, settings: settings)
        return Fixture(server: server, publisher: publisher, settings: settings, port: port)
    }

    private init(server: DashboardServer, publisher: SnapshotPublisher, settings: InMemorySettingsControl, port: Int) {
        self.server = server; self.publisher = publisher; self.settings = settings; self.port = port
    }
}

func snapshot(controllers: Int, roll: Double = 0.1, name: String = "test-host") -> HostSnapshot {
    var s = HostSnapshot()
    s.hostName = name
    s.listen = "127.0.0.1:7474"
    s.controllers = (0..<controllers).map { i in
        var c = ControllerSnapshot(session: SessionID(UInt32(0x100 + i)), address: "127.0.0.1:\(5000 + i)")
        c.name = "phone \(i)"
        c.attitude = Attitude(roll: roll, pitch: 0.2, yaw: 0.3)
        c.pointer = ScreenPoint(x: 10, y: 20)
        c.buttons = ButtonSet([.a])
        c.held = [.mouse(.left)]
        c.packetRate = 120
        c.lossPercent = 0.5
        c.latencyP50Ms = 0.3
        c.latencyP99Ms = 1.2
        c.latencyHistogram = [0, 5, 90, 4, 1, 0, 0, 0, 0, 0]
        c.motionPackets = 100
        c.buttonEdges = 2
        c.trail = [ScreenPoint(x: 1, y: 2), ScreenPoint(x: 3, y: 4)]
        return c
    }
    return s
}

struct Decoded: Decodable {
    var type: String
    var generation: Int?
    var snapshot: HostSnapshot?
    var settings: SettingsView?
    var error: String?
}

func decode(_ text: String) throws -> Decoded { try JSONDecoder().decode(Decoded.self, from: Data(text.utf8)) }

@Suite(.timeLimit(.minutes(1)))
struct DashboardHTTPTests {
    @Test func servesThePageAndItsFiles() async throws {
        let f = try await Fixture.start()
        let page = try await RawClient.request(f.port, "GET", "/")
        #expect(page.status == 200)
        #expect(page.headers.lowercased().contains("content-type: text/html"))
        #expect(page.body.contains("class=\"cube\""))
        let script = try await RawClient.request(f.port, "GET", "/assets/dashboard.js")
        #expect(script.status == 200)
        #expect(script.body.contains("data") && script.body.contains("/api/settings"))
        let css = try await RawClient.request(f.port, "GET", "/assets/dashboard.css")
        #expect(css.status == 200 && css.headers.lowercased().contains("text/css"))
        #expect(try await RawClient.request(f.port, "GET", "/assets/missing.js").status == 404)
        await f.server.shutdown()
    }

    @Test func snapshotIsThePublishedOneAsJSON() async throws {
        let f = try await Fixture.start()
        let published = snapshot(controllers: 2)
        f.publisher.publish(published)
        let response = try await RawClient.request(f.port, "GET", "/api/snapshot")
        #expect(response.status == 200)
        #expect(response.headers.lowercased().contains("content-type: application/json"))
        let decoded = try JSONDecoder().decode(HostSnapshot.self, from: Data(response.body.utf8))
        #expect(decoded == published)
        await f.server.shutdown()
    }

    @Test func validSettingChangesTheSettings() async throws {
        let f = try await Fixture.start()
        let response = try await RawClient.request(f.port, "POST", "/api/settings", token: f.server.token, body: #"{"key":"sensitivity","value":"2.5"}"#)
        #expect(response.status == 200)
        let view = try JSONDecoder().decode(SettingsView.self, from: Data(response.body.utf8))
        #expect(view.values["sensitivity"] == "2.5")
        #expect(await f.settings.current().sensitivity == 2.5)
        let mode = try await RawClient.request(f.port, "POST", "/api/settings", token: f.server.token, body: #"{"key":"mode","value":"fps"}"#)
        #expect(mode.status == 200)
        #expect(await f.settings.current().mode == .fps)
        let read = try await RawClient.request(f.port, "GET", "/api/settings")
        let readView = try JSONDecoder().decode(SettingsView.self, from: Data(read.body.utf8))
        #expect(readView.values["mode"] == "fps" && readView.choices["filter"] == ["none", "lowpass", "oneeuro"])
        await f.server.shutdown()
    }

    @Test func invalidSettingsAnswer400WithTheMessage() async throws {
        let f = try await Fixture.start()
        let cases: [(String, String)] = [
            (#"{"key":"sensitivity","value":"-3"}"#, "sensitivity: -3 is out of range"),
            (#"{"key":"sensitivity","value":"fast"}"#, "is not a number"),
            (#"{"key":"mode","value":"joystick"}"#, "use one of: pointer, fps, seed"),
            (#"{"key":"warp","value":"1"}"#, "unknown setting \"warp\""),
            ("not json", "expected a JSON object"),
        ]
        for (body, message) in cases {
            let response = try await RawClient.request(f.port, "POST", "/api/settings", token: f.server.token, body: body)
            #expect(response.status == 400, "\(body)")
            let error = try JSONDecoder().decode([String: String].self, from: Data(response.body.utf8))["error"] ?? ""
            #expect(error.contains(message), "\(body) → \(error)")
        }
        #expect(await f.settings.current() == MappingSettings())
        await f.server.shutdown()
    }

    @Test func secondServerOnTheSamePortFailsWithAClearError() async throws {
        let f = try await Fixture.start()
        let other = DashboardServer()
        let error = await #expect(throws: DashboardStartError.self) {
            _ = try await other.start(port: f.port, publisher: f.publisher, settings: f.settings)
        }
        // One clear sentence, no NIO internals (it once read "…bind(descriptor:ptr:bytes:): … (errno: 98))").
        #expect(error?.message == "127.0.0.1 port \(f.port) is in use")
        await f.server.shutdown()
    }
}
