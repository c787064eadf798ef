import Foundation
import Testing
@testable import RemotionHostLogic

/// What `--local-pads` shows a person (`LocalPadInventory`): the terminal view's lines and
/// the status's JSON (the dashboard's `localPads`). The reader that fills it from sysfs and
/// the nodes' permissions runs in the local-pads guest stage (its dashboard is read there).
@Suite struct LocalPadInventoryTests {
    static let inventory = LocalPadInventory(
        reading: [.init(name: "DualSense Wireless Controller (be:8a:4d:5a:93:a3)", motionNode: "/dev/input/event4",
                        gamepadNode: "/dev/input/event3", driver: "playstation", grabbed: true, rumble: true)],
        skipped: [.init(node: "/dev/input/event7", name: "Remotion virtual DualSense Motion Sensors",
                        reason: "Remotion's own virtual pad")])

    @Test func theTerminalViewSaysWhatIsReadAndWhatIsNotAndWhy() {
        #expect(Self.inventory.lines == [
            "local pads: reading DualSense Wireless Controller (be:8a:4d:5a:93:a3) (/dev/input/event4, grabbed, rumble)",
            "local pads: not reading /dev/input/event7 (Remotion virtual DualSense Motion Sensors): Remotion's own virtual pad",
        ])
        #expect(LocalPadInventory().lines == ["local pads: none read"])
    }

    @Test func itsJSONIsTheDashboardsAndComesBackTheSame() throws {
        let data = try JSONEncoder().encode(Self.inventory)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let pad = try #require((object["reading"] as? [[String: Any]])?.first)
        #expect(pad["motionNode"] as? String == "/dev/input/event4" && pad["grabbed"] as? Bool == true
                && pad["rumble"] as? Bool == true && pad["driver"] as? String == "playstation")
        #expect((object["skipped"] as? [[String: Any]])?.first?["reason"] as? String == "Remotion's own virtual pad")
        #expect(try JSONDecoder().decode(LocalPadInventory.self, from: data) == Self.inventory)
    }

    /// The access line and the inventory's reason name the same fix.
    @Test func aNodeThisUserMayNotReadNamesTheFix() {
        let fix = LocalPadNodes.accessFix(group: "input")
        #expect(fix.contains("sudo usermod -aG input $USER") && fix.contains("udev rule"))
        #expect(!LocalPadNodes.accessFix(group: nil).contains("usermod"))
    }
}
