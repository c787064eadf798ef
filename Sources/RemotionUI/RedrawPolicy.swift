import RemotionCore

/// Decides when the status screen is redrawn: only when the snapshot changed, at
/// most once per `minimumInterval` (10 Hz by default), and never ahead of pending
/// input. Seed 003's lesson: a redraw timer must not starve input, so while the
/// caller reports input waiting, drawing is put off — but for at most
/// `maximumInputDeferral`, so a screen under a constant input stream still updates.
///
/// The clock is a parameter. When `decide` answers `.draw`, it records the draw
/// (the caller is expected to draw that snapshot now).
public struct RedrawPolicy: Hashable, Sendable {
    public enum Decision: Hashable, Sendable {
        /// Render and write the frame now.
        case draw
        /// The snapshot changed but the rate limit holds: ask again at this instant.
        case wait(until: Instant)
        /// Input is pending: handle it first, then ask again.
        case yieldToInput
        /// Nothing changed since the last draw: no deadline needed.
        case idle
    }

    public var minimumInterval: Duration
    public var maximumInputDeferral: Duration
    public private(set) var lastDrawnSnapshot: StatusSnapshot?
    public private(set) var lastDrawnAt: Instant?
    /// Since when a due draw has been held back by pending input.
    public private(set) var deferredSince: Instant?
    private var invalidated = false

    public init(minimumInterval: Duration = .milliseconds(100),
                maximumInputDeferral: Duration = .milliseconds(500)) {
        self.minimumInterval = minimumInterval
        self.maximumInputDeferral = maximumInputDeferral
    }

    /// Forces the next decision to draw even if the snapshot is unchanged
    /// (terminal resized, screen garbled); the rate limit still applies.
    public mutating func invalidate() { invalidated = true }

    public mutating func decide(_ snapshot: StatusSnapshot, now: Instant, inputPending: Bool = false) -> Decision {
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
