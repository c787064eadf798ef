import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// The one seam for controllers on other transports: the web page's WebSocket, a WebRTC
/// data channel, a DSU app's slot, and whatever comes next (a local gamepad). A transport
/// opens a session from its typed origin (`ControllerOrigin`: what the status shows; no
/// made-up address) and named as the user should see it, feeds it samples and edges, and closes it when its
/// connection ends; the host's state machine gives it a slot under `--max-controllers`,
/// delivers its edges once (the sample's button field is the truth), and releases
/// everything it held when it closes.
///
/// Called from any thread: each call hops to the host's loop (calls from one thread keep
/// their order) and becomes the pipeline's own verb there (HostPipeline+Controllers), the
/// one a transport on the host's loop (DSU, local pads) calls directly.
package protocol ExternalControllerHost: Sendable {
    /// The host's name (shown on the phone's page).
    var name: String { get }
    /// A session for a controller from `origin` (the page: `.web`, with the phone's address
    /// when the transport knows it), or nil when every controller slot is taken. `notices`
    /// gets what the host tells the controller unasked — the rumble and light a game writes
    /// to the session's virtual pad, a manual calibration's progress — (on the host's loop;
    /// it must not block: it queues a send), nil when the transport has no way back.
    func open(from origin: HostControllerOrigin, name: String,
              notices: (@Sendable (ControllerNotice) -> Void)?) async -> SessionID?
    /// `latencyMicros`: one-way latency where the transport can estimate the clocks, else nil.
    func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64?)
    func button(_ id: SessionID, _ button: Button, isDown: Bool)
    func close(_ id: SessionID, reason: SessionCloseReason)
    /// The transport heard from the controller without an event (a ping): the host's
    /// backstop (`ExternalControllers.timeout`) keeps an idle, live session.
    func heard(_ id: SessionID)
    func recenter(_ id: SessionID)
    /// The session's device may type, or not (set after `open`, again when the owner changes it).
    func setTyping(_ id: SessionID, allowed: Bool)
    /// Sets (or, with nil, reads) the session's mode, in order with the session's other
    /// calls; `reply` gets the mode in effect (on the host's loop).
    func mode(_ id: SessionID, set mode: MappingSettings.Mode?, reply: @escaping @Sendable (MappingSettings.Mode) -> Void)
    /// Gives the session a virtual pad (`on`) or takes it away (not when the host gives every
    /// controller one), in order with its other calls; `reply` gets whether it has one now,
    /// nil when this host makes no pads.
    func pad(_ id: SessionID, on: Bool, reply: @escaping @Sendable (Bool?) -> Void)
    /// Sets the session's gyro stick (its page's choice), in order with its other calls;
    /// `reply` gets the target in effect.
    func gyroStick(_ id: SessionID, _ target: GyroStickSettings.Target,
                   reply: @escaping @Sendable (GyroStickSettings.Target) -> Void)
    /// The controller asks for a manual gyro calibration (its page's Calibrate), in order with
    /// its other calls; `reply` gets what came of it (started, the one already running, or
    /// why not; nil when the session is gone). Progress and the end follow as notices.
    func calibrate(_ id: SessionID, reply: @escaping @Sendable (CalibrationReport?) -> Void)
    /// The session's button map as the phone page labels it (sent after the welcome).
    func buttonLabels(_ id: SessionID) async -> WebInputReply?
    /// One touchpad/typing/laser message of the page, in order with the session's motion
    /// and button frames; `reply` gets the answer for the page, nil when there is none (on
    /// the host's loop, later: never from inside this call, which a caller may make under
    /// its lock — `WebSessionDriver` does).
    func input(_ id: SessionID, _ message: WebInputMessage, reply: @escaping @Sendable (WebInputReply?) -> Void)
}

extension ExternalControllerHost {
    /// `mode(_:set:reply:)`, awaited.
    func mode(_ id: SessionID, set mode: MappingSettings.Mode?) async -> MappingSettings.Mode {
        await withCheckedContinuation { done in self.mode(id, set: mode) { done.resume(returning: $0) } }
    }
}

/// The real host behind the seam.
package struct PipelineControllers: ExternalControllerHost {
    package let loop: HostLoop
    package let name: String

    package init(loop: HostLoop, name: String) {
        self.loop = loop
        self.name = name
    }

    package func open(from origin: HostControllerOrigin, name: String,
                      notices: (@Sendable (ControllerNotice) -> Void)?) async -> SessionID? {
        try? await loop.onLoop { $0.open(from: origin, name: name, notices: notices, now: $1) }
    }

    package func motion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64?) {
        loop.execute { $0.motion(id, sample, latencyMicros: latencyMicros, now: $1) }
    }

    package func button(_ id: SessionID, _ button: Button, isDown: Bool) {
        loop.execute { $0.button(id, button, isDown: isDown, now: $1) }
    }

    package func close(_ id: SessionID, reason: SessionCloseReason) {
        loop.execute { $0.close(id, reason: reason, now: $1) }
    }

    package func setTyping(_ id: SessionID, allowed: Bool) {
        loop.execute { pipeline, _ in pipeline.setTyping(id, allowed: allowed) }
    }

    package func heard(_ id: SessionID) {
        loop.execute { $0.heard(id, now: $1) }
    }

    package func recenter(_ id: SessionID) {
        loop.execute { pipeline, _ in pipeline.recenter(id) }
    }

    package func mode(_ id: SessionID, set mode: MappingSettings.Mode?, reply: @escaping @Sendable (MappingSettings.Mode) -> Void) {
        loop.execute { pipeline, _ in reply(pipeline.setMode(id, mode) ?? .pointer) }
    }

    package func gyroStick(_ id: SessionID, _ target: GyroStickSettings.Target,
                           reply: @escaping @Sendable (GyroStickSettings.Target) -> Void) {
        loop.execute { pipeline, _ in reply(pipeline.setGyroStick(id, target) ?? .off) }
    }

    package func pad(_ id: SessionID, on: Bool, reply: @escaping @Sendable (Bool?) -> Void) {
        loop.execute { reply($0.setPad(id, on: on, now: $1, askedByController: true)) }
    }

    package func calibrate(_ id: SessionID, reply: @escaping @Sendable (CalibrationReport?) -> Void) {
        loop.execute { reply($0.requestCalibration(id, now: $1)) }
    }
}
