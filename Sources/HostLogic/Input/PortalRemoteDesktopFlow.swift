import RemotionProtocol

/// The RemoteDesktop portal's conversation for an EIS socket (org.freedesktop.portal.RemoteDesktop,
/// version 2 or later), as decisions: which call comes next, which `Response` signal answers the
/// call waited on, what a response code means and what becomes of the restore token.
/// The D-Bus calls are the adapter's (System/InjectLibei's `RemoteDesktopPortal`); the clock is a
/// parameter. docs/INJECTION.md, "The RemoteDesktop portal".
///
/// The calls: `CreateSession`, `SelectDevices` (keyboard and pointer, `persist_mode` 2 "until
/// revoked", the stored `restore_token` when there is one), `Start` (the person's consent: a
/// dialog, unless the portal honours the token), `ConnectToEIS` (the socket). The first three
/// answer through a Request object: the call returns its path at once and the answer comes later
/// as the Request's `Response` signal. Any program on the session bus may emit a signal, so a
/// `Response` counts only when its sender is the portal's unique name (only the bus sets a
/// message's sender) and its path is the handle of the call waited on; anything else is ignored
/// and counted.
package struct PortalRemoteDesktopFlow: Sendable {
    package static let keyboard: UInt32 = 1
    package static let pointer: UInt32 = 2
    /// `persist_mode` 2: the permission stays until the person revokes it.
    package static let persistUntilRevoked: UInt32 = 2
    /// ConnectToEIS and persist_mode came with version 2 of the interface.
    package static let minimumVersion: UInt32 = 2
    /// How long a Request may take to answer (CreateSession, SelectDevices).
    package static let requestTimeout: Duration = .seconds(30)
    /// How long the person has to answer the consent dialog (Start).
    package static let consentTimeout: Duration = .seconds(180)

    /// What the adapter does next.
    package enum Step: Sendable, Hashable {
        case createSession(handleToken: String, sessionHandleToken: String)
        case selectDevices(session: String, handleToken: String, types: UInt32, persistMode: UInt32, restoreToken: String?)
        case start(session: String, handleToken: String)
        /// A plain call (no Request): its reply carries the socket.
        case connectToEIS(session: String)
        case finished(PortalOutcome)
    }

    /// The named values of a `Response`'s results that the flow reads.
    package struct Results: Sendable, Hashable {
        package var sessionHandle: String?
        package var restoreToken: String?
        package var devices: UInt32?
        package init(sessionHandle: String? = nil, restoreToken: String? = nil, devices: UInt32? = nil) {
            self.sessionHandle = sessionHandle
            self.restoreToken = restoreToken
            self.devices = devices
        }
    }

    private enum Stage: Sendable, Hashable { case idle, createSession, selectDevices, start, connectToEIS, finished }

    package let portalOwner: String
    private let ownName: String
    private let version: UInt32
    private let storedToken: String?
    private var stage = Stage.idle
    private var session: String?
    private var handle: String?
    private var deadline: Instant?
    private var requests = 0
    /// The token decided after Start (kept until the flow finishes).
    private var tokenChange = PortalTokenChange.keep
    /// `Response` signals not taken: another sender, another path, or none awaited.
    package private(set) var ignoredResponses = 0

    /// `ownName`: this connection's unique name (the Request paths are made from it);
    /// `portalOwner`: the unique name owning org.freedesktop.portal.Desktop; `version`: the
    /// RemoteDesktop interface's; `storedToken`: the restore token kept from the last start.
    package init(ownName: String, portalOwner: String, version: UInt32, storedToken: String?) {
        self.ownName = ownName
        self.portalOwner = portalOwner
        self.version = version
        self.storedToken = storedToken.flatMap { PortalRestoreToken.isValid($0) ? $0 : nil }
    }

    /// Whether the stored token is passed to SelectDevices.
    package var usesStoredToken: Bool { storedToken != nil }

    /// When to call `tick` (the answer waited on is late then); nil when nothing is awaited.
    package var nextDeadline: Instant? { deadline }

    /// The first call, or the end when the portal is too old.
    package mutating func begin(now: Instant) -> Step {
        guard stage == .idle else { return finish(.callFailed(step: "begin", message: "the flow already began")) }
        guard version >= Self.minimumVersion else { return finish(.tooOld(version: version)) }
        return awaitAnswer(.createSession, now: now, .createSession(handleToken: nextToken(), sessionHandleToken: "remotion_session"))
    }

    /// The call that returns a Request returned its handle (an old portal may give another
    /// path than the one made from the token: that one is awaited then).
    package mutating func requestSent(handle: String) {
        guard [.createSession, .selectDevices, .start].contains(stage), PortalRequestPath.isObjectPath(handle) else { return }
        self.handle = handle
    }

    /// A `Response` signal: the next step when it answers the call waited on, nil when it is
    /// ignored (another sender, another path, none awaited).
    package mutating func response(sender: String, path: String, code: UInt32, results: Results, now: Instant) -> Step? {
        guard sender == portalOwner, let handle, path == handle else { ignoredResponses += 1; return nil }
        self.handle = nil
        switch stage {
        case .createSession:
            guard code == 0 else { return finish(.refused(step: "CreateSession", code: code)) }
            guard let s = results.sessionHandle, PortalRequestPath.isObjectPath(s) else {
                return finish(.malformed(step: "CreateSession", what: "no session_handle"))
            }
            session = s
            return awaitAnswer(.selectDevices, now: now,
                         .selectDevices(session: s, handleToken: nextToken(), types: Self.keyboard | Self.pointer,
                                        persistMode: Self.persistUntilRevoked, restoreToken: storedToken))
        case .selectDevices:
            guard code == 0 else {
                if storedToken != nil { tokenChange = .drop }
                return finish(.refused(step: "SelectDevices", code: code))
            }
            return awaitAnswer(.start, now: now, .start(session: session ?? "", handleToken: nextToken()))
        case .start:
            guard code == 0 else {
                if storedToken != nil { tokenChange = .drop }
                return finish(code == 1 ? .cancelled : .refused(step: "Start", code: code))
            }
            // A token is good for one start: the portal hands a new one each time (none: the
            // permission was not kept, and the old one is spent).
            if let t = results.restoreToken, PortalRestoreToken.isValid(t) { tokenChange = .store(t) } else { tokenChange = .drop }
            if let granted = results.devices, granted & Self.pointer == 0 {
                return finish(.devicesMissing(granted: granted))
            }
            stage = .connectToEIS
            deadline = nil
            return .connectToEIS(session: session ?? "")
        case .idle, .connectToEIS, .finished:
            ignoredResponses += 1
            return nil
        }
    }

    /// ConnectToEIS's reply carried a socket: done.
    package mutating func eisReceived() -> Step {
        guard stage == .connectToEIS else { return finish(.callFailed(step: "ConnectToEIS", message: "a socket came unasked")) }
        return finish(nil)
    }

    /// A call failed (its D-Bus error, or no socket in ConnectToEIS's reply).
    package mutating func callFailed(_ message: String) -> Step {
        finish(.callFailed(step: stageName, message: message))
    }

    /// The time passed: the end when the answer waited on is late.
    package mutating func tick(now: Instant) -> Step? {
        guard let deadline, now >= deadline else { return nil }
        return finish(stage == .start ? .noAnswer : .timedOut(step: stageName))
    }

    /// The session's object path once CreateSession answered (closed by the adapter on failure).
    package var sessionHandle: String? { session }

    private var stageName: String {
        switch stage {
        case .idle: "begin"
        case .createSession: "CreateSession"
        case .selectDevices: "SelectDevices"
        case .start: "Start"
        case .connectToEIS: "ConnectToEIS"
        case .finished: "finished"
        }
    }

    private mutating func nextToken() -> String {
        requests += 1
        return "remotion_\(requests)"
    }

    private mutating func awaitAnswer(_ next: Stage, now: Instant, _ step: Step) -> Step {
        stage = next
        deadline = now + (next == .start ? Self.consentTimeout : Self.requestTimeout)
        switch step {
        case .createSession(let token, _), .selectDevices(_, let token, _, _, _), .start(_, let token):
            handle = PortalRequestPath.path(ownName: ownName, token: token)
        default: handle = nil
        }
        return step
    }

    private mutating func finish(_ failure: PortalFailure?) -> Step {
        stage = .finished
        deadline = nil
        handle = nil
        return .finished(PortalOutcome(failure: failure, token: tokenChange, usedStoredToken: storedToken != nil))
    }
}

/// What the flow came to: the socket (no failure) or why not, and the restore token's fate.
package struct PortalOutcome: Sendable, Hashable {
    package var failure: PortalFailure?
    package var token: PortalTokenChange
    package var usedStoredToken: Bool

    package init(failure: PortalFailure?, token: PortalTokenChange, usedStoredToken: Bool) {
        self.failure = failure
        self.token = token
        self.usedStoredToken = usedStoredToken
    }
}

/// What becomes of the stored restore token.
package enum PortalTokenChange: Sendable, Hashable {
    case keep
    case store(String)
    case drop
}

/// The Request object's path the portal makes for a call: the caller's unique name without
/// its ':' and with '.' as '_', and the call's handle_token.
package enum PortalRequestPath {
    package static func path(ownName: String, token: String) -> String {
        var sender = ownName.hasPrefix(":") ? String(ownName.dropFirst()) : ownName
        sender = String(sender.map { $0 == "." ? "_" : $0 })
        return "/org/freedesktop/portal/desktop/request/\(sender)/\(token)"
    }

    /// A D-Bus object path: '/', or '/'-separated non-empty elements of [A-Za-z0-9_]; bounded.
    package static func isObjectPath(_ s: String) -> Bool {
        guard s.utf8.count <= 1024, s.hasPrefix("/") else { return false }
        if s == "/" { return true }
        let elements = s.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        return elements.allSatisfy { e in
            !e.isEmpty && e.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x5F }
        }
    }
}
