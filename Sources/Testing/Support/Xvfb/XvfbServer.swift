#if os(Linux)
import CX11
import Foundation
import Synchronization

/// Test support (used by test targets only). A private Xvfb for one test: picks a free display number,
/// listens on no TCP port, and is stopped by pid in `stop()`.
///
/// Tests start it with `await XvfbServer.start()`: waiting for a server to accept clients
/// blocks a thread (a second or more on a loaded machine), and the suite's concurrency pool has
/// as many threads as cores — two here — so X tests that waited on the pool stalled every test
/// behind them, and pairing tests ran out their 30 s (seen beside a second load).
package final class XvfbServer: Sendable {
    private let process: Process
    private let number: Int
    private let stopped = Mutex(false)
    package let displayName: String

    /// A new server, started on a thread of its own (never a pool thread; see above).
    package static func start() async throws -> XvfbServer { try await offPool { try XvfbServer() } }

    /// Fails (not skips) when Xvfb is missing: CI installs it. Blocks until the server accepts
    /// clients: from a test, `start()`.
    package init() throws {
        let candidates = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"]
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XvfbMissing()
        }
        // Displays 100-899 so as not to take :0/:1 from people's desktops; a
        // taken number makes Xvfb exit at once and the next one is tried.
        var lastOutput = ""
        for attempt in 0..<20 {
            let n = 100 + Int.random(in: 0..<800)
            if FileManager.default.fileExists(atPath: "/tmp/.X\(n)-lock") { continue }
            let process = Process()
            let pipe = Pipe()
            process.executableURL = URL(fileURLWithPath: path)
            // -displayfd 1: Xvfb writes the display number to stdout once it accepts clients.
            process.arguments = [":\(n)", "-displayfd", "1", "-screen", "0", "1920x1080x24", "-nolisten", "tcp", "-noreset"]
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            let ready = Self.readLine(pipe.fileHandleForReading)
            if Int(ready) == n {
                self.process = process
                self.number = n
                displayName = ":\(n)"
                return
            }
            lastOutput = "attempt \(attempt) on :\(n): \(ready)"
            Self.terminate(process, display: n)
        }
        throw XvfbFailed(output: lastOutput)
    }

    /// Reads up to the first newline or EOF (Xvfb closes the fd after writing).
    private static func readLine(_ handle: FileHandle) -> String {
        var text = ""
        while !text.contains("\n") {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// SIGKILL, reap, and remove the files a killed server leaves behind. Not SIGTERM
    /// first: Foundation starts Xvfb from a concurrency-pool thread whose signal mask
    /// blocks SIGTERM, and the child inherits it, so a polite stop always waited out its
    /// 3 s with a pool thread blocked; a dozen X tests held both of the suite's pool
    /// threads for half a minute, and every timed test behind them starved (a pairing
    /// window ran out before its test took its next step). A test's Xvfb keeps nothing
    /// worth a clean exit. Only this server's own pid and files are touched.
    private static func terminate(_ process: Process, display: Int) {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        unlink("/tmp/.X\(display)-lock")
        unlink("/tmp/.X11-unix/X\(display)")
    }

    package func stop() {
        guard !stopped.withLock({ was in defer { was = true }; return was }) else { return }
        Self.terminate(process, display: number)
    }

    deinit { stop() }

    /// A second, independent client connection for reading state back.
    package func openProbe() throws -> OpaquePointer {
        guard let dpy = XOpenDisplay(displayName) else { throw XvfbFailed(output: "cannot open \(displayName)") }
        return dpy
    }
}

package struct XvfbMissing: Error, CustomStringConvertible {
    package var description: String {
        "Xvfb is not installed: run `apt-get install xvfb libxtst-dev libx11-dev x11-utils xdotool` (CI installs it)"
    }
}

package struct XvfbFailed: Error, CustomStringConvertible {
    package var output: String
    package init(output: String) { self.output = output }
    package var description: String { "Xvfb did not start: \(output)" }
}

/// Pointer position and button/modifier mask as the X server reports them.
package func queryPointer(_ dpy: OpaquePointer) -> (x: Int, y: Int, mask: UInt32) {
    var rootReturn: Window = 0, child: Window = 0
    var rx: Int32 = 0, ry: Int32 = 0, wx: Int32 = 0, wy: Int32 = 0
    var mask: UInt32 = 0
    XQueryPointer(dpy, XDefaultRootWindow(dpy), &rootReturn, &child, &rx, &ry, &wx, &wy, &mask)
    return (Int(rx), Int(ry), mask)
}

/// Whether the X server sees `keysym`'s key down (XQueryKeymap).
package func isKeyDown(_ dpy: OpaquePointer, keysym: UInt32) -> Bool {
    let code = Int(XKeysymToKeycode(dpy, KeySym(keysym)))
    var keys = [CChar](repeating: 0, count: 32)
    XQueryKeymap(dpy, &keys)
    return UInt8(bitPattern: keys[code / 8]) & (1 << UInt8(code % 8)) != 0
}
#endif
