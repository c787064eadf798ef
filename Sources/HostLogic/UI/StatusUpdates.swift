import RemotionProtocol

/// Decides when the status screen is redrawn: only when the snapshot changed, at
/// most once per `minimumInterval` (10 Hz by default), and never ahead of pending
/// input. Seed 003's lesson: a redraw timer must not starve input, so while the
/// caller reports input waiting, drawing is put off — but for at most
/// `maximumInputDeferral`, so a screen under a constant input stream still updates.
///
/// The clock is a parameter. When `decide` answers `.draw`, it records the draw
/// (the caller is expected to draw that snapshot now).
package struct RedrawPolicy: Hashable, Sendable {
    package enum Decision: Hashable, Sendable {
        /// Render and write the frame now.
        case draw
        /// The snapshot changed but the rate limit holds: ask again at this instant.
        case wait(until: Instant)
        /// Input is pending: handle it first, then ask again.
        case yieldToInput
        /// Nothing changed since the last draw: no deadline needed.
        case idle
    }

    package var minimumInterval: Duration
    package var maximumInputDeferral: Duration
    package private(set) var lastDrawnSnapshot: StatusSnapshot?
    package private(set) var lastDrawnAt: Instant?
    /// Since when a due draw has been held back by pending input.
    package private(set) var deferredSince: Instant?
    private var invalidated = false

    package init(minimumInterval: Duration = .milliseconds(100),
                maximumInputDeferral: Duration = .milliseconds(500)) {
        self.minimumInterval = minimumInterval
        self.maximumInputDeferral = maximumInputDeferral
    }

    /// Forces the next decision to draw even if the snapshot is unchanged
    /// (terminal resized, screen garbled); the rate limit still applies.
    package mutating func invalidate() { invalidated = true }

    package mutating func decide(_ snapshot: StatusSnapshot, now: Instant, inputPending: Bool = false) -> Decision {
        guard invalidated || snapshot != lastDrawnSnapshot else {
            deferredSince = nil
            return .idle
        }
        if let last = lastDrawnAt, now < last + minimumInterval {
            return .wait(until: last + minimumInterval)
        }
        if inputPending {
            let since = deferredSince ?? now
            deferredSince = since
            if now - since < maximumInputDeferral { return .yieldToInput }
        }
        lastDrawnSnapshot = snapshot
        lastDrawnAt = now
        deferredSince = nil
        invalidated = false
        return .draw
    }
}

/// Plain log output for `--json` or a non-terminal stdout: one JSON object per line
/// for every state change between successive snapshots. Continuous values
/// (attitude, pointer, link rates) do not produce lines by themselves.
///
///     {"t":1.250,"event":"host","name":"desk","addresses":["10.0.0.2"],"port":27960,"pairing":null}
///     {"t":2.000,"event":"controller","session":"0000abcd","name":"Pixel","address":"10.0.0.9:5000","state":"connected","mode":"pointer"}
///     {"t":2.100,"event":"input","session":"0000abcd","buttons":"AC","held":["mouse:left"]}
///     {"t":9.000,"event":"gone","session":"0000abcd"}
package struct StatusLog: Hashable, Sendable {
    package private(set) var previous: StatusSnapshot?

    package init() {}

    /// The lines describing what changed since the last call (everything, the first time).
    package mutating func lines(for snapshot: StatusSnapshot, at now: Instant) -> [String] {
        let t = "{\"t\":" + TextFormat.fixed(now.seconds, 3)
        var out: [String] = []
        if previous?.host != snapshot.host {
            out.append(t + ",\"event\":\"host\"," + Self.fields(snapshot.host) + "}")
        }
        var before: [SessionID: ControllerStatus] = [:]
        for c in previous?.controllers ?? [] { before[c.session] = c }
        for c in snapshot.controllers {
            let old = before.removeValue(forKey: c.session)
            if old == nil || old?.state != c.state || old?.mappingMode != c.mappingMode
                || old?.name != c.name || old?.address != c.address {
                out.append(t + ",\"event\":\"controller\"," + Self.fields(c) + "}")
            }
            let wasIdle = old == nil && c.buttons.isEmpty && c.held.isEmpty
            if !wasIdle, old?.buttons != c.buttons || old?.held != c.held {
                out.append(t + ",\"event\":\"input\"," + Self.inputFields(c) + "}")
            }
        }
        let gone = (previous?.controllers ?? []).filter { before[$0.session] != nil }
        for c in gone {
            out.append(t + ",\"event\":\"gone\",\"session\":\"\(c.session)\"}")
        }
        previous = snapshot
        return out
    }

    static func fields(_ h: HostStatus) -> String {
        "\"name\":" + TextFormat.jsonString(h.name)
            + ",\"addresses\":[" + h.addresses.map(TextFormat.jsonString).joined(separator: ",") + "]"
            + ",\"port\":\(h.port)"
            + ",\"pairing\":" + (h.pairingHint.map(TextFormat.jsonString) ?? "null")
    }

    static func fields(_ c: ControllerStatus) -> String {
        "\"session\":\"\(c.session)\",\"name\":" + TextFormat.jsonString(c.name)
            + ",\"address\":" + TextFormat.jsonString(c.address)
            + ",\"state\":\"\(c.state.rawValue)\",\"mode\":" + TextFormat.jsonString(c.mappingMode)
    }

    static func inputFields(_ c: ControllerStatus) -> String {
        "\"session\":\"\(c.session)\",\"buttons\":" + TextFormat.jsonString(c.buttons.isEmpty ? "" : c.buttons.description)
            + ",\"held\":[" + c.held.map { TextFormat.jsonString($0.label) }.joined(separator: ",") + "]"
    }
}
