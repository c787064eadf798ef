import Logging
import RemotionHostLogic
import RemotionProtocol

/// Where the engine's decisions go (docs/ARCHITECTURE.md, "Outputs"). An output's capability
/// is its type, never found by a cast:
/// - `HostOutput`: a session's `PipelineOutput`s of the kinds it `accepts` — the injector
///   (`InjectorOutput`: input, a session's release), the virtual pads (`VirtualPadOutput`: pad
///   states); `HostPipeline.addOutput` adds one;
/// - `TextOutput`: the page's text (`PipelineOutput.text`) goes to it and nowhere else — the
///   injector's typing when its backend types (`InjectorBackend.textTyping`);
/// - `LaserOutput`: the presenter's laser (`PipelineOutput.laser`) goes to it and nowhere else
///   (`HostPipeline.laser`);
/// - `HostPipelineObserver`: every session, sample and edge (the DSU server, the laser);
/// - feedback goes back on each controller's own transport (`HostPipeline.send`).
/// Several run at once, on the host's loop, in the order the engine decided.
package protocol HostOutput: AnyObject {
    /// What this output takes.
    var accepts: PipelineOutput.Kind { get }
    /// One output of `session`'s, of a kind this output accepts.
    func perform(_ output: PipelineOutput, session: SessionID, now: Instant)
    /// The host stops (`HostPipeline.shutdown`, after every controller closed): whatever this
    /// output still holds goes to rest and is released, and nothing comes out of it after.
    /// One rule for every output, so none is stopped by name.
    func stop()
}

/// An output that types the text a page sends (docs/WEB-CONTROLLER.md, "Typing"): the only
/// place `PipelineOutput.text` goes. It alone knows whether it can type now and what it could not.
package protocol TextOutput: AnyObject {
    /// Types `text`; the reply for the page (characters that could not be typed), nil when all were.
    func type(_ text: String) -> WebInputReply?
    /// Gives back every keycode typing borrowed (a moment after the last text, at suspension).
    func restoreBorrowedKeycodes()
}

/// The presenter's laser (docs/WEB-CONTROLLER.md, "Presenter"): the only place
/// `PipelineOutput.laser` goes. It sees the sessions' pointer events before the injector (an
/// output hook) and their closing (an observer), so it is both.
package protocol LaserOutput: HostOutputHook, HostPipelineObserver {
    /// The laser control of `id` went down or up, the dot starting where the pointer was.
    /// Returns the line for the page when the laser went on where no dot can be drawn.
    func set(_ id: SessionID, on: Bool, from pointer: (x: Int, y: Int)?) -> String?
}

/// The injector as an output: a session's input events through the output hooks (which
/// may take an event, a presenter's laser) into `Injector` (held-input tracking, the
/// backend), and the release of what a session held when it ends. Counts what it injected
/// and what failed.
package final class InjectorOutput: HostOutput {
    package let injector: Injector
    /// Told about every event before the injector (an overlay, a recorder).
    var hooks: [any HostOutputHook] = []
    /// Input events handed to the injector successfully.
    package private(set) var injected = 0
    package private(set) var errors = 0
    private let logger: Logger

    /// Typing, when the backend types (`InjectorBackend.textTyping`); nil when it cannot.
    package let typing: InjectorTyping?

    init(injector: Injector, logger: Logger) {
        self.injector = injector
        self.logger = logger
        typing = injector.backend.textTyping.map { InjectorTyping(typist: $0, logger: logger) }
    }

    package var accepts: PipelineOutput.Kind { .input }

    package func perform(_ output: PipelineOutput, session id: SessionID, now: Instant) {
        switch output {
        case .input(let event): inject(event, session: id, now: now)
        case .inputs(let events): inject(events, session: id, now: now)
        case .releaseHeld: if let error = injector.endSession(id) { fail(error) }
        case .padOpened, .pad, .padClosed, .note, .feedback, .calibration, .calibrationSave, .text, .laser, .profile: break
        }
    }

    /// One event (a motion frame): no array per packet. Output hooks see it first.
    func inject(_ event: InputEvent, session id: SessionID, now: Instant) {
        for hook in hooks where !hook.output(event, session: id, now: now) { return }
        do {
            try injector.apply(event, session: id)
            injected += 1
        } catch {
            fail(error)
        }
    }

    /// A frame of several events (a key chord: modifiers and key), one flush.
    func inject(_ events: [InputEvent], session id: SessionID, now: Instant) {
        let kept = hooks.isEmpty ? events : events.filter { e in hooks.allSatisfy { $0.output(e, session: id, now: now) } }
        guard !kept.isEmpty else { return }
        do {
            try injector.apply(kept, session: id)
            injected += kept.count
        } catch {
            fail(error)
        }
    }

    /// Everything still held released, then the backend closed.
    package func stop() {
        if let error = injector.releaseEverything() { fail(error) }
        injector.close()
    }

    func fail(_ error: InjectionError) {
        if error.kind == .layoutChanged {
            logger.notice("\(error.description)")
            return
        }
        errors += 1
        logger.error("injection failed; released every held input", metadata: ["error": "\(error)"])
    }
}

/// The injector's typing as the host's `TextOutput`: any character through the backend's
/// spare keycodes (XTest, wlroots, libei). The engine sends it no text while the desktop
/// session is another user's.
package final class InjectorTyping: TextOutput {
    private let typist: any TextTypingBackend
    private let logger: Logger

    init(typist: any TextTypingBackend, logger: Logger) {
        self.typist = typist
        self.logger = logger
    }

    package func type(_ text: String) -> WebInputReply? {
        do {
            let missing = try typist.type(text)
            return missing.isEmpty ? nil : .untyped(missing, reason: "these characters have no key to type them")
        } catch {
            logger.error("typing failed", metadata: ["error": "\(error)"])
            return .untyped(text, reason: error.message)
        }
    }

    package func restoreBorrowedKeycodes() { typist.restoreBorrowedKeycodes() }
}
