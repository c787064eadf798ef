import RemotionProtocol

/// A controller's sample clock mapped onto the host's, once per session, the one place a
/// timestamp from outside becomes time (`PipelineCore` maps every sample before anything
/// reads it). Fusion's dt, the gyro mouse, flick stick, the virtual pad's sensor clock, the
/// DSU server's served timestamps and the status's sample time all read the mapped time;
/// the controller's own value is data and is only ever compared or subtracted here, in
/// arithmetic that cannot trap.
///
/// The rules (docs/SECURITY.md, §11.5 "Time and values from outside are data"):
/// - The first sample is anchored at the host's `now` — or, for a source whose samples are
///   already on the host's clock (`Clock.host`: a gamepad on this computer, whose times are
///   the kernel's event time moved on by the pad's own steps), at its own time, kept within
///   [`now` − `maxLag`, `now`]: a first sample handled late (the host busy making the pad's
///   virtual twin, a starved machine) is not then "ahead" and slowed.
/// - A later sample moves the mapped time on by its own step from the previous sample when
///   that step is plausible: more than 0 and at most `maxStep` (1 s).
/// - Any other step (repeated, backwards, a jump past `maxStep`, a u64 extreme) is a
///   **discontinuity**: the mapping restarts at the host's `now` and the sample is counted.
/// - The mapped time never goes backwards: it always moves on by at least 1 µs, so every
///   consumer's dt is positive.
/// - It stays near the host's clock: at most `maxLag` (30 s) behind (a slow controller clock
///   is pulled forward; a backlog after a stall of seconds keeps its own steps), and a controller whose steps would take it more than `maxLead` (1 s)
///   ahead — a fast clock, or a first sample that came late — is slowed, each step by at most
///   half (so dt never collapses while it converges), and never lets it pass `hardLead` (2 s)
///   ahead. Both count as re-anchors. A sample can move it at most 1 µs past that cap, so
///   nothing downstream can overflow.
///
/// The one-way latency is not read from here: it needs the controller's clock related to the
/// host's (UDP's ping/pong offset), and is measured upstream where that is known.
package struct SampleTimeline: Sendable, Hashable {
    /// Whose clock a source's sample times are on.
    package enum Clock: Sendable, Hashable {
        /// The controller's own, unrelated to the host's: anchored when a sample is handled.
        case own
        /// The host's monotonic clock already (the loop's `now` is on it): anchored at the
        /// sample's own time, clamped into [`now` − `maxLag`, `now`].
        case host
    }

    package let clock: Clock
    /// The largest step between two samples that is taken as the controller's own.
    package static let maxStep: Int64 = 1_000_000
    /// How far the mapped time may trail the host's clock before it is pulled forward. Not
    /// 1 s: samples that queued during a stall (Wi-Fi, a loaded host, an emulated guest) arrive
    /// seconds behind, and pulling them forward made one step of the pull's size, which a gyro
    /// mouse integrates as motion (+26 % pointer distance seen in a loaded QEMU guest). Within
    /// 30 s, such a backlog keeps the controller's own steps.
    package static let maxLag: Int64 = 30_000_000
    /// How far ahead of the host's clock it runs on the controller's steps alone (a late first
    /// sample, a clock a little fast); past it the steps are slowed.
    package static let maxLead: Int64 = 1_000_000
    /// How far ahead it may ever be.
    package static let hardLead: Int64 = 2_000_000

    /// The previous sample's own time, as it came (µs, the controller's clock).
    private var lastSample: UInt64?
    /// The previous sample's mapped time (µs on the host's clock).
    private var lastMapped: Int64 = 0
    /// Samples that restarted the mapping (the first one not counted).
    package private(set) var discontinuities = 0
    /// Samples whose mapped time was pulled back toward the host's clock.
    package private(set) var reanchors = 0

    package init(clock: Clock = .own) { self.clock = clock }

    /// The host-clock time (µs) of a sample stamped `sampleMicros` by its controller,
    /// arriving at `now`.
    package mutating func map(_ sampleMicros: UInt64, now: Instant) -> UInt64 {
        let host = now.microseconds
        defer { lastSample = sampleMicros }
        // Where a (re)start is anchored: the host's `now`, or a host-clock sample's own time.
        let anchor = clock == .host
            ? min(max(Int64(clamping: sampleMicros), host &- Self.maxLag), host) : host
        guard let previous = lastSample else {
            lastMapped = anchor
            return Self.unsigned(anchor)
        }
        // Compared before subtracted: the step exists only when the sample moved forward.
        let step: Int64? = sampleMicros > previous && sampleMicros - previous <= UInt64(Self.maxStep)
            ? Int64(sampleMicros - previous) : nil
        var mapped: Int64
        if let step {
            mapped = lastMapped &+ step   // step ≤ 1 s and lastMapped ≤ host + 2 s + n µs: no wrap
            if mapped > host &+ Self.maxLead {
                mapped = min(max(host &+ Self.maxLead, lastMapped &+ step / 2), host &+ Self.hardLead)
                reanchors &+= 1
            }
        } else {
            discontinuities &+= 1
            mapped = anchor
        }
        if mapped < host &- Self.maxLag { mapped = host &- Self.maxLag; reanchors &+= 1 }
        mapped = max(mapped, lastMapped &+ 1)
        lastMapped = mapped
        return Self.unsigned(mapped)
    }

    private static func unsigned(_ micros: Int64) -> UInt64 { UInt64(max(0, micros)) }
}
