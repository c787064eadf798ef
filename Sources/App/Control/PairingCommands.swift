import Foundation
import RemotionNetwork
import RemotionProtocol
import Synchronization

/// The control socket's pairing commands for a running secure host, so that
/// `remotion pair --listen` does not need the host's UDP port for itself:
///
///     {"command":"pair-window","seconds":120[,"advertise":"ADDR:PORT"]}
///         → {"ok":true,"code":"remotion-pair:v1:…","fingerprint":"HOST-FP","seconds":120}
///     {"command":"pair-wait"[,"seconds":1]}     (waits at most 5 s)
///         → {"ok":true,"request":{"id":N,"name":"…","fingerprint":"…"}} | {"ok":true,"closed":true} | {"ok":true}
///     {"command":"pair-decide","id":N,"accept":true|false}
///         → {"ok":true,"stored":{"name":"…","fingerprint":"…"}} (accepted) | {"ok":true} (refused)
///
/// One window at a time; it belongs to the connection that opened it and closes when
/// that connection goes, when its time is up, or once a controller was accepted (one
/// controller per code). The user's decision reaches the controller on its next
/// retransmission (every 0.5 s), so the host keeps answering for 2 s after closing.
package final class PairingCommands<Driver: HostDatagramDriver>: Sendable {
    let host: HostService<NoiseHostFraming, Driver>
    let store: KeyStore
    private let window = Mutex<PairingWindow?>(nil)

    /// How long a decided controller can still fetch its answer after the window closed.
    static var answerGrace: Duration { .seconds(2) }

    package init(host: HostService<NoiseHostFraming, Driver>, store: KeyStore) {
        self.host = host
        self.store = store
    }

    package var handlers: ControlCommands.Pairing {
        ControlCommands.Pairing(window: { [self] in await open($0, $1) }, wait: { [self] in await wait($0, $1) },
                                decide: { [self] in await decide($0, $1) })
    }

    func open(_ request: ControlRequest, _ connection: ControlConnection) async -> ControlResponse {
        let seconds = request.number("seconds") ?? 120
        guard seconds >= 1, seconds <= 3600 else { return .failure("seconds must be between 1 and 3600") }
        let hostKey: KeyPair
        do { hostKey = try store.hostKey() } catch { return .failure("\(error)") }
        let secret = SecureHosting.newSecret()
        let desk = PairingDesk()
        let address = SecureHosting.codeAddress(bound: host.localAddress, advertise: request.string("advertise"))
        let code = PairingCode(hostKey: hostKey.publicKey, secret: secret, address: address).description
        let opened = PairingWindow(owner: connection.id, desk: desk, code: code,
                                   deadline: .now + .seconds(seconds))
        let taken = window.withLock { current -> Bool in
            if let current, !current.isClosed { return true }
            current = opened
            return false
        }
        if taken { return .failure("a pairing window is already open (another `remotion pair --listen` runs)") }
        let psk = PairingCode.psk(secret: secret)
        let deadline = opened.deadline
        do {
            try await host.onLoop { handler in
                // The host's window ends at the window's own deadline, not `seconds` after this
                // hop reached the loop: on a loaded machine the hop took long enough that the host
                // still accepted pairings after the window had told its client "closed".
                let left = max(.zero, ContinuousClock.now.duration(to: deadline))
                handler.withFraming { $0.openPairing(psk: psk, until: MonotonicClock.now() + left, desk: desk) }
            }
        } catch {
            opened.close()
            return .failure("the host is stopping")
        }
        Task { await opened.forward() }
        Task { [weak self] in
            try? await Task.sleep(until: opened.deadline)
            await self?.finish(opened)
        }
        connection.onClose { [weak self] in await self?.finish(opened) }
        return .success(["code": .string(code), "seconds": .number(seconds),
                         "fingerprint": .string(KeyFingerprint.fingerprint(of: hostKey.publicKey))])
    }

    func wait(_ request: ControlRequest, _ connection: ControlConnection) async -> ControlResponse {
        guard let current = owned(by: connection) else { return .failure("no pairing window is open on this connection") }
        let seconds = min(max(request.number("seconds") ?? 1, 0.05), 5)
        switch await current.next(timeout: .secondsDouble(seconds)) {
        case .request(let r):
            return .success(["request": .object(["id": .number(Double(r.id)), "name": .string(r.name),
                                                 "fingerprint": .string(r.fingerprint)])])
        case .closed: return .success(["closed": .bool(true)])
        case .nothing: return .success()
        }
    }

    func decide(_ request: ControlRequest, _ connection: ControlConnection) async -> ControlResponse {
        guard let current = owned(by: connection) else { return .failure("no pairing window is open on this connection") }
        guard let id = request.number("id").flatMap({ UInt32(exactly: $0) }), let pending = current.request(id: id),
              let accept = request.bool("accept") else {
            return .failure("pair-decide needs the id of a request from pair-wait and accept true or false")
        }
        guard accept else {
            current.desk.decide(pending, accept: false)
            return .success()
        }
        let stored: PairedController
        do { stored = try store.addPaired(name: pending.name, publicKey: pending.publicKey) } catch {
            current.desk.decide(pending, accept: false)
            return .failure("\(error)")
        }
        current.desk.decide(pending, accept: true)
        await finish(current)
        return .success(["stored": .object(["name": .string(stored.name), "fingerprint": .string(stored.fingerprint)])])
    }

    private func owned(by connection: ControlConnection) -> PairingWindow? {
        window.withLock { w in w.flatMap { $0.owner == connection.id ? $0 : nil } }
    }

    /// Closes `closing` (once): no new pairings, answers for a little longer. The host's
    /// side closes first, so whoever hears "closed" finds the host no longer pairing.
    private func finish(_ closing: PairingWindow) async {
        guard closing.claimClosing() else { return }
        let grace = Self.answerGrace
        _ = try? await host.onLoop { handler in
            handler.withFraming { $0.closePairing(at: MonotonicClock.now() + grace) }
        }
        closing.close()
    }
}
