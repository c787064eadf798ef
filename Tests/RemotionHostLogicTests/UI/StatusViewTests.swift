import Foundation
import RemotionProtocol
import RemotionHostLogic
import Testing

/// Fixed snapshots for the view goldens.
enum Fixtures {
    static let host = HostStatus(name: "deskbox", addresses: ["192.168.1.10", "fe80::1c2d:3eff:fe4f:5a6b"],
                                 port: 27960, pairingHint: "pairing code 4711")

    static let pixel = ControllerStatus(
        session: SessionID(0xabcd), name: "Pixel 7", address: "192.168.1.20:50123", state: .connected,
        attitude: Attitude(roll: 0.2147, pitch: -0.7854, yaw: 0), pointer: ScreenPoint(x: 960, y: 540),
        buttons: ButtonSet([.b, .e]), held: [.key(.shift), .mouse(.left)],
        link: LinkStats(packetsPerSecond: 60, lossPercent: 0.5, latencyP50Millis: 4.1, latencyP99Millis: 12.25),
        mappingMode: "pointer",
        gyro: GyroStatus(calibration: .calibrated, confidence: 0.85, biasDegreesPerSecond: [0.012, -0.5, 1.234],
                         still: true, clutchEngaged: true, fused: true))

    static let joining = ControllerStatus(
        session: SessionID(0x1234_5678), name: "a very long controller name that will not fit \u{1B}[2J",
        address: "[fe80::1]:40000", state: .connecting)

    /// The host with the facts `remotion host` shows inside the view and its last events.
    static let facts = HostStatus(
        name: "deskbox", addresses: ["192.168.1.10"], port: 27960, pairingHint: "1 paired controller(s)",
        notes: ["injecting with auto: no writable /dev/uinput, no DISPLAY and not macOS: events are logged",
                "dashboard on http://127.0.0.1:7475/ (settings saved to /home/u/.config/remotion/config.toml)",
                "discovery off: avahi-daemon is not running; controllers connect by address"],
        recent: [#"{"session":"0000abcd","kind":"key","key":"Left","state":"down"}"#, "info \u{1B}[31mred"])

    static let welcome = StatusSnapshot(host: host)
    static let busy = StatusSnapshot(host: facts, controllers: [pixel, joining])
    /// A controller whose name is not known (a plain session): its address shows once.
    static let unnamed = ControllerStatus(session: SessionID(0xbeef), name: "", address: "127.0.0.1:50000",
                                          state: .connected, attitude: Attitude(roll: 20 * .pi / 180, pitch: -20 * .pi / 180, yaw: 0))
}

@Suite struct StatusViewTests {
    @Test func welcomeViewGolden() throws {
        var font = try PixelFont.standard()
        let lines = WelcomeView().lines(for: Fixtures.host, font: &font)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(lines.contains("  connect with: remotion client --host 192.168.1.10:27960"))
        GoldenFile.check("welcome.txt", lines)
    }

    @Test func welcomeViewShowsTheHostsFactsAndLastEvents() throws {
        var font = try PixelFont.standard()
        let lines = WelcomeView().lines(for: Fixtures.facts, font: &font)
        #expect(lines.allSatisfy { $0.count <= 80 })
        for note in Fixtures.facts.notes { #expect(lines.contains { $0.hasPrefix("  " + note.prefix(60)) }, "\(note)") }
        #expect(lines.contains("  last events:"))
        #expect(!lines.joined().contains("\u{1B}"))
        GoldenFile.check("welcome-facts.txt", lines)
    }

    @Test func aControllerShowsItsNameOnceAndItsAddressOnce() {
        let named = ControlView().block(for: Fixtures.pixel)[0]
        #expect(named.components(separatedBy: "Pixel 7").count == 2 && named.components(separatedBy: "192.168.1.20:50123").count == 2)
        let unnamed = ControlView().block(for: Fixtures.unnamed)[0]
        #expect(unnamed.components(separatedBy: "127.0.0.1:50000").count == 2, "\(unnamed)")
        #expect(unnamed.hasPrefix("● 0000beef  127.0.0.1:50000 "))
    }

    @Test func welcomeViewWrapsLongNamesAndFitsNarrowTerminals() throws {
        var font = try PixelFont.standard()
        let host = HostStatus(name: "workstation-in-the-basement.local", addresses: [], port: 1)
        let lines = WelcomeView(width: 40).lines(for: host, font: &font)
        #expect(lines.allSatisfy { $0.count <= 40 })
        #expect(lines.contains("  connect with:"), "the command moves to its own line")
        #expect(lines.contains("    remotion client --host workstation-…"))
        GoldenFile.check("welcome-narrow.txt", lines)
    }

    @Test func controlViewGolden() {
        let lines = ControlView().lines(for: Fixtures.busy)
        #expect(lines.allSatisfy { $0.count <= 80 })
        #expect(!lines.joined().contains("\u{1B}"), "control characters from the network are stripped")
        GoldenFile.check("control.txt", lines)
    }

    @Test func gaugeAndButtonStrip() {
        #expect(ControlView.gauge(0) == "─────●─────")
        #expect(ControlView.gauge(-.pi) == "●────┼─────")
        #expect(ControlView.gauge(10) == "─────┼────●")
        #expect(ControlView.gauge(.nan) == "─────┼─────")
        // A hand's small turns move it (square-root scale): ±20° is two cells from zero.
        let degree = Double.pi / 180
        #expect(ControlView.gauge(20 * degree) == "─────┼─●───")
        #expect(ControlView.gauge(-20 * degree) == "───●─┼─────")
        #expect(ControlView.gauge(5 * degree) == "─────┼●────")
        #expect(ControlView.gauge(1 * degree) == "─────●─────")
        #expect(ControlView.buttonStrip(ButtonSet([.a, .p])) == "A··············P")
        #expect(ControlView.buttonStrip(.none) == String(repeating: "·", count: 16))
    }

    @Test func terminalFrameRedrawsInPlace() {
        let frame = TerminalScreen(columns: 5, rows: 2).frame(["abcdefgh", "xy", "dropped"])
        #expect(frame == "\u{1B}[Habcd…\u{1B}[K\r\nxy\u{1B}[K\u{1B}[J")
        #expect(!frame.contains("\u{1B}[2J"), "no full clear: no flicker")
    }

    @Test func statusRendererPicksTheView() throws {
        var renderer = StatusRenderer(font: try PixelFont.standard())
        #expect(renderer.lines(for: Fixtures.welcome).contains { $0.contains("waiting for controllers") })
        #expect(renderer.lines(for: Fixtures.busy)[0].hasPrefix("remotion · deskbox"))
        #expect(renderer.frame(for: Fixtures.busy).hasPrefix(TerminalScreen.cursorHome))
    }

    @Test func textFormatting() {
        #expect(TextFormat.fixed(3.14159, 1) == "3.1")
        #expect(TextFormat.fixed(-0.04, 1) == "0.0")
        #expect(TextFormat.fixed(-2.5, 0) == "-3")
        #expect(TextFormat.fixed(0.05, 2, plusSign: true) == "+0.05")
        #expect(TextFormat.fixed(12.25, 1) == "12.3")
        #expect(TextFormat.fixed(.infinity, 1) == "inf")
        #expect(TextFormat.jsonString("a\"b\\\n\u{01}") == "\"a\\\"b\\\\\\n\\u0001\"")
        #expect(TextFormat.sanitize("x\u{1B}[2Jy\u{9B}z") == "x[2Jyz")
    }
}

/// Golden text files under Tests/RemotionUITests/Golden. Run once with
/// REMOTION_UPDATE_GOLDEN=1 to (re)write them, inspect them by eye, commit; the
/// tests then compare exactly. A missing golden file is a failure, not a skip.
enum GoldenFile {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().appendingPathComponent("Golden")

    static var updating: Bool { ProcessInfo.processInfo.environment["REMOTION_UPDATE_GOLDEN"] == "1" }

    static func url(_ name: String) -> URL { directory.appendingPathComponent(name) }

    /// Compares `lines` (joined with "\n", plus a final newline) to the golden file `name`.
    static func check(_ name: String, _ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let actual = lines.joined(separator: "\n") + "\n"
        let file = url(name)
        if updating {
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            #expect(throws: Never.self, sourceLocation: sourceLocation) {
                try actual.write(to: file, atomically: true, encoding: .utf8)
            }
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("golden file \(name) missing; actual output:\n\(actual)", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "golden \(name) differs; actual:\n\(actual)", sourceLocation: sourceLocation)
    }
}
