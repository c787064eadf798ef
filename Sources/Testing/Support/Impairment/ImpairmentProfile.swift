/// How one direction of a UDP path is impaired.
///
/// Each datagram is, in this order: dropped with `lossPercent`; otherwise duplicated with
/// `duplicatePercent` (two copies travel independently); each copy is delayed by
/// `delay` plus a uniform jitter in `[-jitter, +jitter]` (the total never goes below zero);
/// and each copy is held back by an extra `reorderExtraDelay` with `reorderPercent`, which
/// lets the datagrams sent just after it overtake it.
package struct ImpairmentProfile: Sendable, Hashable, CustomStringConvertible {
    /// Probability in percent (0...100) that a datagram is dropped.
    package var lossPercent: Double
    /// Probability in percent (0...100) that a surviving datagram is sent twice.
    package var duplicatePercent: Double
    /// Probability in percent (0...100) that a copy is held back by `reorderExtraDelay`.
    package var reorderPercent: Double
    /// Base one-way delay added to every copy.
    package var delay: Duration
    /// Half-width of the uniform jitter added to `delay`.
    package var jitter: Duration
    /// Extra hold-back of a copy chosen for reordering.
    package var reorderExtraDelay: Duration

    /// The hold-back used when a profile string sets `reorder` but no `gap`.
    package static let defaultReorderExtraDelay: Duration = .milliseconds(10)

    /// A clean path: nothing dropped, duplicated, delayed or reordered.
    package static let none = ImpairmentProfile()

    package init(
        lossPercent: Double = 0,
        duplicatePercent: Double = 0,
        reorderPercent: Double = 0,
        delay: Duration = .zero,
        jitter: Duration = .zero,
        reorderExtraDelay: Duration = ImpairmentProfile.defaultReorderExtraDelay
    ) {
        self.lossPercent = lossPercent
        self.duplicatePercent = duplicatePercent
        self.reorderPercent = reorderPercent
        self.delay = delay
        self.jitter = jitter
        self.reorderExtraDelay = reorderExtraDelay
    }

    /// Checks ranges: percentages in 0...100, durations not negative.
    package func validated() throws(ImpairmentProfileError) -> ImpairmentProfile {
        for (key, value) in [("loss", lossPercent), ("dup", duplicatePercent), ("reorder", reorderPercent)] {
            guard value.isFinite, (0...100).contains(value) else {
                throw .percentOutOfRange(key: key, value: value)
            }
        }
        for (key, value) in [("delay", delay), ("jitter", jitter), ("gap", reorderExtraDelay)] {
            guard value >= .zero else { throw .negativeDuration(key: key) }
        }
        return self
    }

    /// True when the profile changes nothing.
    package var isClean: Bool {
        lossPercent == 0 && duplicatePercent == 0 && reorderPercent == 0 && delay == .zero && jitter == .zero
    }

    /// The compact form accepted by `init(parsing:)`.
    package var description: String {
        if isClean { return "none" }
        var items: [String] = []
        if lossPercent != 0 { items.append("loss=\(Self.format(lossPercent))") }
        if duplicatePercent != 0 { items.append("dup=\(Self.format(duplicatePercent))") }
        if reorderPercent != 0 {
            items.append("reorder=\(Self.format(reorderPercent))")
            items.append("gap=\(Self.format(reorderExtraDelay))")
        }
        if delay != .zero { items.append("delay=\(Self.format(delay))") }
        if jitter != .zero { items.append("jitter=\(Self.format(jitter))") }
        return items.joined(separator: ",")
    }

    static func format(_ percent: Double) -> String {
        percent == percent.rounded() ? String(Int(percent)) : String(percent)
    }

    static func format(_ duration: Duration) -> String {
        let ns = duration.nanoseconds
        if ns % 1_000_000 == 0 { return "\(ns / 1_000_000)ms" }
        if ns % 1_000 == 0 { return "\(ns / 1_000)us" }
        return "\(ns)ns"
    }
}
