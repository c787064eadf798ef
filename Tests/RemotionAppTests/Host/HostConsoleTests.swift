import Logging
import RemotionApp
import Synchronization
import Testing

/// While the terminal view is open nothing writes to the terminal behind its back: facts,
/// injected lines and log messages go into the view; the last line waits for it to close.
@Suite struct HostConsoleTests {
    final class Written: Sendable {
        let out = Mutex<[String]>([])
        let err = Mutex<[String]>([])
    }

    static func console(interactive: Bool) -> (HostConsole, Written) {
        let written = Written()
        let console = HostConsole(interactive: interactive,
                                  stdout: { text in written.out.withLock { $0.append(text) } },
                                  stderr: { text in written.err.withLock { $0.append(text) } })
        return (console, written)
    }

    @Test func withTheViewEverythingGoesIntoIt() {
        let (console, written) = Self.console(interactive: true)
        console.note(.discovery, "discovery off: avahi-daemon is not running; controllers connect by address")
        console.note(.injector, "injecting with auto: …")
        console.note(.discovery, "announced as \"desk\" (_remotion._udp, port 7474)")
        console.injected(#"{"kind":"move_to","x":1,"y":2}"# + "\n" + #"{"kind":"move_to","x":3,"y":4}"# + "\n")
        let logger = console.logger()
        logger.info("controller connected", metadata: ["session": "0000002a"])
        console.injected(#"{"kind":"button"}"# + "\n")
        console.finally("remotion host: stopped")
        #expect(written.out.withLock { $0 }.isEmpty && written.err.withLock { $0 }.isEmpty, "nothing reached the terminal")
        #expect(console.notes == ["injecting with auto: …", "announced as \"desk\" (_remotion._udp, port 7474)"],
                "facts in topic order, a later fact replacing an earlier one")
        #expect(console.recent == [#"{"kind":"move_to","x":3,"y":4}"#,
                                   "remotion host: controller connected session=0000002a", #"{"kind":"button"}"#])
        console.viewClosed()
        #expect(written.err.withLock { $0 } == ["remotion host: stopped\n"], "the last line once the view is closed")
        console.finally("remotion host: after")
        #expect(written.err.withLock { $0 }.last == "remotion host: after\n")
    }

    @Test func withoutTheViewFactsAreLinesAndEventsGoToStdout() {
        let (console, written) = Self.console(interactive: false)
        console.note(.dashboard, "dashboard on http://127.0.0.1:7475/")
        console.injected("{\"kind\":\"move_to\"}\n")
        let logger = console.logger()
        logger.info("local pads: reading DualSense")
        logger.warning("gamepad: no virtual pad", metadata: ["session": "0000002a"])
        logger.debug("not said at the default level")
        console.finally("remotion host: stopped")
        #expect(written.err.withLock { $0 } == ["remotion host: dashboard on http://127.0.0.1:7475/\n",
                                                "remotion host: local pads: reading DualSense\n",
                                                "remotion host: warning: gamepad: no virtual pad session=0000002a\n",
                                                "remotion host: stopped\n"])
        #expect(written.out.withLock { $0 } == ["{\"kind\":\"move_to\"}\n"])
        #expect(console.notes.isEmpty && console.recent.isEmpty)
    }

    /// A name from outside in a log line cannot drive the terminal: on stderr without the
    /// view, and in the view's last events, every fact and message is one line without controls.
    @Test func factsAndLogLinesReachAPersonWithoutControlCharacters() {
        let hostile = "pad\u{1B}[2J\u{1B}]0;owned\u{07}\r\nx\u{9B}31m\u{202E}"
        for interactive in [false, true] {
            let (console, written) = Self.console(interactive: interactive)
            console.note(.pairing, "phone '\(hostile)' paired")
            console.logger().info("local pads: reading \(hostile)", metadata: ["name": "\(hostile)"])
            console.finally("remotion host: stopped '\(hostile)'")
            console.viewClosed()
            let lines = written.err.withLock { $0 } + console.notes + console.recent
            #expect(lines.count == 3, "\(lines)")
            for line in lines {
                #expect(!line.dropLast(line.hasSuffix("\n") ? 1 : 0).unicodeScalars.contains {
                    $0.value < 0x20 || (0x7f...0x9f).contains($0.value) || $0.properties.generalCategory == .format
                }, "\(line)")
                #expect(line.contains("pad[2J]0;ownedx31m"), "\(line)")
            }
        }
    }
}
