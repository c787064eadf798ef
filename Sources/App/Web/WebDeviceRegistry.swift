import RemotionNetwork
import Foundation
import RemotionHostLogic
import Synchronization
import RemotionProtocol

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
        var consent = WebPairingConsent()
        /// `/api/rtc` offers per device: 6 per 30 s (a page makes one per connection).
        var offers = PerKeyRateLimit(limit: 6, window: 30)
        /// The one live session of each device, on either transport, its motion lane, and
        /// how to end each.
        var live = WebLiveSessions<@Sendable () -> Void, WebSessionDriver>()
        var refusedHellos = 0
        var refusedPairings = 0
    }
    private let state: Mutex<State>
    /// Told of every phone that asks to pair, and of every phone paired (the host announces both).
    private let onRequest: @Sendable (WebPairingConsent.Request) -> Void
    private let onPaired: @Sendable (WebDevice) -> Void

    package init(store: WebCredentialStore, window: TimeInterval = WebPairingDesk.defaultWindow,
                 onRequest: @escaping @Sendable (WebPairingConsent.Request) -> Void = { _ in },
                 onPaired: @escaping @Sendable (WebDevice) -> Void = { _ in }) throws(PrivateFileError) {
        self.store = store
        self.onRequest = onRequest
        self.onPaired = onPaired
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

    /// Whether `id` may signal another data channel now (the per-device offer rate).
    package func allowOffer(from id: String, now: Date = Date()) -> Bool {
        state.withLock { $0.offers.allow(id, now: now) }
    }

    /// Makes this the device's one live session (WebSocket or data channel): the one it had
    /// is told to end (`end`, called outside the lock), its motion lane with it — a phone
    /// that reconnects replaces its old session, and one credential cannot hold more than
    /// one slot. Returns the claim's token for `release`.
    package func claimSession(_ id: String, end: @escaping @Sendable () -> Void) -> UInt64 {
        let (token, replaced) = state.withLock { $0.live.claimSession(id, end: end) }
        for end in replaced { end() }
        return token
    }

    /// The claimed WebSocket session is open: a motion lane naming `label` may attach to `core`.
    func sessionOpened(_ id: String, token: UInt64, label: String, core: WebSessionDriver) {
        state.withLock { _ = $0.live.opened(id, token: token, label: label, core: core) }
    }

    /// The session with this claim ended (a newer one's claim is left alone); its motion
    /// lane is told to end.
    package func releaseSession(_ id: String, token: UInt64) {
        let lanes = state.withLock { $0.live.releaseSession(id, token: token) }
        for end in lanes { end() }
    }

    /// A second WebSocket's lane hello (already verified as device `id`): attaches it to the
    /// device's open session named `session`, replacing an older lane; nil when there is
    /// no such session. A lane never claims, replaces or ends a session.
    func attachLane(_ id: String, session: String, end: @escaping @Sendable () -> Void) -> (token: UInt64, core: WebSessionDriver)? {
        let result = state.withLock { $0.live.attachLane(id, session: session, end: end) }
        guard case .success(let attached) = result else { return nil }
        for end in attached.replaced { end() }
        return (attached.token, attached.core)
    }

    /// The lane with this token ended.
    func releaseLane(_ id: String, token: UInt64) { state.withLock { $0.live.releaseLane(id, token: token) } }

    /// Live sessions and attached lanes now (tests, stats).
    package var live: (sessions: Int, lanes: Int) { state.withLock { ($0.live.sessions, $0.live.lanes) } }

    /// Whether the paired device `id` may type (false when unknown).
    /// The paired devices as last read (the file is re-read when it changes), oldest first.
    package var devices: [WebDevice] { state.withLock { $0.devices } }

    package func mayType(_ id: String) -> Bool { state.withLock { s in s.devices.first { $0.id == id }?.mayType ?? false } }

    /// Whether `id` is still paired (checked by live sockets after every reload).
    package func isTrusted(_ id: String) -> Bool { state.withLock { s in s.devices.contains { $0.id == id } } }

    /// Opens a pairing window: a new one-time secret valid for the desk's window.
    package func openPairing(now: Date = Date()) -> String { openPairingLink(now: now).secret }

    /// Opens a pairing window and names its link (the requests its phone makes carry the name).
    package func openPairingLink(now: Date = Date()) -> WebPairingDesk.Opened {
        var rng = SecureRandom()
        return state.withLock { $0.desk.openLink(now: now, using: &rng) }
    }

    /// Trades a one-time secret for a request the person at the computer answers
    /// (`WebPairingConsent`): the phone's ticket and what the computer shows. Nothing is stored yet.
    package func redeem(secret: String, name: String, address: String, now: Date = Date()) throws
        -> (ticket: String, request: WebPairingConsent.Request) {
        let result = state.withLock { s -> Result<(String, WebPairingConsent.Request), any Error> in
            do {
                let pairing = try s.desk.redeem(secret: secret, name: name, now: now)
                var rng = SecureRandom()
                return .success(try s.consent.ask(pairing, address: address, now: now, using: &rng))
            } catch {
                s.refusedPairings += 1
                return .failure(error)
            }
        }
        let (ticket, request) = try result.get()
        onRequest(request)
        return (ticket, request)
    }

    /// The person at the computer answers a waiting phone (by the code it shows and the
    /// request's id the prompt showed); nil when no phone waits with that code and id.
    package func decide(code: String, id: String, accept: Bool, now: Date = Date()) -> WebPairingConsent.Decision? {
        state.withLock { $0.consent.decide(code: code, id: id, accept: accept, now: now) }
    }

    /// The phones waiting for an answer (with `link`: those that used that link).
    package func pendingPairings(now: Date = Date(), link: String? = nil) -> [WebPairingConsent.Request] {
        state.withLock { $0.consent.pending(now: now, link: link) }
    }

    /// A waiting phone polls with its ticket; an accepted one's device is stored now, and
    /// its credential handed over this once.
    package func collect(ticket: String, now: Date = Date()) throws -> WebPairingConsent.Answer {
        let answer = state.withLock { $0.consent.collect(ticket: ticket, now: now) }
        if case .accepted(let pairing) = answer {
            try store.add(pairing.device)
            try reload(force: true)
            onPaired(pairing.device)
        }
        return answer
    }

    package var counters: (refusedHellos: Int, refusedPairings: Int) {
        state.withLock { ($0.refusedHellos, $0.refusedPairings) }
    }
}
