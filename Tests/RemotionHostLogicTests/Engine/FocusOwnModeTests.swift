import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// The mode a controller's page chose and the `[[profile]]`s that follow the focus: a
/// profile that names a mode wins while its application has the focus; back on the host's
/// mapping the page's own choice returns; a profile that names no mode leaves the page's.
@Suite struct FocusOwnModeTests {
    static let slides = FocusedApp(appID: "slides")
    static let editor = FocusedApp(appID: "editor")
    static let desktop = FocusedApp(appID: "desktop")
    static func entry(_ key: String, _ value: String) -> ConfigEntry { ConfigEntry(key: key, value: value, line: 1, quoted: true) }
    static let profiles = FocusProfiles([
        FocusProfile(app: "slides", mapping: [entry("mode", "pointer"), entry("gyro_stick.target", "off")]),
        FocusProfile(app: "editor", mapping: [entry("sensitivity", "2")]),
    ])

    static func mode(_ h: EngineHarness, _ id: SessionID) -> MappingSettings.Mode? { h.engine.core.profile(of: id)?.settings.mode }
    static func stick(_ h: EngineHarness, _ id: SessionID) -> GyroStickSettings.Target? {
        h.engine.core.profile(of: id)?.settings.gyroStick.target
    }

    @Test func thePagesModeReturnsWhenTheProfileGoes() throws {
        var h = EngineHarness()
        h.engine.setProfiles(Self.profiles, now: h.now, into: &h.log)
        h.engine.focus(Self.desktop, now: h.now, into: &h.log)
        let opened = h.open(.web(device: "phone-2", peer: nil))
        let web = try #require(opened)
        #expect(h.send(.mode(set: .fps), to: web) == .mode(.fps))
        #expect(h.send(.gyroStick(.right), to: web) == .gyroStick(.right))

        h.engine.focus(Self.slides, now: h.now, into: &h.log)
        #expect(Self.mode(h, web) == .pointer, "the profile's mode wins while slides has the focus")
        #expect(Self.stick(h, web) == .off)

        h.engine.focus(Self.desktop, now: h.now, into: &h.log)
        #expect(Self.mode(h, web) == .fps, "back on the host's mapping, the page's choice returns")
        #expect(Self.stick(h, web) == .right)

        h.engine.focus(Self.editor, now: h.now, into: &h.log)
        #expect(Self.mode(h, web) == .fps, "a profile that names no mode keeps the page's")
        #expect(h.engine.core.profile(of: web)?.settings.sensitivity == 2)
        h.engine.focus(nil, now: h.now, into: &h.log)
        #expect(Self.mode(h, web) == .fps)
    }

    /// A dashboard change while a profile is in force does not lose the page's choice either.
    @Test func aHostSettingsChangeKeepsThePagesModeForLater() throws {
        var h = EngineHarness()
        h.engine.setProfiles(Self.profiles, now: h.now, into: &h.log)
        let opened = h.open(.web(device: "phone-2", peer: nil))
        let web = try #require(opened)
        _ = h.send(.mode(set: .fps), to: web)
        h.engine.focus(Self.slides, now: h.now, into: &h.log)
        var settings = h.engine.core.profile.settings
        settings.sensitivity = 3
        h.engine.update(settings: settings)
        #expect(Self.mode(h, web) == .pointer)
        #expect(h.engine.core.profile(of: web)?.settings.sensitivity == 3)
        h.engine.focus(nil, now: h.now, into: &h.log)
        #expect(Self.mode(h, web) == .fps)
    }
}
