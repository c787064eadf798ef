/// Who holds each paired device's one live session, and its one motion lane
/// (docs/WEB-CONTROLLER.md, "Transports", "The motion lane"; docs/SECURITY.md). Pure:
/// `Handle` is whatever the caller ends a session or a lane with (a closure in the host),
/// `Core` what a lane feeds (the open session's motion path); every method returns the
/// handles to end, and the caller ends them outside its lock.
///
/// - A **session** (a WebSocket hello or a data channel's) replaces the device's last
///   session, and that session's lane goes with it.
/// - A **lane** (a second WebSocket's lane hello, same device credential) attaches to the
///   device's live session only when it names that session (the label its welcome carried)
///   and the session is ready; a device has at most one lane, a newer lane replaces the
///   older one (a page that reopens its lane after an outage cannot reach the old one to
///   close it). A lane never replaces, ends or claims a session.
/// - Releasing a session ends its lane; releasing a lane leaves the session alone; a
///   stale token (a session or lane replaced since) releases nothing.
package struct WebLiveSessions<Handle: Sendable, Core: Sendable>: Sendable {
    private struct Live: Sendable {
        var token: UInt64
        var open: (label: String, core: Core)?   // once open, lanes naming it may attach
        var end: Handle
        var lane: (token: UInt64, end: Handle)?
    }
    private var live: [String: Live] = [:]
    private var next: UInt64 = 1

    package init() {}

    /// Why a lane hello is refused.
    package enum LaneRefusal: String, Error, Sendable, Equatable {
        /// The device has no live session, or not the one the lane names (it ended or
        /// was replaced), or the session is not open yet.
        case noSession = "no-session"
    }

    /// Devices with a live session (for tests and stats).
    package var sessions: Int { live.count }
    /// Lanes attached now.
    package var lanes: Int { live.values.filter { $0.lane != nil }.count }

    /// Makes this the device's one live session: returns its token and the handles of the
    /// session (and its lane) it replaced.
    package mutating func claimSession(_ device: String, end: Handle) -> (token: UInt64, replaced: [Handle]) {
        let token = take()
        let previous = live[device]
        live[device] = Live(token: token, open: nil, end: end, lane: nil)
        return (token, Self.handles(of: previous))
    }

    /// The session with this token is open under `label` (the welcome's `session`): lanes
    /// naming it may attach to `core` from now on. False when the claim was replaced meanwhile.
    @discardableResult
    package mutating func opened(_ device: String, token: UInt64, label: String, core: Core) -> Bool {
        guard live[device]?.token == token else { return false }
        live[device]?.open = (label, core)
        return true
    }

    /// The session with this claim ended: returns its lane's handle to end (nothing when a
    /// newer session holds the device).
    package mutating func releaseSession(_ device: String, token: UInt64) -> [Handle] {
        guard let l = live[device], l.token == token else { return [] }
        live[device] = nil
        return l.lane.map { [$0.end] } ?? []
    }

    /// Attaches a lane to the device's live session named `label`: its token, the session's
    /// core, and the older lane's handle to end; or why not.
    package mutating func attachLane(_ device: String, session label: String, end: Handle)
        -> Result<(token: UInt64, core: Core, replaced: [Handle]), LaneRefusal> {
        guard let l = live[device], let open = l.open, open.label == label else { return .failure(.noSession) }
        let token = take()
        live[device]?.lane = (token, end)
        return .success((token, open.core, l.lane.map { [$0.end] } ?? []))
    }

    /// The lane with this token ended (the session stays).
    package mutating func releaseLane(_ device: String, token: UInt64) {
        if live[device]?.lane?.token == token { live[device]?.lane = nil }
    }

    /// Whether the lane with this token is still the device's lane.
    package func holdsLane(_ device: String, token: UInt64) -> Bool { live[device]?.lane?.token == token }

    private mutating func take() -> UInt64 {
        defer { next += 1 }
        return next
    }

    private static func handles(of live: Live?) -> [Handle] {
        guard let live else { return [] }
        return [live.end] + (live.lane.map { [$0.end] } ?? [])
    }
}
