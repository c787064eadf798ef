import RemotionProtocol

/// Passes every event to a real backend and, once the backend took it, writes it as a JSON
/// line (`LogBackend`'s format; `move_to` lines carry the backend's screen) to a sink.
/// `remotion host` wraps its backend in one when `REMOTION_ECHO_INJECTED=1`: the kernel-guest
/// test compares what libinput saw with what the host meant to inject.
package final class EchoingBackend: InjectorBackend {
    package let inner: any InjectorBackend
    private let sink: (String) -> Void
    private let flushSink: () -> Void
    /// This frame's lines, written once the real backend flushed them.
    private var pending: [String] = []

    package init(_ inner: any InjectorBackend, sink: @escaping (String) -> Void, flush: @escaping () -> Void = {}) {
        self.inner = inner
        self.sink = sink
        self.flushSink = flush
    }

    /// The real backend's name: status and logs show what injects.
    package var name: String { inner.name }
    /// Typing and the output choice are the wrapped backend's.
    package var textTyping: (any TextTypingBackend)? { inner.textTyping }
    package var outputChoosing: (any OutputChoosingBackend)? { inner.outputChoosing }

    package func screenGeometry() -> ScreenGeometry { inner.screenGeometry() }

    package func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {
        try inner.post(event, session: session)
        pending.append(LogBackend.line(for: event, session: session, screen: inner.screenGeometry()))
    }

    /// Flushes the real backend first; the frame's lines go out after it, or are dropped
    /// with the frame when it fails (the OS never saw them).
    package func flush() throws(InjectionError) {
        let lines = pending
        pending.removeAll(keepingCapacity: true)
        try inner.flush()
        for line in lines { sink(line) }
        flushSink()
    }

    package func close() { inner.close() }
}
