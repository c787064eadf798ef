import Foundation
import NIOCore
import RemotionProtocol
import RemotionNetwork
import RemotionHostLogic
import ServiceLifecycle
import Synchronization

/// `remotion host`'s face: in a terminal, the welcome view and one block per controller,
/// with the host's facts and last events from its `HostConsole` (nothing else writes to
/// the terminal while the view is open), redrawn at most 10 times a second and only when
/// something changed; piped or with `--json`, one JSON line per change. It only reads
/// published snapshots, so a slow terminal never delays injection.
package struct StatusDisplay: Service {
    let publisher: SnapshotPublisher
    let name: String
    let addresses: [String]
    let port: Int
    let console: HostConsole
    var interactive: Bool { console.interactive }
    /// What the welcome view says about pairing (nil: nothing).
    var pairingHint: String?
    /// The phone pairing link and QR code the welcome view shows (set once the web
    /// controller serves; the web service starts after the view).
    package let phonePairing = PhonePairingBox()

    package func run() async throws {
        var renderer = try StatusRenderer(font: PixelFont.standard())
        var policy = RedrawPolicy()
        var log = StatusLog()
        var lastGeneration = -1
        if interactive { write(TerminalScreen.setUp) }
        defer {
            if interactive { write(TerminalScreen.tearDown) }
            console.viewClosed()
        }
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let generation = publisher.generation
            var snapshot = publisher.current()
            snapshot.hostName = name
            let status = interactive
                ? StatusSnapshot(snapshot, addresses: addresses, port: port, pairingHint: pairingHint,
                                 phonePairing: phonePairing.value, notes: console.notes, recent: console.recent)
                : StatusSnapshot(snapshot, addresses: addresses, port: port, pairingHint: pairingHint)
            if interactive {
                let size = Self.terminalSize()
                if size != (renderer.screen.columns, renderer.screen.rows) {
                    renderer.screen = TerminalScreen(columns: size.columns, rows: size.rows)
                    policy.invalidate()
                }
                if case .draw = policy.decide(status, now: MonotonicClock.now()) { write(renderer.frame(for: status)) }
            } else if generation != lastGeneration {
                for line in log.lines(for: status, at: MonotonicClock.now()) { console.statusLine(line) }
            }
            lastGeneration = generation
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    private func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }

    package static func addresses(for local: SocketAddress) -> [String] { SocketAddress.reachableAddresses(for: local) }

    /// The terminal's size (80 columns, no row limit when it cannot be asked).
    static func terminalSize() -> (columns: Int, rows: Int?) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return (80, nil) }
        return (Int(size.ws_col), size.ws_row > 0 ? Int(size.ws_row) : nil)
    }
}

/// The welcome view's phone pairing (written once by the host command, read by the view).
package final class PhonePairingBox: Sendable {
    private let state = Mutex<HostStatus.PhonePairing?>(nil)
    package var value: HostStatus.PhonePairing? { state.withLock { $0 } }
    package func set(_ pairing: HostStatus.PhonePairing) { state.withLock { $0 = pairing } }
}
