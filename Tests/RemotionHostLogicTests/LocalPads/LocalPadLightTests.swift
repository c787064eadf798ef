import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// A game's light colour as the pad's LED class devices take it (`LocalPadLight`): which
/// driver's layout is found from the LED devices' names, what is written where, and only
/// when the colour changes. The writes themselves run in the local-pads guest stage
/// (hid-playstation sends the colour to the owned pad: scripts/localpads-guest-test.sh).
@Suite struct LocalPadLightTests {
    static let hid = "/sys/devices/virtual/misc/uhid/0005:054C:0CE6.0001"
    static let leds = "\(hid)/leds"
    static let orange = ControllerFeedback.Color(red: 255, green: 64, blue: 16)

    /// What hid-playstation makes for a DualSense: the lightbar and five player LEDs.
    static let playstation: [String: String] = [
        "\(leds)/input7:rgb:indicator/max_brightness": "255",
        "\(leds)/input7:rgb:indicator/multi_index": "red green blue",
        "\(leds)/input7:white:player-1/max_brightness": "1",
    ]
    static let playstationNames = ["input7:white:player-1", "input7:rgb:indicator", "input7:white:player-2"]

    /// What hid-sony makes for a DualShock 4 (6.1): red, green, blue and global.
    static let sony: [String: String] = [
        "\(leds)/0005:054C:05C4.0001:red/max_brightness": "255",
        "\(leds)/0005:054C:05C4.0001:green/max_brightness": "255",
        "\(leds)/0005:054C:05C4.0001:blue/max_brightness": "127",
        "\(leds)/0005:054C:05C4.0001:global/max_brightness": "1",
    ]
    static let sonyNames = ["0005:054C:05C4.0001:global", "0005:054C:05C4.0001:blue",
                            "0005:054C:05C4.0001:red", "0005:054C:05C4.0001:green"]

    @Test func hidPlaystationsLightbarIsItsMulticolorLED() throws {
        let layout = try #require(LocalPadLight.layout(leds: Self.leds, names: Self.playstationNames) { Self.playstation[$0] })
        let rgb = "\(Self.leds)/input7:rgb:indicator"
        #expect(layout == .multicolor(.init(directory: rgb, maxBrightness: 255), order: ["red", "green", "blue"]))
        var light = LocalPadLight(layout: layout)
        // The intensities are the colour; the brightness at its maximum, so the driver's
        // intensity × brightness / max_brightness is the colour exactly.
        #expect(light.writes(for: Self.orange) == [.init(path: "\(rgb)/multi_intensity", text: "255 64 16"),
                                                    .init(path: "\(rgb)/brightness", text: "255")])
    }

    @Test func theIntensitiesFollowMultiIndexsOrder() throws {
        var attributes = Self.playstation
        attributes["\(Self.leds)/input7:rgb:indicator/multi_index"] = "blue red green"
        let layout = try #require(LocalPadLight.layout(leds: Self.leds, names: Self.playstationNames) { attributes[$0] })
        var light = LocalPadLight(layout: layout)
        #expect(light.writes(for: Self.orange).first?.text == "16 255 64")
        attributes["\(Self.leds)/input7:rgb:indicator/multi_index"] = "red green blue amber"
        #expect(LocalPadLight.layout(leds: Self.leds, names: Self.playstationNames) { attributes[$0] } == nil,
                "a colour Remotion has not got: not written")
    }

    @Test func hidSonysLightIsThreeLEDsEachScaledToItsMaximum() throws {
        let layout = try #require(LocalPadLight.layout(leds: Self.leds, names: Self.sonyNames) { Self.sony[$0] })
        var light = LocalPadLight(layout: layout)
        let base = "\(Self.leds)/0005:054C:05C4.0001"
        #expect(light.writes(for: Self.orange) == [.init(path: "\(base):red/brightness", text: "255"),
                                                    .init(path: "\(base):green/brightness", text: "64"),
                                                    .init(path: "\(base):blue/brightness", text: "8")])   // 16 × 127 / 255 = 7.97
        #expect(LocalPadLight.scaled(255, to: 127) == 127 && LocalPadLight.scaled(0, to: 127) == 0)
        #expect(LocalPadLight.scaled(128, to: 1) == 1 && LocalPadLight.scaled(127, to: 1) == 0)
    }

    /// hid-nintendo's player and home LEDs, a pad with no LEDs, an unreadable maximum: no light.
    @Test func aPadWithoutAnRGBLightHasNoLayout() {
        let nintendo = ["0005:057E:2009.0003:green:player-1", "0005:057E:2009.0003:blue:home"]
        let attributes = Dictionary(uniqueKeysWithValues: nintendo.map { ("\(Self.leds)/\($0)/max_brightness", "1") })
        #expect(LocalPadLight.layout(leds: Self.leds, names: nintendo) { attributes[$0] } == nil)
        #expect(LocalPadLight.layout(leds: Self.leds, names: []) { _ in nil } == nil)
        #expect(LocalPadLight.layout(leds: Self.leds, names: Self.playstationNames) { _ in nil } == nil)
        #expect(LocalPadLight.layout(leds: Self.leds, names: Self.sonyNames.filter { !$0.hasSuffix(":blue") }) { Self.sony[$0] } == nil)
    }

    /// The host refreshes a running rumble every 500 ms with the same colour in it: written
    /// once, again only when it changes; a feedback without a colour writes nothing.
    @Test func aColourIsWrittenOnlyWhenItChanges() throws {
        let layout = try #require(LocalPadLight.layout(leds: Self.leds, names: Self.playstationNames) { Self.playstation[$0] })
        var light = LocalPadLight(layout: layout)
        #expect(light.writes(for: nil).isEmpty && light.shown == nil)
        #expect(light.writes(for: Self.orange).count == 2)
        for _ in 0..<10 { #expect(light.writes(for: Self.orange).isEmpty) }
        #expect(light.writes(for: nil).isEmpty && light.shown == Self.orange)
        let blue = ControllerFeedback.Color(red: 0, green: 0, blue: 128)
        #expect(light.writes(for: blue).first?.text == "0 0 128")
        #expect(light.writes(for: Self.orange).first?.text == "255 64 16", "back to a colour seen before: written again")
    }

    /// A write this user may not make: said the first time, counted every time, with the
    /// pad's drops (`light-denied`).
    @Test func refusedWritesAreSaidOnceAndCounted() throws {
        var light = LocalPadLight(layout: .multicolor(.init(directory: "x", maxBrightness: 255), order: ["red", "green", "blue"]))
        #expect(light.noteRefused() && !light.noteRefused() && !light.noteRefused())
        #expect(light.refused == 3)
        var counters = LocalPadCounters()
        counters.lightDenied = light.refused
        #expect(counters.counts == [.lightDenied: 3])
        let line = LocalPadLight.refusal(pad: "DualSense Wireless Controller (a0:ab:51:12:34:56)", path: "\(Self.leds)/x/brightness")
        #expect(line.contains("DualSense Wireless Controller (a0:ab:51:12:34:56)") && line.contains("60-remotion-pad-light.rules")
                && line.contains("/x/brightness") && !line.contains("\n"))
    }
}
