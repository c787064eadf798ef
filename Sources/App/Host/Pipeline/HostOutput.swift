import Logging
import RemotionHostLogic
import RemotionProtocol

/// Where the pipeline's decisions go: each output takes the kinds of
/// `PipelineOutput` it `accepts`, and `HostPipeline` routes every output of `PipelineCore`
/// to each output that accepts its kind, in order, on the host's loop. The injector
/// (`InjectorOutput`) takes input (pointer, mouse buttons, keys, wheel, a session's
/// release); the virtual pads (`VirtualPadOutput`, `--gamepad`) take pad states. Several
/// outputs run at once; a new one (a recorder, a second pad type) is one more conformance.
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

    init(injector: Injector, logger: Logger) {
        self.injector = injector
        self.logger = logger
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
