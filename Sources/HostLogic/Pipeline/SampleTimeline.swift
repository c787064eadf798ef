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
/// - Every integrator (fusion, the gyro mouse, the gyro stick, the pad's and the DSU server's
///   clocks) sees the controller's own steps: a backlog of any length — samples that queued
///   while the loop was stalled, handled at one `now`, or a controller that arrived during the
///   stall, its first sample anchored seconds late — turns the same rotation as its samples
///   did when they were taken. A plausible step is never made into one long step (that
///   was a "pull" of up to 30 s, or a halving of every step past 1 s ahead, which lost 44 % of
///   a turn whose first sample came 3 s late).
/// - It is drawn back toward the host's clock only by `correctionPerMille` (0.1 %) of each
///   step: lengthened while it is more than `maxLag` (30 s) behind (a clock that runs slow),
///   shortened while it is more than `maxLead` (1 s) ahead (a clock that runs fast, a first
///   sample that came late), so a real controller's clock (off by ppm) stays within the bounds
///   and integrators see its steps within 0.1 %. It never passes `hardLead` (30 s) ahead: a
///   clock that lies stops there, its steps 1 µs. Each changed step counts as a re-anchor. A
///   sample can move it at most 1 µs past that cap, so nothing downstream can overflow; the
///   mapped time never falls below the session's first anchor.
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
    /// How far the mapped time may trail the host's clock before its steps are lengthened (by
    /// `correctionPerMille`). Samples that queued during a stall (Wi-Fi, a loaded host, an
    /// emulated guest) arrive seconds behind; pulling one forward made one step of the pull's
    /// size, which integrators take as motion (+26 % pointer distance seen in a loaded QEMU
    /// guest), so a backlog of any length keeps the controller's own steps.
    package static let maxLag: Int64 = 30_000_000
    /// How far ahead of the host's clock it runs on the controller's steps alone (a late first
    /// sample, a clock a little fast); past it the steps are shortened (by `correctionPerMille`).
    package static let maxLead: Int64 = 1_000_000
    /// How far ahead it may ever be: a backlog whose first sample was anchored late is ahead by
    /// the backlog's length and keeps its steps up to here.
    package static let hardLead: Int64 = 30_000_000
    /// How much of each step (per mille, at least 1 µs) the mapped time is drawn back toward
    /// the host's clock while it is out of bounds: a clock off by less than 0.1 % stays within
    /// them, and an integrator's dt is the controller's step within 0.1 %.
    package static let correctionPerMille: Int64 = 1

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
            mapped = lastMapped &+ step   // step ≤ 1 s and lastMapped ≤ host + 30 s + n µs: no wrap
            let nudge = max(1, step * Self.correctionPerMille / 1_000)
            if mapped > host &+ Self.maxLead {
                mapped = min(max(host &+ Self.maxLead, mapped &- nudge), host &+ Self.hardLead)
                reanchors &+= 1
            } else if mapped < host &- Self.maxLag {
                mapped = min(host &- Self.maxLag, mapped &+ nudge)
                reanchors &+= 1
            }
        } else {
            discontinuities &+= 1
            mapped = anchor
        }
        mapped = max(mapped, lastMapped &+ 1)
        lastMapped = mapped
        return Self.unsigned(mapped)
    }

    private static func unsigned(_ micros: Int64) -> UInt64 { UInt64(max(0, micros)) }
}
