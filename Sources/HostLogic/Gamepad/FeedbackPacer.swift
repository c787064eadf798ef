import RemotionProtocol

/// What one output report of a virtual pad changes of its controller's feedback: the
/// rumble where the report sets it (a report may carry only a colour), the light where it
/// sets one. Each pad codec makes one from its own reports (`DualSenseOutput.change`).
package struct FeedbackChange: Sendable, Hashable {
    package struct Rumble: Sendable, Hashable {
        package var low: UInt8, high: UInt8
        package init(low: UInt8, high: UInt8) { self.low = low; self.high = high }
    }
    package var rumble: Rumble?
    package var lightbar: ControllerFeedback.Color?
    package init(rumble: Rumble? = nil, lightbar: ControllerFeedback.Color? = nil) {
        self.rumble = rumble; self.lightbar = lightbar
    }
}

/// Paces a game's rumble and light on their way back to the controller (sans-IO; one per
/// session with a pad, in its `PipelineSession`). A game may write output reports hundreds
/// of times a second, most of them repeating the last: a change is sent at once unless one
/// went less than `minimumInterval` ago (then at `nextDeadline`, or with a sample that comes
/// first), a repeat is not sent, and a running rumble is sent again every `refreshInterval`
/// so a controller that missed a message (UDP) catches up and one whose last message is old
/// (the page stops vibrating after 1 s without one) knows the rumble still runs. The host's
/// timer wakes at `nextDeadline`: a change held back never waits for the controller's next
/// sample, which a phone that is not moving, or a network that delivers in bursts, may not
/// send for longer than the game's whole rumble.
package struct FeedbackPacer: Sendable {
    package static let minimumInterval: Duration = .milliseconds(50)
    package static let refreshInterval: Duration = .milliseconds(500)

    /// What the controller should show now.
    package private(set) var current = ControllerFeedback()
    /// Messages sent, and changes folded into a later one (totals for the session).
    package private(set) var sent = 0
    package private(set) var coalesced = 0
    private var lastSent: Instant?
    private var pending = false

    package init() {}

    /// A pad's output report changed `change`: what to send now, if anything.
    package mutating func update(_ change: FeedbackChange, now: Instant) -> ControllerFeedback? {
        var next = current
        if let r = change.rumble { next.rumbleLow = r.low; next.rumbleHigh = r.high }
        if let light = change.lightbar { next.lightbar = light }
        guard next != current else { return nil }
        current = next
        if pending { coalesced += 1 }
        pending = true
        return due(now: now)
    }

    /// When `due` next has something: a change held back, else a running rumble's refresh.
    package var nextDeadline: Instant? {
        guard let last = lastSent else { return nil }     // nothing sent yet: nothing held back
        if pending { return last + Self.minimumInterval }
        return current.isRumbling ? last + Self.refreshInterval : nil
    }

    /// At the timer (`nextDeadline`) and at each of the session's samples: a change held back
    /// by the minimum interval, or a running rumble's refresh, when due.
    package mutating func due(now: Instant) -> ControllerFeedback? {
        if let last = lastSent {
            let since = now - last
            let send = pending ? since >= Self.minimumInterval : current.isRumbling && since >= Self.refreshInterval
            guard send else { return nil }
        } else if !pending {
            return nil
        }
        pending = false
        lastSent = now
        sent += 1
        return current
    }
}
