import RemotionProtocol
import RemotionHostLogic

/// Everything the pipeline keeps for one open session, in one record: created when the
/// session opens, removed whole when it closes (what it leaves behind is added to
/// `ClosedSessionTotals`, a fixed-size value). Nothing per session lives anywhere else
/// in the pipeline, so nothing can be forgotten on close.
package struct PipelineSession: Sendable {
    /// Latency, rates, attitude, pointer, name: what the status shows.
    package var telemetry: SessionTelemetry
    /// Motion mapping state: filters, gyro calibration and fusion, each mode's mapper.
    var mapper: MotionMapper
    /// The session's own profile (mapping settings and button map), or nil while it
    /// follows the host's (config file, dashboard).
    var ownProfile: MappingProfile?
    /// The mode the controller chose for itself (its page's mode switch, the dashboard),
    /// kept when the host's settings change; a profile given to the session replaces it.
    var ownMode: MappingSettings.Mode?
    /// The button map in effect (the own profile's, or the host's), kept here so a button
    /// edge reads one field; `gated`: it has a hold-to-enable-motion button (worked out
    /// when the map changes, not per sample).
    var buttons: ButtonMap { didSet { gated = buttons.gatesMotion } }
    private(set) var gated: Bool
    /// Recent pointer positions for the dashboard's trail (only when someone reads status).
    var trail: PointerTrail?
    /// A `hold-to-enable-motion` button is held.
    var motionHeld = false
    /// Already told that pointer mode needs an attitude this controller does not send.
    var attitudeNoted = false
    /// The phone page's touchpad: sub-pixel and sub-step remainders (HostPipeline+WebInput).
    var touchpad = TouchpadMapper()
    /// May this controller type text and keys from its page (its device's permission)?
    var typing = true
    /// How much text it may still type now.
    var textBudget = TextBudget()

    init(telemetry: SessionTelemetry, profile: MappingProfile, keepsTrail: Bool) {
        self.telemetry = telemetry
        mapper = MotionMapper(settings: profile.settings)
        buttons = profile.buttons
        gated = profile.gatesMotion
        trail = keepsTrail ? PointerTrail(capacity: HostPipeline.trailLength) : nil
    }

    /// The settings this session maps with, given the host's profile: its own profile's or
    /// the host's, in the mode it chose if it chose one.
    func settings(host: MappingProfile) -> MappingSettings {
        var s = (ownProfile ?? host).settings
        if let ownMode { s.mode = ownMode }
        return s
    }

    /// Motion moves the pointer now (not gated by a hold-to-enable button that is up).
    var motionEnabled: Bool { !gated || motionHeld }
}

/// What the host keeps of every session that has ended: totals of a fixed size, never a
/// list, so a host that serves phones for weeks (reloads, Wi-Fi blips, screen locks
/// reconnect them all the time) does not grow with them.
package struct ClosedSessionTotals: Sendable, Equatable {
    package private(set) var sessions = 0
    /// Sessions by why they ended ("timed-out", "client-disconnected:user", …): a small,
    /// fixed set of reasons.
    package private(set) var reasons: [String: Int] = [:]
    package private(set) var motionPackets = 0
    package private(set) var buttonEdges = 0
    /// One-way latency of every ended session's measured samples, merged.
    package private(set) var latency = LatencyHistogram()

    package init() {}

    mutating func add(_ t: SessionTelemetry, reason: SessionCloseReason) {
        sessions += 1
        reasons["\(reason)", default: 0] += 1
        motionPackets += t.motionPackets
        buttonEdges += t.buttonEdges
        latency.add(t.latency)
    }
}

/// A token bucket for typed characters: `rate` a second, at most `burst` at once; the time
/// is a parameter.
struct TextBudget: Sendable {
    static let rate = 200
    static let burst = 1000
    private var tokens = Double(TextBudget.burst)
    private var last: Instant?

    /// Takes `count` characters' worth if there is enough; false (nothing taken) otherwise.
    mutating func take(_ count: Int, now: Instant) -> Bool {
        if let last { tokens = min(Double(Self.burst), tokens + (now - last).secondsDouble * Double(Self.rate)) }
        last = now
        guard Double(count) <= tokens else { return false }
        tokens -= Double(count)
        return true
    }
}
