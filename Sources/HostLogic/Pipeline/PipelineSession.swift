import RemotionProtocol

/// Everything the pipeline keeps for one open session, in one record: created when the
/// session opens (`PipelineCore.open`), removed whole when it closes (what it leaves behind
/// is added to `ClosedSessionTotals`, a fixed-size value). Nothing per session lives
/// anywhere else in the pipeline, so nothing can be forgotten on close.
package struct PipelineSession: Sendable {
    /// Latency, rates, attitude, pointer, name: what the status shows.
    package var telemetry: SessionTelemetry
    /// Motion mapping state: filters, gyro calibration and fusion, each mode's mapper.
    package var mapper: MotionMapper
    /// The controller's sample clock on the host's (`SampleTimeline`): what every consumer
    /// of a sample's time reads.
    package var timeline = SampleTimeline()
    /// The session's own profile (mapping settings and button map), or nil while it
    /// follows the host's (config file, dashboard).
    package var ownProfile: MappingProfile?
    /// The `[[profile]]` in force for it (its index in `FocusProfiles`), nil: none.
    package var focusProfile: Int?
    /// The mode the controller chose for itself (its page's mode switch, the dashboard),
    /// kept when the host's settings change; a profile given to the session replaces it. A
    /// `[[profile]]` that names a mode wins over it while in force; it is back after.
    package var ownMode: MappingSettings.Mode?
    /// The `[[profile]]` in force names the mode, the gyro stick (they win over the page's).
    package var focusNamesMode = false
    package var focusNamesGyroStick = false
    /// Whether it had a pad before a `[[profile]]` with `pad` changed that (nil: none did):
    /// it is given back when such profiles go.
    package var padBeforeFocus: Bool?
    /// The gyro stick its page chose (`PipelineCore.setGyroStick`), kept like its mode.
    package var ownGyroStick: GyroStickSettings.Target?
    /// The button map in effect (the own profile's, or the host's), kept here so a button
    /// edge reads one field; `gated`: it has a hold-to-enable-motion button (worked out
    /// when the map changes, not per sample).
    package var buttons: ButtonMap { didSet { gated = buttons.gatesMotion } }
    package private(set) var gated: Bool
    /// Recent pointer positions for the dashboard's trail (only when someone reads status).
    package var trail: PointerTrail?
    /// A `hold-to-enable-motion` button is held.
    package var motionHeld = false
    /// Already told that pointer mode needs an attitude this controller does not send.
    package var attitudeNoted = false
    /// The phone page's touchpad: sub-pixel and sub-step remainders (the web input).
    package var touchpad = TouchpadMapper()
    /// May this controller type text and keys from its page (its device's permission)? Off
    /// until its transport says so (`PipelineCore.setTyping`, sent as the session opens): text
    /// or a key that arrives first types nothing, whatever the transport.
    package var typing = false
    /// How much text it may still type now.
    package var textBudget = TextBudget()

    /// The session's virtual pad (`--gamepad`): its state from this controller's samples and
    /// edges; nil when the host makes no pads.
    package var pad: GamepadFeed?
    /// What a game wrote to that pad, paced on its way back to the controller.
    package var feedback = FeedbackPacer()
    /// The controller's stable identity for its pad (`PipelineCore.setPad`, `PadOpenLimit`).
    package var padIdentity = ""
    /// Under `[gamepad] for = "every"`: when the pad the session should have had at open may
    /// be made (`PadOpenLimit` held it back: its controller came and went too often); nil
    /// when none is owed.
    package var padOwedAt: Instant?
    /// What its page has been told about a manual calibration (`CalibrationReport`).
    package var calibrationReporter = CalibrationReporter()
    /// Calibration memory: the controller's identity, its calibration's age, what was saved
    /// (PipelineCore+Calibration).
    package var calibration = SessionCalibration()

    package init(telemetry: SessionTelemetry, profile: MappingProfile, keepsTrail: Bool, pad: GamepadFeed? = nil) {
        self.telemetry = telemetry
        mapper = MotionMapper(settings: profile.settings)
        buttons = profile.buttons
        gated = profile.gatesMotion
        trail = keepsTrail ? PointerTrail(capacity: PipelineCore.trailLength) : nil
        self.pad = pad
    }

    /// The settings this session maps with, given the host's profile: its own profile's or
    /// the host's, in the mode it chose if it chose one (unless a `[[profile]]` in force names one).
    package func settings(host: MappingProfile) -> MappingSettings {
        var s = (ownProfile ?? host).settings
        if let ownMode, !focusNamesMode { s.mode = ownMode }
        if let ownGyroStick, !focusNamesGyroStick { s.gyroStick.target = ownGyroStick }
        return s
    }

    /// Motion moves the pointer now (not gated by a hold-to-enable button that is up).
    package var motionEnabled: Bool { !gated || motionHeld }
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
    /// Samples whose time was pulled toward the host's clock, and restarts of the mapping
    /// (`SampleTimeline`'s re-anchors and discontinuities), over every ended session.
    package private(set) var clockReanchors = 0
    package private(set) var clockRestarts = 0

    package init() {}

    package mutating func add(_ t: SessionTelemetry, timeline: SampleTimeline, reason: SessionCloseReason) {
        sessions += 1
        clockReanchors &+= timeline.reanchors
        clockRestarts &+= timeline.discontinuities
        reasons["\(reason)", default: 0] += 1
        motionPackets += t.motionPackets
        buttonEdges += t.buttonEdges
        latency.add(t.latency)
    }
}

/// A token bucket for typed characters: `rate` a second, at most `burst` at once; the time
/// is a parameter.
package struct TextBudget: Sendable {
    package static let rate = 200
    package static let burst = 1000
    private var tokens = Double(TextBudget.burst)
    private var last: Instant?

    package init() {}

    /// Takes `count` characters' worth if there is enough; false (nothing taken) otherwise.
    package mutating func take(_ count: Int, now: Instant) -> Bool {
        if let last { tokens = min(Double(Self.burst), tokens + (now - last).secondsDouble * Double(Self.rate)) }
        last = now
        guard Double(count) <= tokens else { return false }
        tokens -= Double(count)
        return true
    }
}
