import Foundation
import RemotionApp
import RemotionHostLogic
import RemotionProtocol
import Testing

/// What the person sees of `[[profile]]`: the terminal view lists the profiles and the
/// focused app (names from the desktop sanitized), the dashboard's JSON carries them and
/// each controller's profile in force.
@Suite struct ProfileStatusTests {
    static func snapshot() -> HostSnapshot {
        var s = HostSnapshot()
        s.profiles = [ProfileSummary(FocusProfile(app: "beta", mapping: [ConfigEntry(key: "mode", value: "fps", line: 6, quoted: true)], line: 5)),
                      ProfileSummary(FocusProfile(app: "slides", controller: .phone, line: 9))]
        s.focusedApp = "beta\u{1B}[2J"
        var inForce = ControllerSnapshot(session: SessionID(1), address: "127.0.0.1:1")
        inForce.profile = "beta"
        s.controllers = [inForce, ControllerSnapshot(session: SessionID(2), address: "127.0.0.1:2")]
        return s
    }

    @Test func theTerminalViewListsProfilesAndTheFocusedApp() {
        let lines = Self.snapshot().profileLines
        #expect(lines.first == "profiles: beta (fps); slides (phone)")
        #expect(lines.count == 2 && lines[1].hasPrefix("focused app: beta") && !lines[1].contains("\u{1B}"), "\(lines)")
        #expect(lines[1].hasSuffix("(its profile in force for 1 of 2 controllers)"), "\(lines)")
        let status = StatusSnapshot(Self.snapshot(), addresses: ["127.0.0.1"], port: 7474)
        #expect(status.host.notes.contains(lines[0]))
        #expect(HostSnapshot().profileLines.isEmpty, "no profiles: nothing said")
    }

    @Test func theDashboardsJSONCarriesThem() throws {
        let data = try JSONEncoder().encode(Self.snapshot())
        let back = try JSONDecoder().decode(HostSnapshot.self, from: data)
        #expect(back.profiles == Self.snapshot().profiles)
        #expect(back.focusedApp == Self.snapshot().focusedApp)
        #expect(back.controllers.map(\.profile) == ["beta", nil])
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""mode":"fps""#) && text.contains(#""controller":"phone""#), "\(text)")
    }
}
