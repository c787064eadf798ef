import RemotionNetwork
import Foundation
import RemotionHostLogic
import Synchronization

/// The web controller server's view of who may connect: the paired devices (read from
/// `web-controllers.json`, re-read when the file changes, so `remotion devices --revoke`
/// reaches a running host) and the open pairing secrets. Shared by the HTTP routes and
/// every WebSocket; all state is behind one Mutex.
package final class WebDeviceRegistry: Sendable {
    package let store: WebCredentialStore
    private struct State {
        var devices: [WebDevice] = []
        var stamp = ""
        var desk: WebPairingDesk
        var refusedHellos = 0
        var refusedPairings = 0
    }
    private let state: Mutex<State>

    package init(store: WebCredentialStore, window: TimeInterval = WebPairingDesk.defaultWindow) throws(PrivateFileError) {
        self.store = store
        state = Mutex(State(desk: WebPairingDesk(window: window)))
        try reload(force: true)
    }

    /// Re-reads the device file when its stamp (mtime, size, inode) changed. A file that
    /// became unreadable or corrupt trusts nobody rather than keeping stale trust.
    package func reload(force: Bool = false) throws(PrivateFileError) {
        let attributes = try? FileManager.default.attributesOfItem(atPath: store.path)
        let stamp = attributes.map { "\($0[.modificationDate] ?? "")/\($0[.size] ?? "")/\($0[.systemFileNumber] ?? "")" } ?? "none"
        guard force || state.withLock({ $0.stamp != stamp }) else { return }
        let devices: [WebDevice]
        do { devices = try store.devices() } catch {
            state.withLock { $0.devices = []; $0.stamp = stamp }
            throw error
        }
        state.withLock { $0.devices = devices; $0.stamp = stamp }
    }

    /// The device whose credential this is, or nil (counted).
    package func verify(id: String, credential: String) -> WebDevice? {
        state.withLock { s in
            let device = WebCredentialStore.verify(id: id, credential: credential, in: s.devices)
            if device == nil { s.refusedHellos += 1 }
            return device
        }
    }

    /// Whether `id` is still paired (checked by live sockets after every reload).
    package func isTrusted(_ id: String) -> Bool { state.withLock { s in s.devices.contains { $0.id == id } } }

    /// Opens a pairing window: a new one-time secret valid for the desk's window.
    package func openPairing(now: Date = Date()) -> String { state.withLock { $0.desk.open(now: now) } }

    /// Trades a one-time secret for a device credential; stores the device's hash.
    package func redeem(secret: String, name: String, now: Date = Date()) throws -> WebPairing {
        let result = state.withLock { s -> Result<WebPairing, WebPairingError> in
            do throws(WebPairingError) { return .success(try s.desk.redeem(secret: secret, name: name, now: now)) } catch {
                s.refusedPairings += 1
                return .failure(error)
            }
        }
        let pairing = try result.get()
        try store.add(pairing.device)
        try reload(force: true)
        return pairing
    }

    package var counters: (refusedHellos: Int, refusedPairings: Int) {
        state.withLock { ($0.refusedHellos, $0.refusedPairings) }
    }
}
