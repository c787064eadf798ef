import NIOCore
import RemotionProtocol
import RemotionHostLogic

/// The one seam for controllers on other transports off the host's loop: the web page's
/// WebSocket and its WebRTC data channels, and whatever comes next. A transport opens a
/// session from its typed origin (`ControllerOrigin`: what the status shows; no made-up
/// address), named as the user should see it, then sends its `ControllerCommand`s —
/// samples, edges, the page's commands and input — and closes it when its connection ends;
/// the host's state machine gives it a slot under `--max-controllers`, delivers its edges
/// once (the sample's button field is the truth), and releases everything it held when it
/// closes.
///
/// Called from any thread: each call hops to the host's loop (calls from one thread keep
/// their order) and becomes `HostPipeline.perform` there, an exhaustive switch over the
/// pipeline's own verbs, the ones a transport on the host's loop (DSU, local pads) calls
/// directly. Built from a `HostLoop` (`init(loop:name:)`), or in tests from closures that
/// record what is sent.
package struct HostControllers: Sendable {
    /// Gets a command's answer, nil when it has none (on the host's loop).
    package typealias Answer = @Sendable (ControllerAnswer?) -> Void
    /// What the host tells a controller unasked.
    package typealias Notices = @Sendable (ControllerNotice) -> Void
    package typealias Open = @Sendable (HostControllerOrigin, String, Notices?) async -> SessionID?
    package typealias Deliver = @Sendable (ControllerCommand, SessionID, Answer?) -> Void

    /// The host's name (shown on the phone's page).
    package let name: String
    private let opening: Open
    private let deliver: Deliver

    /// `open` and `deliver` do what `open(from:name:notices:)` and `send(_:for:answer:)` say.
    package init(name: String, open: @escaping Open, deliver: @escaping Deliver) {
        self.name = name
        self.opening = open
        self.deliver = deliver
    }

    /// The real host: each call runs on `loop` with the pipeline and the loop's time.
    package init(loop: HostLoop, name: String) {
        self.init(name: name, open: { origin, name, notices in
            try? await loop.onLoop { $0.open(from: origin, name: name, notices: notices, now: $1) }
        }, deliver: { command, id, answer in
            // Enqueued on the host's loop in order with the session's other commands. The
            // transport bounds what waits: a WebSocket awaits each input's reply (a page that
            // floods fills its own TCP window), a data channel's session drops past
            // `WebSession.maxInputsInFlight`.
            loop.execute { pipeline, now in
                let answered = pipeline.perform(command, for: id, now: now)
                answer?(answered)
            }
        })
    }

    /// A session for a controller from `origin` (the page: `.web`, with the phone's address
    /// when the transport knows it), or nil when every controller slot is taken. `notices`
    /// gets what the host tells the controller unasked — the rumble and light a game writes
    /// to the session's virtual pad, a manual calibration's progress — (on the host's loop;
    /// it must not block: it queues a send), nil when the transport has no way back.
    package func open(from origin: HostControllerOrigin, name: String, notices: Notices?) async -> SessionID? {
        await opening(origin, name, notices)
    }

    /// Performs `command` for the session `id` on the host's loop, in order with the other
    /// commands this thread sent; `answer` gets the answer (nil when the command has none,
    /// see `ControllerCommand`) on the host's loop, later: never from inside this call, which
    /// a caller may make under its lock — `WebSessionDriver` does.
    package func send(_ command: ControllerCommand, for id: SessionID, answer: Answer? = nil) {
        deliver(command, id, answer)
    }

    /// `send`, awaited: the answer.
    package func ask(_ command: ControllerCommand, for id: SessionID) async -> ControllerAnswer? {
        await withCheckedContinuation { done in send(command, for: id) { done.resume(returning: $0) } }
    }

    /// The session's mode (set, or with nil read), awaited.
    package func mode(_ id: SessionID, set mode: MappingSettings.Mode? = nil) async -> MappingSettings.Mode {
        if case .mode(let inEffect)? = await ask(.mode(set: mode), for: id) { return inEffect }
        return .pointer
    }

    /// The session's button map as the phone page labels it, awaited.
    package func buttonLabels(_ id: SessionID) async -> WebInputReply? {
        if case .reply(let labels)? = await ask(.buttonLabels, for: id) { return labels }
        return nil
    }
}
