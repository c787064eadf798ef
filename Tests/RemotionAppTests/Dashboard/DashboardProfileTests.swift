import Foundation
import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import Testing

/// The dashboard's profile editor: PUT /api/profiles through the real server (the guard of
/// every write, a body limit, 400 with the one line and nothing changed), and on a real host's
/// loop (`HostLoopSettingsControl`): applied, then saved into the config file with everything
/// else kept, a held input released when its profile is edited away.
@Suite(.timeLimit(.minutes(1)))
struct DashboardProfileRouteTests {
    static let beta = #"{"profiles":[{"app":"beta","controller":"phone","entries":[{"key":"mode","value":"fps"},{"key":"b","value":"key:space"}]}]}"#

    static func error(_ r: RawClient.HTTPResponse) -> String {
        (try? JSONDecoder().decode([String: String].self, from: Data(r.body.utf8)))?["error"] ?? r.body
    }

    @Test func theWholeListIsReplacedAndAnsweredAsInForce() async throws {
        let f = try await Fixture.start()
        let r = try await RawClient.request(f.port, "PUT", "/api/profiles", token: f.server.token, body: Self.beta)
        #expect(r.status == 200, "\(r.body)")
        let answer = try JSONDecoder().decode(ProfilesAnswer.self, from: Data(r.body.utf8))
        #expect(answer.profiles.map(\.app) == ["beta"] && answer.profiles[0].controller == "phone" && answer.profiles[0].mode == "fps")
        #expect(answer.profiles[0].entries == [.init(key: "mode", value: "fps"), .init(key: "B", value: "key:space")])
        #expect(f.settings.profiles.withLock { $0.list.map(\.app) } == ["beta"])
        let emptied = try await RawClient.request(f.port, "PUT", "/api/profiles", token: f.server.token, body: #"{"profiles":[]}"#)
        #expect(emptied.status == 200 && f.settings.profiles.withLock { $0.isEmpty })
        await f.server.shutdown()
    }

    @Test func aBadProfileIs400WithItsLineAndNothingChanges() async throws {
        let f = try await Fixture.start()
        _ = try await RawClient.request(f.port, "PUT", "/api/profiles", token: f.server.token, body: Self.beta)
        let cases: [(String, String)] = [
            (#"{"profiles":[{"app":"beta","entries":[]},{"app":"gamma","entries":[{"key":"sensitivity","value":"-3"}]}]}"#,
             #"profile 2 ("gamma"): sensitivity: -3 is out of range"#),
            (#"{"profiles":[{"app":"","entries":[]}]}"#, "profile 1: app needs the application's name"),
            (#"{"profiles":[{"app":"x","controller":"mouse","entries":[]}]}"#, #"profile 1 ("x"): controller must be"#),
            (#"{"profiles":[{"app":"x","entries":[{"key":"mode","value":"fps\"\n[inject]"}]}]}"#, #"profile 1 ("x"): mode: "#),
            (#"{"profiles":{"app":"x"}}"#, "expected a JSON object {\"profiles\""),
            ("not json", "expected a JSON object"),
        ]
        for (body, message) in cases {
            let r = try await RawClient.request(f.port, "PUT", "/api/profiles", token: f.server.token, body: body)
            #expect(r.status == 400, "\(body) → \(r.status)")
            #expect(Self.error(r).hasPrefix(message) && !Self.error(r).contains("\n"), "\(body) → \(Self.error(r))")
        }
        #expect(f.settings.profiles.withLock { $0.list.map(\.app) } == ["beta"], "nothing applied")
        await f.server.shutdown()
    }

    /// The same guard as every write: the token, the Origin, JSON; and a bounded body.
    @Test func itIsGuardedLikeEveryWrite() async throws {
        let f = try await Fixture.start()
        let refused: [(RawClient.HTTPResponse, Int, String)] = [
            (try await RawClient.request(f.port, "PUT", "/api/profiles", body: Self.beta), 403, "no token"),
            (try await RawClient.request(f.port, "PUT", "/api/profiles", token: "wrong", body: Self.beta), 403, "a wrong token"),
            (try await RawClient.request(f.port, "POST", "/api/profiles", body: Self.beta), 403, "a POST without the token"),
            (try await RawClient.request(f.port, "PUT", "/api/profiles", token: f.server.token, body: Self.beta,
                                         headers: ["Origin: http://127.0.0.2:8000"]), 403, "another origin"),
            (try await RawClient.request(f.port, "PUT", "/api/profiles", token: f.server.token, body: Self.beta,
                                         host: "evil.test:\(f.port)"), 403, "another host"),
            (try await RawClient.request(f.port, "PUT", "/api/profiles", token: f.server.token, body: Self.beta,
                                         contentType: "text/plain"), 415, "not JSON"),
            (try await RawClient.request(f.port, "PUT", "/api/profiles", token: f.server.token,
                                         body: #"{"profiles":[],"pad":""# + String(repeating: "x", count: 70_000) + #""}"#), 413, "over 64 KiB"),
        ]
        for (r, status, what) in refused { #expect(r.status == status, "\(what): \(r.status) \(r.body)") }
        #expect(f.settings.profiles.withLock { $0.isEmpty }, "nothing applied")
        #expect((f.server.refusals.current["no-token"] ?? 0) >= 3 && (f.server.refusals.current["bad-origin"] ?? 0) >= 1)
        await f.server.shutdown()
    }
}

/// On a real host's loop with a real config file.
@Suite(.timeLimit(.minutes(1)))
struct HostLoopProfileTests {
    static let file = """
        # mine
        [mapping]
        sensitivity = 1.5

        [[profile]]
        app = "old"
        mode = "fps"

        [inject]
        output = "DP-1"

        """

    static func directory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("profedit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static let spaceOnB = ProfileDraft(app: "beta", entries: [.init(key: "B", value: "key:space"), .init(key: "sensitivity", value: "2")])

    @Test func appliedOnTheLoopThenSavedAndAHeldKeyIsReleasedWhenEditedAway() async throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("config.toml").path
        try Data(Self.file.utf8).write(to: URL(fileURLWithPath: path))
        let rig = try await PipelineRig.start()
        let loop = HostLoop(rig.host)
        let control = HostLoopSettingsControl(host: loop, profilesPath: path)

        let inForce = try await control.setProfiles([Self.spaceOnB])
        #expect(inForce.list.map(\.app) == ["beta"] && inForce.list[0].line == 5, "its line in the new file")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved == Self.file.replacingOccurrences(of: "app = \"old\"\nmode = \"fps\"",
                                                        with: "app = \"beta\"\nB = \"key:space\"\nsensitivity = 2"), "\(saved)")
        #expect(try HostConfig.parse(saved, path: path).profiles.list.map(\.draft) == [Self.spaceOnB])

        // A phone in beta holds space through the profile; the profile edited away releases it.
        let held = try await loop.onLoop { p, now -> Bool in
            p.focus(FocusedApp(appID: "beta"), now: now)
            guard let phone = p.open(from: .web(device: "phone", peer: nil), name: "phone", now: now) else { return false }
            _ = p.perform(.button(.b, isDown: true), for: phone, now: now)
            return p.injector.held[phone]?.isEmpty == false
        }
        #expect(held, "B holds space in beta")
        let after = try await control.setProfiles([ProfileDraft(app: "beta", entries: [.init(key: "mode", value: "fps")])])
        #expect(after.list.map(\.app) == ["beta"])
        let stillHeld = try await loop.onLoop { p, _ in p.injector.held.values.contains { !$0.isEmpty } }
        #expect(!stillHeld, "space released as its profile was edited away")
        await rig.stop()
    }

    /// A setting and the profiles saved at the same moment (the slider moved while Save is
    /// pressed) both land: each reads, changes and replaces the file under one lock.
    @Test func settingsAndProfilesSavedAtOnceKeepEachOther() async throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("config.toml").path
        try Data(Self.file.utf8).write(to: URL(fileURLWithPath: path))
        let profiles = try ProfileDraft.validate([Self.spaceOnB])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for i in 0..<40 {
                group.addTask { try ConfigFile.setMapping(key: "k\(i)", value: "\(i)", path: path) }
                group.addTask { try ConfigFile.saveProfiles(profiles, path: path) }
            }
            try await group.waitForAll()
        }
        let config = try HostConfig.parse(try String(contentsOfFile: path, encoding: .utf8), path: path)
        #expect(Set(config.mapping.map(\.key)) == Set(["sensitivity"] + (0..<40).map { "k\($0)" }), "a setting was lost")
        #expect(config.profiles.list.map(\.draft) == [Self.spaceOnB])
    }

    @Test func aBadProfileOrABrokenFileChangesNothing() async throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("config.toml").path
        try Data(Self.file.utf8).write(to: URL(fileURLWithPath: path))
        let rig = try await PipelineRig.start()
        let loop = HostLoop(rig.host)
        let control = HostLoopSettingsControl(host: loop, profilesPath: path)
        await #expect(throws: ProfileEditError.self) {
            _ = try await control.setProfiles([ProfileDraft(app: "beta", entries: [.init(key: "pad", value: "maybe")])])
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == Self.file)
        #expect(try await loop.onLoop { p, _ in p.focusProfiles.isEmpty })

        // A file broken by hand since the start: one line naming it; nothing applied or written.
        let broken = Self.file + "[mystery]\n"
        try Data(broken.utf8).write(to: URL(fileURLWithPath: path))
        let error = await #expect(throws: ConfigError.self) { _ = try await control.setProfiles([Self.spaceOnB]) }
        #expect(error?.description.hasPrefix("\(path):11: unknown table [mystery]") == true, "\(error?.description ?? "")")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == broken)
        #expect(try await loop.onLoop { p, _ in p.focusProfiles.isEmpty })
        await rig.stop()
    }
}
