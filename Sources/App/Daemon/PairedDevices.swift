import Foundation
import RemotionHostLogic
import RemotionNetwork

/// Who may drive this host, for the person at the computer wherever they are: the
/// phones waiting to pair, the paired phones (web controllers) and the paired UDP
/// controllers. The dashboard's Accept / Deny / Revoke / typing switch and the terminal
/// view's keys use this; `remotion devices` does the same through the control socket.
///
/// It owns no state of its own: a decision goes to the one `WebPairingConsent` behind the
/// registry (whoever answers a request first wins; the others find it answered), and a
/// revocation or typing change goes to the files `remotion devices` writes, which the
/// running host already watches (a revoked phone is told `closing: revoked` within a
/// second, a revoked UDP controller's session is closed at the next trust reload, 250 ms).
package struct PairedDevices: Sendable {
    /// The web controller's registry; nil when the host runs `--no-web`.
    package let registry: WebDeviceRegistry?
    /// `paired.json`, the UDP controllers this host trusts.
    package let keys: KeyStore

    package init(registry: WebDeviceRegistry?, keys: KeyStore) {
        self.registry = registry
        self.keys = keys
    }

    /// The phones waiting for an answer, oldest first.
    package func waiting(now: Date = Date()) -> [WebPairingConsent.Request] { registry?.pendingPairings(now: now) ?? [] }

    package enum Answer: Sendable, Equatable {
        case answered(WebPairingConsent.Decision)
        /// Not `CODE-ID`.
        case malformed
        /// No phone waits as that request: answered elsewhere, expired, or never asked.
        case notWaiting
        /// The host serves no web controller (`--no-web`).
        case noWeb
    }

    /// Answers the waiting phone named `CODE-ID` (the same request the control socket answers).
    package func answer(reference: String, accept: Bool, now: Date = Date()) -> Answer {
        guard let registry else { return .noWeb }
        guard let (code, id) = WebPairingConsent.Request.parse(reference: reference) else { return .malformed }
        return registry.decide(code: code, id: id, accept: accept, now: now).map(Answer.answered) ?? .notWaiting
    }

    /// The paired phones, oldest first: the running host's list in memory (re-read when the
    /// file changes), not a read of the file for every dashboard poll.
    package func phones() throws(PrivateFileError) -> [WebDevice] {
        guard let registry else { return (try? WebCredentialStore(directory: keys.directory).devices()) ?? [] }
        return registry.devices
    }

    /// The paired UDP controllers, oldest first.
    package func controllers() throws -> [PairedController] { try keys.pairedControllers() }

    /// Removes the phone whose id is exactly `id`; a running host drops its live session
    /// (re-read at once here, as the 250 ms watch would). nil: no such phone.
    package func revoke(phone id: String) throws(PrivateFileError) -> WebDevice? {
        guard Self.isDeviceID(id) else { return nil }
        let store = registry?.store ?? WebCredentialStore(directory: keys.directory)
        let removed = try store.revoke(id: id)
        if removed != nil { try registry?.reload(force: true) }
        return removed
    }

    /// Removes the UDP controller whose fingerprint is exactly `fingerprint` (as listed);
    /// the host's next trust reload closes its session. nil: no such controller.
    package func revoke(controller fingerprint: String) throws -> PairedController? {
        try keys.changing {
            let list = try keys.pairedControllers()
            guard !fingerprint.isEmpty, let match = list.first(where: { $0.fingerprint == fingerprint }) else { return nil }
            try keys.savePaired(list.filter { $0.fingerprint != fingerprint })
            return match
        }
    }

    /// Lets the phone whose id is exactly `id` type, or not; nil: no such phone.
    package func setTyping(phone id: String, allowed: Bool) throws(PrivateFileError) -> WebDevice? {
        guard Self.isDeviceID(id) else { return nil }
        let store = registry?.store ?? WebCredentialStore(directory: keys.directory)
        let changed = try store.setTyping(id: id, allowed: allowed)
        if changed != nil { try registry?.reload(force: true) }
        return changed
    }

    /// 16 lowercase hex digits, as `WebPairingDesk` makes them.
    static func isDeviceID(_ id: String) -> Bool {
        id.utf8.count == 16 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
