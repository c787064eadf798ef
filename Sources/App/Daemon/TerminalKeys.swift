import Foundation
import RemotionHostLogic
import Synchronization

/// The terminal view's keys (docs/UI.md): stdin switched to non-canonical mode without echo
/// (`ICANON`, `ECHO` off; `ISIG` stays on, so Ctrl-C still stops the host), read without
/// waiting (`VMIN = 0`, `VTIME = 0`: a read returns what is there, or nothing), with
/// bracketed paste on, so a paste arrives marked and `TerminalKeyReads` ignores it whole.
/// The terminal's settings and bracketed paste are put back by `close`, which the view
/// calls on every way out of it (cancelled, Ctrl-C, SIGTERM, an error). Owned by the
/// status view's one task: no other code reads stdin while the view is open.
struct TerminalKeys {
    private let saved: termios

    /// nil when stdin is no terminal (a pipe, /dev/null under systemd) or cannot be switched.
    static func open() -> TerminalKeys? {
        guard isatty(STDIN_FILENO) == 1 else { return nil }
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 0
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        StandardStreams.out(TerminalKeyReads.enableBracketedPaste)
        return TerminalKeys(saved: saved)
    }

    /// The bytes typed since the last call (at most 64; empty when none).
    func typed() -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        return n > 0 ? Array(buffer.prefix(n)) : []
    }

    /// Puts the terminal's settings back as they were and turns bracketed paste off.
    func close() {
        StandardStreams.out(TerminalKeyReads.disableBracketedPaste)
        var saved = self.saved
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
    }
}

/// The terminal view's way to the phones waiting to pair (set once the web controller
/// serves; the web service starts after the view).
package final class ConsentBox: Sendable {
    private let state = Mutex<PairedDevices?>(nil)
    package var value: PairedDevices? { state.withLock { $0 } }
    package func set(_ devices: PairedDevices) { state.withLock { $0 = devices } }
}

extension WaitingPhonePrompt {
    /// The oldest waiting phone as the terminal view shows it; nil when none waits.
    init?(waiting: [WebPairingConsent.Request], now: Date) {
        guard let r = waiting.first else { return nil }
        self.init(reference: r.reference, code: r.code, name: r.name, address: r.address,
                  secondsLeft: Int(max(0, r.expires.timeIntervalSince(now)).rounded(.up)), othersWaiting: waiting.count - 1)
    }
}
