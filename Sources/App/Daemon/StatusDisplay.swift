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
    /// The phones waiting to pair, answered with a key (`a` accept, `d` deny) in the view.
    package let consent = ConsentBox()

    package func run() async throws {
        var renderer = try StatusRenderer(font: PixelFont.standard())
        var policy = RedrawPolicy()
        var log = StatusLog()
        var lastGeneration = -1
        var answering = ConsentKeys()
        var reads = TerminalKeyReads()
        let keys = interactive ? TerminalKeys.open() : nil
        if interactive { write(TerminalScreen.setUp) }
        // The view shows everything live; the lines only what changed (the host builds a
        // snapshot for them only then).
        let lease = await publisher.lease(interactive ? .everyTick : .changes)
        defer {
            withExtendedLifetime(lease) {}
            keys?.close()
            if interactive { write(TerminalScreen.tearDown) }
            console.viewClosed()
        }
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let generation = publisher.generation
            if !interactive && generation == lastGeneration {
                try? await Task.sleep(for: .milliseconds(100))
                continue
            }
            var snapshot = publisher.current()
            snapshot.hostName = name
            var status = interactive
                ? StatusSnapshot(snapshot, addresses: addresses, port: port, pairingHint: pairingHint,
                                 phonePairing: phonePairing.value, notes: console.notes, recent: console.recent)
                : StatusSnapshot(snapshot, addresses: addresses, port: port, pairingHint: pairingHint)
            if interactive {
                status.host.waitingPhone = answerWaitingPhone(keys: keys, reads: &reads, answering: &answering)
                let size = Self.terminalSize()
                if size != (renderer.screen.columns, renderer.screen.rows) {
                    renderer.screen = TerminalScreen(columns: size.columns, rows: size.rows)
                    policy.invalidate()
                }
                if case .draw = policy.decide(status, now: MonotonicClock.now()) { write(renderer.frame(for: status)) }
            } else {
                for line in log.lines(for: status, at: MonotonicClock.now()) { console.statusLine(line) }
            }
            lastGeneration = generation
            try? await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The phone the view shows as waiting to pair (the oldest), after acting on the keys
    /// typed since the last frame: a key pressed alone answers the phone that was on the
    /// screen; a burst, an escape sequence or a paste answers nothing.
    private func answerWaitingPhone(keys: TerminalKeys?, reads: inout TerminalKeyReads,
                                    answering: inout ConsentKeys) -> WaitingPhonePrompt? {
        // Every read, even while nobody waits: old keys must not answer a new phone, and a
        // paste that began before a phone asked is still a paste.
        let key = reads.key(in: keys?.typed() ?? [])
        guard let devices = consent.value else { return nil }
        let now = MonotonicClock.now()
        switch answering.action(for: key, now: now) {
        case .accept(let reference): say(devices.answer(reference: reference, accept: true), reference: reference)
        case .deny(let reference): say(devices.answer(reference: reference, accept: false), reference: reference)
        case .tooSoon: console.logger().info("a new phone waits: check its name and code, then press a or d")
        case .none: break
        }
        let prompt = WaitingPhonePrompt(waiting: devices.waiting(), now: Date())
        answering.show(prompt?.reference, now: now)
        return prompt
    }

    private func say(_ answer: PairedDevices.Answer, reference: String) {
        switch answer {
        case .answered(.accepted(let r)): console.logger().info("accepted phone '\(TextFormat.sanitize(r.name))' at \(r.address): it pairs now")
        case .answered(.denied(let r)): console.logger().info("refused phone '\(TextFormat.sanitize(r.name))' at \(r.address): nothing was stored")
        case .notWaiting, .malformed, .noWeb: console.logger().info("phone \(reference) no longer waits (answered elsewhere, or its time ran out)")
        }
    }

    private func write(_ text: String) { StandardStreams.out(text) }

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
