import RemotionProtocol

/// Owns one backend and the held-input bookkeeping. Every session's events go
/// through here so that a session ending (or the host stopping, or the backend
/// failing) never leaves a button or key stuck down.
///
/// Not `Sendable`: the owner (the host's injection loop) drives it.
package final class Injector {
    package let backend: any InjectorBackend
    private var tracker = HeldInputTracker()
    private var isClosed = false
    /// While the desktop session is not the active one (logind, a fast user switch): events
    /// are dropped (counted in `droppedWhileSuspended`), nothing is held.
    package private(set) var isSuspended = false
    package private(set) var droppedWhileSuspended = 0

    package init(backend: any InjectorBackend) {
        self.backend = backend
    }

    /// Injects one frame of `session`'s events and flushes once. Presses and
    /// releases go through the held-input tracker (duplicates are dropped). If
    /// the backend fails, everything held is released (best effort) and the
    /// error is rethrown.
    package func apply(_ events: [InputEvent], session: SessionID) throws(InjectionError) {
        guard !isClosed else { throw InjectionError(.closed, backend: backend.name, "the injector is closed") }
        guard !isSuspended else { droppedWhileSuspended += events.count; return }
        do {
            for event in events {
                if let forwarded = tracker.filter(event, session: session) {
                    try backend.post(forwarded, session: session)
                }
            }
            try backend.flush()
        } catch {
            releaseEverything()
            throw error
        }
    }

    /// One event and one flush (a motion frame), without an array per packet.
    package func apply(_ event: InputEvent, session: SessionID) throws(InjectionError) {
        guard !isClosed else { throw InjectionError(.closed, backend: backend.name, "the injector is closed") }
        guard !isSuspended else { droppedWhileSuspended += 1; return }
        do {
            if let forwarded = tracker.filter(event, session: session) {
                try backend.post(forwarded, session: session)
            }
            try backend.flush()
        } catch {
            releaseEverything()
            throw error
        }
    }

    /// Releases what `session` holds (inputs other sessions still hold stay down).
    /// Returns the backend error if the releases could not be injected.
    @discardableResult
    package func endSession(_ session: SessionID) -> InjectionError? {
        let releases = tracker.endSession(session)
        guard !releases.isEmpty, !isClosed else { return nil }
        do {
            for event in releases { try backend.post(event, session: session) }
            try backend.flush()
            return nil
        } catch {
            return error
        }
    }

    /// Releases every held input of every session (host shutdown; also done
    /// automatically when the backend fails). Best effort: keeps going after an
    /// error and returns the first one.
    @discardableResult
    package func releaseEverything() -> InjectionError? {
        let releases = tracker.releaseAll()
        guard !releases.isEmpty, !isClosed else { return nil }
        var firstError: InjectionError?
        for (session, event) in releases {
            do { try backend.post(event, session: session) } catch { firstError = firstError ?? error }
        }
        do { try backend.flush() } catch { firstError = firstError ?? error }
        return firstError
    }

    /// Stops injecting (another user's session became active): releases every held input
    /// first, then drops what comes until `resume()`. A press dropped now is not tracked,
    /// so its release later is dropped as a duplicate: nothing is left down either way.
    @discardableResult
    package func suspend() -> InjectionError? {
        guard !isSuspended else { return nil }
        let error = releaseEverything()
        isSuspended = true
        return error
    }

    /// Injects again (the host's session is active again).
    package func resume() { isSuspended = false }

    /// Releases everything and closes the backend. Idempotent.
    package func close() {
        guard !isClosed else { return }
        releaseEverything()
        isClosed = true
        backend.close()
    }

    /// What each session holds down (for status displays).
    package var held: [SessionID: Set<HeldInput>] { tracker.held }
    /// The same as a value that compares without building a dictionary (the status's change check).
    package var heldTracker: HeldInputTracker { tracker }

    /// The backend's current screen.
    package var screen: ScreenGeometry { backend.screenGeometry() }
}
