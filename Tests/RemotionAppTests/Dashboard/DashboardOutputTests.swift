import Foundation
import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import Testing

/// PUT /api/output and the snapshot's `outputs`, on a real dashboard server on 127.0.0.1 over
/// a real host loop whose injector has two outputs (the wlroots injector's model).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct DashboardOutputTests {
    static let left = PointerArea.Output(name: "HEADLESS-1", x: 0, y: 0, width: 1280, height: 720, scale: 1)
    static let right = PointerArea.Output(name: "HEADLESS-2", x: 1280, y: 0, width: 512, height: 384, scale: 2)

    struct Host {
        let rig: PipelineRig
        let server: DashboardServer
        let port: Int
        let directory: URL
        var config: URL { directory.appendingPathComponent("config.toml") }

        func stop() async {
            await server.shutdown()
            await rig.stop()
            try? FileManager.default.removeItem(at: directory)
        }

        /// What the injector's pointer covers now, read on the host's loop.
        func covered() async throws -> String? {
            try await rig.host.onLoop { ($0.sink.injector.backend as? LayoutBackend)?.pointerArea.outputName }
        }

        func put(_ body: String, token: Bool = true) async throws -> RawClient.HTTPResponse {
            try await RawClient.request(port, "PUT", "/api/output", token: token ? server.token : nil, body: body)
        }
    }

    private func start(outputs: Bool = true, commandLine: Bool = false, config: String = "",
                       configPath: ((URL) -> String)? = nil) async throws -> Host {
        let rig = try await PipelineRig.start(
            backend: {
                outputs ? LayoutBackend(outputs: [DashboardOutputTests.left, DashboardOutputTests.right], chosen: "HEADLESS-1")
                    as any InjectorBackend
                    : VirtualScreenBackend(geometry: ScreenGeometry(width: 1920, height: 1080)) as any InjectorBackend
            },
            configure: { $0.outputFromCommandLine = commandLine })
        try await rig.host.announceStart()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("remotion-outputs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("config.toml")
        if !config.isEmpty { try Data(config.utf8).write(to: file) }
        let path = configPath?(directory) ?? file.path
        let control = HostLoopSettingsControl(host: HostLoop(rig.host), saveOutput: { try ConfigFile.setInjectOutput($0, path: path) })
        let server = DashboardServer()
        let port = try await server.start(host: "127.0.0.1", port: 0, publisher: rig.publisher, settings: control)
        return Host(rig: rig, server: server, port: port, directory: directory)
    }

    private func error(_ response: RawClient.HTTPResponse) -> String {
        (try? JSONDecoder().decode([String: String].self, from: Data(response.body.utf8)))?["error"] ?? ""
    }

    private func snapshotOutputs(_ host: Host) async throws -> PointerOutputs? {
        let read = try await RawClient.request(host.port, "GET", "/api/snapshot")
        return try JSONDecoder().decode(HostSnapshot.self, from: Data(read.body.utf8)).outputs
    }

    @Test func theTokenedRequestSwitchesTheOutputAndSavesItKeepingTheFile() async throws {
        let original = "# my desk\n[mapping]\nmode = \"fps\"   # games\n"
        let host = try await start(config: original)
        let before = try await snapshotOutputs(host)
        #expect(before == PointerOutputs(outputs: [Self.left, Self.right], chosen: "HEADLESS-1", inUse: "HEADLESS-1", commandLine: false))

        let refused = try await host.put(#"{"output":"HEADLESS-2"}"#, token: false)
        #expect(refused.status == 403, "not without the dashboard's token")
        #expect(try await host.covered() == "HEADLESS-1")
        #expect(try String(contentsOf: host.config, encoding: .utf8) == original)

        let ok = try await host.put(#"{"output":"HEADLESS-2"}"#)
        #expect(ok.status == 200)
        let answered = try JSONDecoder().decode(PointerOutputs.self, from: Data(ok.body.utf8))
        #expect(answered.inUse == "HEADLESS-2" && answered.chosen == "HEADLESS-2")
        #expect(try await host.covered() == "HEADLESS-2")
        #expect(try await snapshotOutputs(host)?.inUse == "HEADLESS-2", "the snapshot says so at once")
        #expect(try String(contentsOf: host.config, encoding: .utf8) == original + "\n[inject]\noutput = \"HEADLESS-2\"\n")

        // The next aim is on the chosen output: the mapper's screen is its size.
        let size = try await host.rig.host.onLoop { $0.sink.injector.backend.screenGeometry() }
        #expect(size == ScreenGeometry(width: 512, height: 384))

        let again = try await host.put(#"{"output":"HEADLESS-1"}"#)
        #expect(again.status == 200)
        #expect(try await host.covered() == "HEADLESS-1")
        #expect(try String(contentsOf: host.config, encoding: .utf8) == original + "\n[inject]\noutput = \"HEADLESS-1\"\n",
                "the key is replaced, not added twice")
        await host.stop()
    }

    @Test func anUnknownOrHostileNameIsRefusedInOneLineAndChangesNothing() async throws {
        let host = try await start(config: "[inject]\noutput = \"HEADLESS-1\"\n")
        let unknown = try await host.put(#"{"output":"DP-9"}"#)
        #expect(unknown.status == 400)
        #expect(error(unknown).contains("no output named \"DP-9\"") && error(unknown).contains("HEADLESS-2 512x384 at 1280,0 scale 2"))
        #expect(!error(unknown).contains("\n"))
        for body in [#"{"output":"a\nb"}"#, #"{"output":""}"#, #"{"output":"x\" \n[buttons]"}"#, #"{"output":"\u001b[2J"}"#,
                     "{\"output\":\"\(String(repeating: "x", count: 64))\"}"] {
            let bad = try await host.put(body)
            #expect(bad.status == 400 && error(bad).contains("1 to 63 bytes"), "\(body)")
        }
        let notJSON = try await host.put(#"{"name":"HEADLESS-2"}"#)
        #expect(notJSON.status == 400 && error(notJSON).contains("expected a JSON object"))
        let form = try await RawClient.request(host.port, "PUT", "/api/output", token: host.server.token,
                                               body: "output=HEADLESS-2", contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 415)
        let foreign = try await RawClient.request(host.port, "PUT", "/api/output", token: host.server.token,
                                                  body: #"{"output":"HEADLESS-2"}"#, headers: ["Origin: http://evil.test"])
        #expect(foreign.status == 403)
        #expect(try await host.covered() == "HEADLESS-1")
        #expect(try String(contentsOf: host.config, encoding: .utf8) == "[inject]\noutput = \"HEADLESS-1\"\n")
        await host.stop()
    }

    @Test func theCommandLineDecidesWhenOutputWasGiven() async throws {
        let host = try await start(commandLine: true)
        #expect(try await snapshotOutputs(host)?.commandLine == true)
        let refused = try await host.put(#"{"output":"HEADLESS-2"}"#)
        #expect(refused.status == 409 && error(refused).contains("--output HEADLESS-1"))
        #expect(try await host.covered() == "HEADLESS-1")
        #expect(!FileManager.default.fileExists(atPath: host.config.path), "nothing written")
        await host.stop()
    }

    @Test func anInjectorWithoutOutputsHasNoneToChoose() async throws {
        let host = try await start(outputs: false)
        let read = try await RawClient.request(host.port, "GET", "/api/snapshot")
        #expect(read.body.contains(#""outputs":null"#))
        let refused = try await host.put(#"{"output":"HEADLESS-2"}"#)
        #expect(refused.status == 404 && error(refused).contains("covers the whole screen"))
        #expect(!FileManager.default.fileExists(atPath: host.config.path))
        await host.stop()
    }

    @Test func aFileThatCannotBeWrittenIsSaidButThePointerFollows() async throws {
        // The config's directory is a file: the directory cannot be made.
        let host = try await start(configPath: { dir in
            let blocker = dir.appendingPathComponent("blocker")
            _ = FileManager.default.createFile(atPath: blocker.path, contents: Data())
            return blocker.appendingPathComponent("config.toml").path
        })
        let answer = try await host.put(#"{"output":"HEADLESS-2"}"#)
        #expect(answer.status == 500 && error(answer).contains("not saved") && error(answer).contains("blocker/config.toml"))
        #expect(try await host.covered() == "HEADLESS-2")
        await host.stop()
    }
}

/// An injector with outputs, as the wlroots injector models them: a pointer over the chosen
/// output, `PointerArea`'s rule, moves recorded. Lives on the host's loop like every backend.
final class LayoutBackend: OutputChoosingBackend {
    let name = "layout"
    let outputs: [PointerArea.Output]
    private(set) var chosenOutput: String?
    private(set) var pointerArea: PointerArea

    init(outputs: [PointerArea.Output], chosen: String?) {
        self.outputs = outputs
        chosenOutput = chosen
        pointerArea = PointerArea.choose(chosen, among: outputs)
    }

    func screenGeometry() -> ScreenGeometry { ScreenGeometry(width: pointerArea.size.width, height: pointerArea.size.height) }
    func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {}
    func flush() throws(InjectionError) {}
    func close() {}

    func choose(output name: String) throws(InjectionError) -> String? {
        guard let o = outputs.first(where: { $0.name == name }) else {
            throw InjectionError(.unsupported, backend: self.name, "the compositor has no output named \"\(name)\" (it has: "
                                 + outputs.map(\.description).joined(separator: "; ") + ")")
        }
        chosenOutput = name
        guard pointerArea != .output(o) else { return nil }
        pointerArea = .output(o)
        return pointerArea.chosenLine
    }
}
