import RemotionProtocol

/// Which buttons and keys each session holds down, with reference counting:
/// several sessions may hold the same input and the OS sees one press (from the
/// first holder) and one release (when the last holder lets go).
///
/// Pure state machine: feed it the events a session wants to inject; it returns
/// the events the OS must actually see.
package struct HeldInputTracker: Sendable, Hashable {
    /// input -> sessions holding it (never an empty set).
    private var holders: [HeldInput: Set<SessionID>] = [:]

    package init() {}

    /// Filters one event of `session`. Motion and wheel events pass through.
    /// A press is forwarded only if nobody held the input; a release only if
    /// `session` was its last holder. A duplicate press by the same session and
    /// a release of an input the session does not hold return nil.
    package mutating func filter(_ event: InputEvent, session: SessionID) -> InputEvent? {
        guard let input = event.heldInput else { return event }
        var sessions = holders[input] ?? []
        if event.isPress {
            guard sessions.insert(session).inserted else { return nil }
            holders[input] = sessions
            return sessions.count == 1 ? event : nil
        } else {
            guard sessions.remove(session) != nil else { return nil }
            holders[input] = sessions.isEmpty ? nil : sessions
            return sessions.isEmpty ? event : nil
        }
    }

    /// Forgets `session` and returns the releases the OS needs (inputs of which
    /// it was the last holder), in a stable order.
    package mutating func endSession(_ session: SessionID) -> [InputEvent] {
        var releases: [InputEvent] = []
        for input in holders.keys.sorted() {
            guard var sessions = holders[input], sessions.remove(session) != nil else { continue }
            if sessions.isEmpty {
                holders[input] = nil
                releases.append(input.releaseEvent)
            } else {
                holders[input] = sessions
            }
        }
        return releases
    }

    /// Forgets everything and returns one release per input the OS sees down,
    /// attributed to its smallest holding session (host shutdown, backend error).
    package mutating func releaseAll() -> [(session: SessionID, event: InputEvent)] {
        let releases = holders.keys.sorted().compactMap { input -> (session: SessionID, event: InputEvent)? in
            guard let owner = holders[input]?.min() else { return nil }
            return (owner, input.releaseEvent)
        }
        holders = [:]
        return releases
    }

    /// What each session holds down.
    package var held: [SessionID: Set<HeldInput>] {
        var result: [SessionID: Set<HeldInput>] = [:]
        for (input, sessions) in holders {
            for s in sessions { result[s, default: []].insert(input) }
        }
        return result
    }

    /// The inputs the OS currently sees down.
    package var down: Set<HeldInput> { Set(holders.keys) }

    /// Whether `input` is down for the OS.
    package func isDown(_ input: HeldInput) -> Bool { holders[input] != nil }
}
