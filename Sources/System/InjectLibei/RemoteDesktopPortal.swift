#if os(Linux)
import CLibEI
import Glibc
import RemotionHostLogic
import RemotionProtocol

/// An EIS socket from the desktop's RemoteDesktop portal (GNOME, KDE): HostLogic's
/// `PortalRemoteDesktopFlow` decides each step; this makes the D-Bus calls over the C shim
/// (`remotion_portal.h`, GIO loaded at run time) and hands it the Response signals it reads,
/// every one with its sender and path (the flow takes only the portal's, on the awaited path).
/// docs/INJECTION.md, "The RemoteDesktop portal".
///
/// The portal's session lives as long as this object's D-Bus connection: the libei injector
/// keeps it while it injects and `close()` ends both. Not `Sendable`: one owner.
package final class RemoteDesktopPortal {
    private var handle: OpaquePointer?
    private let owner: String
    private let session: String?

    private init(handle: OpaquePointer, owner: String, session: String?) {
        self.handle = handle
        self.owner = owner
        self.session = session
    }

    deinit { close() }

    /// Ends the portal's session and the connection (the compositor ends the EIS connection).
    package func close() {
        guard let h = handle else { return }
        handle = nil
        if let session { rp_close_session(h, owner, session) }
        rp_free(h)
    }

    /// What the session bus says of the portal: its RemoteDesktop version, or why none
    /// (`--inject auto`, `remotion doctor`).
    package static func facts(environment: [String: String]) -> PortalFacts {
        var why = [CChar](repeating: 0, count: 300)
        guard let address = sessionBus(environment) else { return PortalFacts(version: nil, problem: noBus) }
        guard let h = rp_open(address, &why, why.count) else { return PortalFacts(version: nil, problem: cText(why)) }
        defer { rp_free(h) }
        var owner = [CChar](repeating: 0, count: 256), version: UInt32 = 0
        guard rp_portal_info(h, &owner, owner.count, &version, &why, why.count) == 0 else {
            return PortalFacts(version: nil, problem: cText(why))
        }
        return PortalFacts(version: version, problem: nil)
    }

    /// What one conversation came to: the socket with the portal that holds its session, or
    /// the failure; the restore token's fate either way.
    package struct Run {
        package var socket: (fd: Int32, portal: RemoteDesktopPortal)?
        package var outcome: PortalOutcome
        /// Response signals ignored (another sender or path) and dropped (queue full).
        package var ignoredResponses: Int
    }

    /// Asks the portal for an EIS socket, passing `storedToken` (the last start's) if any.
    /// Blocks until the portal answers: the person may see a dialog (up to the flow's consent
    /// timeout).
    package static func connect(environment: [String: String], storedToken: String?) -> Run {
        var why = [CChar](repeating: 0, count: 300)
        let noToken = PortalOutcome(failure: nil, token: .keep, usedStoredToken: storedToken != nil)
        func failed(_ f: PortalFailure) -> Run {
            var o = noToken
            o.failure = f
            return Run(socket: nil, outcome: o, ignoredResponses: 0)
        }
        guard let address = sessionBus(environment) else { return failed(.noPortal(noBus)) }
        guard let h = rp_open(address, &why, why.count) else { return failed(.noPortal(cText(why))) }
        var ownerBuffer = [CChar](repeating: 0, count: 256), version: UInt32 = 0
        guard rp_portal_info(h, &ownerBuffer, ownerBuffer.count, &version, &why, why.count) == 0 else {
            rp_free(h)
            return failed(.noPortal(cText(why)))
        }
        let owner = cText(ownerBuffer)
        var flow = PortalRemoteDesktopFlow(ownName: String(cString: rp_unique_name(h)), portalOwner: owner,
                                           version: version, storedToken: storedToken)
        var fd: Int32 = -1
        var step = flow.begin(now: monotonicNow())
        while true {
            var path = [CChar](repeating: 0, count: 512)
            switch step {
            case .createSession(let token, let sessionToken):
                step = rp_create_session(h, owner, token, sessionToken, &path, path.count, &why, why.count) == 0
                    ? answer(&flow, h, handle: cText(path)) : flow.callFailed(cText(why))
            case .selectDevices(let session, let token, let types, let persist, let restore):
                step = rp_select_devices(h, owner, session, token, types, persist, restore, &path, path.count, &why, why.count) == 0
                    ? answer(&flow, h, handle: cText(path)) : flow.callFailed(cText(why))
            case .start(let session, let token):
                step = rp_start(h, owner, session, token, &path, path.count, &why, why.count) == 0
                    ? answer(&flow, h, handle: cText(path)) : flow.callFailed(cText(why))
            case .connectToEIS(let session):
                step = rp_connect_to_eis(h, owner, session, &fd, &why, why.count) == 0 ? flow.eisReceived() : flow.callFailed(cText(why))
            case .finished(let outcome):
                let ignored = flow.ignoredResponses + Int(clamping: rp_dropped_responses(h))
                let portal = RemoteDesktopPortal(handle: h, owner: owner, session: flow.sessionHandle)
                guard outcome.failure == nil, fd >= 0 else {
                    if fd >= 0 { Glibc.close(fd) }
                    portal.close()
                    return Run(socket: nil, outcome: outcome, ignoredResponses: ignored)
                }
                return Run(socket: (fd, portal), outcome: outcome, ignoredResponses: ignored)
            }
        }
    }

    /// The call returned its Request's path: waits for the Response the flow takes (or its deadline).
    private static func answer(_ flow: inout PortalRemoteDesktopFlow, _ h: OpaquePointer, handle: String) -> PortalRemoteDesktopFlow.Step {
        flow.requestSent(handle: handle)
        while true {
            let now = monotonicNow()
            if let end = flow.tick(now: now) { return end }
            let left = (flow.nextDeadline ?? now) - now
            let wait = Int32(clamping: min(max(left.nanoseconds / 1_000_000, 1), 1000))
            var r = rp_response()
            guard rp_next_response(h, wait, &r) == 1 else { continue }
            let results = PortalRemoteDesktopFlow.Results(
                sessionHandle: nonEmpty(text(r.session_handle)), restoreToken: nonEmpty(text(r.restore_token)),
                devices: r.has_devices != 0 ? r.devices : nil)
            if let next = flow.response(sender: text(r.sender), path: text(r.path), code: r.code, results: results, now: monotonicNow()) {
                return next
            }
        }
    }

    /// The session bus's address from the host's environment: DBUS_SESSION_BUS_ADDRESS, else
    /// the user's bus in XDG_RUNTIME_DIR (where systemd puts it); nil: none named.
    static func sessionBus(_ environment: [String: String]) -> String? {
        if let a = environment["DBUS_SESSION_BUS_ADDRESS"], !a.isEmpty { return a }
        guard let run = environment["XDG_RUNTIME_DIR"], !run.isEmpty, access(run + "/bus", F_OK) == 0 else { return nil }
        return "unix:path=" + run + "/bus"
    }

    private static let noBus = "no session bus: neither DBUS_SESSION_BUS_ADDRESS nor XDG_RUNTIME_DIR/bus"

    private static func text<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
    }

    private static func nonEmpty(_ s: String) -> String? { s.isEmpty ? nil : s }

    private static func monotonicNow() -> Instant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Instant(nanoseconds: Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec))
    }
}
#endif
