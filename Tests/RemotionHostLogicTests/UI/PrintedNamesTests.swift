import RemotionHostLogic
import Testing

/// Names from outside reach a person only through `TextFormat.sanitize`: a UDP controller's
/// name in `remotion devices`, a phone's, a kernel pad's name and uniq.
@Suite struct PrintedNamesTests {
    /// A name that would clear the screen, retitle the terminal, ring, move to a new line
    /// and hide text behind a right-to-left override.
    static let hostile = "pad\u{1B}[2J\u{1B}]0;owned\u{07}\r\nx\u{9B}31m\u{202E}yz"
    static let shown = "pad[2J]0;ownedx31myz"

    static func clean(_ line: String) -> Bool {
        !line.unicodeScalars.contains { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) || $0.properties.generalCategory == .format }
    }

    @Test func remotionDevicesPrintsControllerAndPhoneNamesWithoutControls() {
        let lines = [
            DeviceListLines.pairedController(fingerprint: "abcd-ef01", name: Self.hostile, pairedAt: "2026-11-29T01:00:00Z"),
            DeviceListLines.webController(id: "w1", name: Self.hostile, pairedAt: "2026-11-29T01:00:00Z", mayType: false),
            DeviceListLines.waitingPhone(reference: "4821-1a2b3c4d", name: Self.hostile, address: "10.0.0.2\u{1B}[K", seconds: 9),
            DeviceListLines.typing(id: "w1", name: Self.hostile, mayType: true),
            DeviceListLines.revokedController(name: Self.hostile, fingerprint: "abcd-ef01"),
            DeviceListLines.revokedWebController(name: Self.hostile, id: "w1"),
            DeviceListLines.pairedNow(name: Self.hostile, fingerprint: "abcd-ef01"),
            DeviceListLines.phone(name: Self.hostile, address: "10.0.0.2"),
        ]
        for line in lines { #expect(Self.clean(line) && line.contains(Self.shown), "\(line)") }
        #expect(lines[0] == "  abcd-ef01  \(Self.shown)  paired 2026-11-29T01:00:00Z")
        #expect(lines[1] == "  w1  \(Self.shown)  paired 2026-11-29T01:00:00Z  (may not type)")
        #expect(lines[2] == "  4821-1a2b3c4d  '\(Self.shown)' at 10.0.0.2[K  (9 s left)")
    }

    @Test func aKernelPadsNameAndUniqAreKeptWithoutControls() {
        let node = EvdevNodeInfo(path: "/dev/input/event7", name: Self.hostile + " Motion Sensors",
                                 phys: "usb-1\u{1B}[2J", uniq: "a0:ab\u{07}:51", isMotion: true)
        #expect(node.name == Self.shown + " Motion Sensors" && node.uniq == "a0:ab:51" && node.phys == "usb-1[2J")
        let name = LocalPadNodes.displayName(node)
        #expect(name == "\(Self.shown) (a0:ab:51)" && Self.clean(name), "\(name)")
    }
}
