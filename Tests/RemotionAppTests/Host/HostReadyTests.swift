import Foundation
import RemotionApp
import Testing

/// The readiness record (`HostReady`): the `--ready-file` (0600) has every field, the secrets
/// included; the `--json` event on stdout, which a user unit sends to the journal, has neither
/// the phone pairing link nor the dashboard's tokened address (docs/SECURITY.md §5.3, §9).
@Suite struct HostReadyTests {
    static func ready() -> HostReady {
        var ready = HostReady(udp: "127.0.0.1:40321", udpPort: 40321)
        ready.webPort = 40322
        ready.pairingURL = "https://192.168.1.5:40322/#pair=SECRETSECRETSECRETSECRE&fp=AB"
        ready.dashboardPort = 40323
        ready.dashboardURL = "http://127.0.0.1:40323/#token=TOKENTOKENTOKEN"
        ready.controlSocket = "/run/x/control.sock"
        return ready
    }

    /// With a pairing window open at start, `--json` wrote the link into the
    /// ready event (this test failed on main: the event held `#pair=SECRET…`).
    @Test func theJSONEventCarriesNoPairingLinkAndNoToken() throws {
        let event = Self.ready().json
        #expect(!event.contains("#pair=") && !event.contains("SECRET") && !event.contains("pairingURL"))
        #expect(!event.contains("TOKEN") && !event.contains("dashboardURL"))
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any])
        #expect(fields["webPort"] as? Int == 40322 && fields["dashboardPort"] as? Int == 40323)
        #expect(fields["controlSocket"] as? String == "/run/x/control.sock")
    }

    @Test func theReadyFileHasBothSecretsAndIsTheUsersAlone() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ready-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("ready.json").path
        try Self.ready().write(to: path)
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        #expect((fields["pairingURL"] as? String)?.contains("#pair=SECRET") == true)
        #expect((fields["dashboardURL"] as? String)?.contains("#token=TOKEN") == true)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}
