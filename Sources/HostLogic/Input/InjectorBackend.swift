import RemotionProtocol

/// Something that turns `InputEvent`s into real (or recorded) input: XTest,
/// uinput, CGEvent, a log, a virtual screen.
///
/// Backends wrap C handles and are not `Sendable`: one owner (the `Injector`)
/// drives a backend from one isolation domain. Events are posted one by one and
/// made visible together by `flush()` (one frame = posts + one flush).
package protocol InjectorBackend: AnyObject {
    /// A short name for logs and status ("xtest", "uinput", "log", ...).
    var name: String { get }
    /// The screen the pointer moves on, as the backend currently sees it.
    func screenGeometry() -> ScreenGeometry
    /// Queues (or performs) one event on behalf of `session`.
    func post(_ event: InputEvent, session: SessionID) throws(InjectionError)
    /// Makes every queued event visible to the OS.
    func flush() throws(InjectionError)
    /// Releases OS resources. Idempotent; no call is valid afterwards.
    func close()
    /// What types text for this backend (docs/WEB-CONTROLLER.md, "Typing"): itself when it is
    /// a `TextTypingBackend`, what an `EchoingBackend` wraps (typed text is not echoed: the
    /// echo is the events' record); nil when it cannot type. A capability of the type, never
    /// found by a cast.
    var textTyping: (any TextTypingBackend)? { get }
    /// What chooses the output this backend's absolute pointer covers: itself when it is an
    /// `OutputChoosingBackend`, what an `EchoingBackend` wraps; nil when absolute motion
    /// covers the whole screen.
    var outputChoosing: (any OutputChoosingBackend)? { get }
}

extension InjectorBackend {
    /// Most backends cannot type text (`TextTypingBackend` says it can).
    package var textTyping: (any TextTypingBackend)? { nil }
    /// Most backends have no outputs to choose (`OutputChoosingBackend` says it has).
    package var outputChoosing: (any OutputChoosingBackend)? { nil }
}

/// Why an event could not be injected. `message` says what went wrong and, where
/// the user can act, what to do about it.
package struct InjectionError: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Kind: String, Sendable, Hashable {
        /// The backend cannot be opened (no display, no permission, no device).
        case unavailable
        /// The event cannot be expressed by this backend (e.g. a key with no code).
        case unsupported
        /// The OS rejected or lost an event (write failed, X error, connection gone).
        case failed
        /// The backend was used after `close()`.
        case closed
        /// The desktop's outputs changed under the backend (one added or disabled): it follows
        /// (what it held released, the pointer over what it covers now); `message` is the one
        /// line the host says, a notice rather than a failure.
        case layoutChanged
    }

    package var kind: Kind
    package var backend: String
    package var message: String

    package init(_ kind: Kind, backend: String, _ message: String) {
        self.kind = kind
        self.backend = backend
        self.message = message
    }

    package var description: String { "\(backend) injector: \(message)" }
}
