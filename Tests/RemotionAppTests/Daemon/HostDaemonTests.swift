import Foundation
import NIOCore
import NIOPosix
import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol
import RemotionTestSupport
import Synchronization
import Testing

/// The composition root run whole: `HostDaemon.start` binds and wires
/// every service as `remotion host` does (UDP controllers, the web controller page, the
/// control socket, the dashboard), a real controller streams over loopback into the log
/// injector, and cancelling `run` stops it all: the held button released, the stop line
/// said, the private files removed and the ports free. Real sockets on 127.0.0.1 with port 0;
/// only the OS injector is the log (no display here) and discovery is off (no avahi here).
@Suite(.serialized) struct HostDaemonTests {
    /// Lines a HostConsole wrote, kept for the checks.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        func append(_ text: String) { lines.withLock { $0.append(text) } }
        var text: String { lines.withLock { $0.joined() } }
    }

    @Test func theWholeDaemonServesAControllerAndStopsCleanly() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("remotion-daemon-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = Lines(), err = Lines()
        let console = HostConsole(interactive: false, stdout: { out.append($0) }, stderr: { err.append($0) })
        var options = HostDaemon.Options(instance: try InstanceName("daemon test"), dataDirectory: dir)
        options.controllers.bind = "127.0.0.1"
        options.controllers.port = 0
        options.injection.choice = .log
        options.controllers.insecure = true
        options.discovery = false
        options.injection.environment = ["XDG_RUNTIME_DIR": dir.appendingPathComponent("runtime").path]
        options.web.port = 0
        options.web.rtcPorts = nil
        options.dashboardPort = 0
        options.readyFile = dir.appendingPathComponent("ready.json").path

        let daemon = try await HostDaemon.start(options, console: console)
        // The readiness record: written by run() once every port listens and signals are handled.
        #expect(!FileManager.default.fileExists(atPath: options.readyFile!), "not ready before run()")
        let running = Task { try await daemon.run() }
        #expect(await eventually(within: .seconds(30)) { FileManager.default.fileExists(atPath: options.readyFile!) })
        let ready = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: options.readyFile!)))
                                 as? [String: Any])
        let udpPort = try #require(ready["udpPort"] as? Int)
        let webPort = try #require(ready["webPort"] as? Int)
        let dashboardPort = try #require(ready["dashboardPort"] as? Int)
        let controlPath = try #require(ready["controlSocket"] as? String)
        #expect(udpPort > 0 && webPort > 0 && dashboardPort > 0)
        let tokenFile = try #require(DashboardAddressFile.path(dataDirectory: dir, environment: options.injection.environment))
        #expect(DashboardAddressFile.read(tokenFile) == ready["dashboardURL"] as? String,
                "the dashboard's token file holds its address while it runs, in XDG_RUNTIME_DIR")
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("dashboard-url").path), "and not in the data directory")

        // The control socket answers.
        let control = try await ControlClient.connect(path: controlPath)
        let status = try await control.send(ControlRequest("status"))
        #expect(status.ok, "status over the control socket: \(status)")
        // Every command has an answer on this host (no pairing with --insecure, the web's own).
        for command in ControlCommand.allCases {
            let answer = try await control.send(ControlRequest(command.rawValue))
            let error = answer.fields["error"].map { "\($0)" } ?? ""
            switch command {
            case .pairWindow, .pairWait, .pairDecide: #expect(!answer.ok && error.contains("--insecure"), "\(command): \(answer)")
            case .webPairDecide: #expect(!answer.ok && error.contains("code"), "\(command) without a code: \(answer)")
            case .status, .webPairWindow, .webStats, .webPairRequests: #expect(answer.ok, "\(command): \(answer)")
            }
        }
        await control.close()

        // A controller streams and presses A; the host lets go of nothing early.
        let plan = StreamPlan(source: SyntheticMotion(shape: .circle), rate: 60, duration: 30,
                              presses: PressScript(presses: [.init(button: .a, at: 0.2, hold: 60)]))
        let client = try await ClientService<PlainClientFraming>.start(
            host: try SocketAddress(ipAddress: "127.0.0.1", port: udpPort), sessionID: SessionID(0xDAE), plan: plan,
            makeFraming: { PlainClientFraming() })
        #expect(await eventually(within: .seconds(30)) { out.text.contains("\"state\":\"down\"") },
                "the press reaches the log injector: \(out.text.suffix(400))")
        #expect(out.text.contains("\"kind\":\"move"), "and the motion")
        #expect(!out.text.contains("\"state\":\"up\""), "still held while the controller holds it")
        // The status event comes on the status cadence, not with the press: waited for.
        #expect(await eventually(within: .seconds(30)) { err.text.contains("\"event\":\"controller\",\"session\":\"00000dae\"") },
                "the status events go through the console: \(err.text.suffix(400))")

        // Stop while the button is held: everything is released and closed.
        running.cancel()
        _ = try? await running.value
        await client.close()
        #expect(out.text.contains("\"state\":\"up\""), "the held button is released at stop: \(out.text.suffix(400))")
        #expect(err.text.contains("every held input released"), "the stop line: \(err.text.suffix(400))")
        #expect(!FileManager.default.fileExists(atPath: tokenFile), "the dashboard's token file is removed at stop")
        #expect(await !ControlClient.isAnswering(path: controlPath), "the control socket is closed")
        for (port, what) in [(udpPort, "UDP"), (webPort, "web"), (dashboardPort, "dashboard")] {
            let bound = await bindOnce(port, udp: what == "UDP")
            #expect(bound == nil, "the \(what) port \(port) is free again: \(bound ?? "")")
        }
    }

    /// Binds the port on 127.0.0.1 (no SO_REUSEADDR: a socket left open would refuse it); nil
    /// when it binds, else what failed. A socket the process cannot make yet (its descriptors
    /// spent by the tests beside it, on a loaded machine) is tried again for up to 10 s: that
    /// says nothing of the port. Failed once in a loaded fresh run, all three ports at once,
    /// before the failure was told apart.
    private func bindOnce(_ port: Int, udp: Bool) async -> String? {
        let deadline = ContinuousClock.now + .seconds(10)
        var fd = socket(AF_INET, udp ? Int32(SOCK_DGRAM.rawValue) : Int32(SOCK_STREAM.rawValue), 0)
        while fd < 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(50))
            fd = socket(AF_INET, udp ? Int32(SOCK_DGRAM.rawValue) : Int32(SOCK_STREAM.rawValue), 0)
        }
        guard fd >= 0 else { return "no socket to try it with: \(String(cString: strerror(errno)))" }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return rc == 0 ? nil : "bind: \(String(cString: strerror(errno)))"
    }
}
