import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// What a phone's page is told when the focus moves: each session a profile takes over (or
/// gives back) gets one `.profile` output in that event — the profile's app (nil: none) and
/// the mode in force — and a session whose profile in force does not change gets none.
@Suite struct FocusPageNoticeTests {
    static let beta = FocusedApp(instance: "beta", className: "Beta")
    static let alpha = FocusedApp(instance: "alpha", className: "Alpha")
    static func entry(_ key: String, _ value: String) -> ConfigEntry { ConfigEntry(key: key, value: value, line: 1, quoted: true) }

    static func notices(_ h: EngineHarness, _ id: SessionID) -> [ProfileInForce] {
        h.outputs(id).compactMap { if case .profile(let p) = $0 { p } else { nil } }
    }

    @Test func aSwitchTellsEachPageItAppliesToAndNoOther() throws {
        var h = EngineHarness()
        // beta: FPS, for phones only; alpha: a profile that does not name the mode, for DSU only.
        let profiles = FocusProfiles([
            FocusProfile(app: "beta", controller: .phone, mapping: [Self.entry("mode", "fps")]),
            FocusProfile(app: "alpha", controller: .dsu, mapping: [Self.entry("sensitivity", "2")]),
        ])
        h.engine.setProfiles(profiles, now: h.now, into: &h.log)
        h.engine.focus(Self.alpha, now: h.now, into: &h.log)
        let firstOpened = h.open(.web(device: "phone-1", peer: nil)), secondOpened = h.open(.web(device: "phone-2", peer: nil))
        let first = try #require(firstOpened), second = try #require(secondOpened)
        h.clear()

        h.engine.focus(Self.beta, now: h.now, into: &h.log)
        for id in [first, second] {
            #expect(Self.notices(h, id) == [ProfileInForce(app: "beta", mode: .fps, setsMode: true)], "one message per page, in the event")
        }

        h.clear()
        h.engine.focus(FocusedApp(instance: "beta", className: "Other"), now: h.now, into: &h.log)
        #expect(Self.notices(h, first).isEmpty && Self.notices(h, second).isEmpty, "the same profile stays: nothing to tell")

        h.clear()
        h.engine.focus(Self.alpha, now: h.now, into: &h.log)
        for id in [first, second] {
            #expect(Self.notices(h, id) == [ProfileInForce(app: nil, mode: .pointer, setsMode: false)],
                    "back to the host's mapping and the page's own mode; alpha's profile is not for phones")
        }
    }

    @Test func aProfileThatDoesNotNameTheModeKeepsThePagesOwn() throws {
        var h = EngineHarness()
        h.engine.setProfiles(FocusProfiles([FocusProfile(app: "beta", mapping: [Self.entry("sensitivity", "2")])]), now: h.now, into: &h.log)
        let opened = h.open(.web(device: "phone-1", peer: nil))
        let web = try #require(opened)
        _ = h.engine.perform(.mode(set: .fps), for: web, screen: EngineHarness.screen, now: h.now, into: &h.log)
        h.clear()
        h.engine.focus(Self.beta, now: h.now, into: &h.log)
        #expect(Self.notices(h, web) == [ProfileInForce(app: "beta", mode: .fps, setsMode: false)])
    }

    @Test func theMessageIsVersionedJSON() {
        let on = WebHostMessage(.profile(ProfileInForce(app: "fire\"fox", mode: .fps, setsMode: true))).text
        #expect(on == #"{"type":"profile","v":1,"app":"fire\"fox","mode":"fps","sets_mode":true}"#)
        let off = WebHostMessage(.profile(ProfileInForce(app: nil, mode: .pointer, setsMode: false))).text
        #expect(off == #"{"type":"profile","v":1,"app":null,"mode":"pointer","sets_mode":false}"#)
    }
}
