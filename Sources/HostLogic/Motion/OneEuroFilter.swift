import RemotionProtocol

/// The 1€ filter (Casiez, Roussel, Vogel, CHI 2012): a low-pass filter whose cutoff
/// rises with the signal's speed, so slow motion is smoothed (no jitter) and fast
/// motion is followed closely (little lag).
///
///     τ(fc)  = 1 / (2π fc)
///     α(fc)  = 1 / (1 + τ(fc) / Te)            Te = time since the previous sample
///     dx     = (x - x̂prev) / Te                 (0 on the first sample)
///     d̂x     = α(dcutoff) dx + (1 - α(dcutoff)) d̂xprev
///     fc     = mincutoff + β |d̂x|
///     x̂      = α(fc) x + (1 - α(fc)) x̂prev      (x̂ = x on the first sample)
///
/// This is the reference implementation's arithmetic; it reproduces the reference
/// `groundTruth.csv` to better than 1e-4 at every sample.
package struct OneEuroFilter: Sendable, Equatable {
    package var minCutoff: Double
    package var beta: Double
    package var dCutoff: Double

    /// The sampling frequency assumed when two samples share a timestamp (or
    /// before the second sample); updated from every valid timestamp difference.
    package private(set) var frequency: Double
    private var lastTime: Double?
    private var lastFiltered: Double?
    private var lastDerivative: Double = 0

    package init(minCutoff: Double = 1.0, beta: Double = 0.0, dCutoff: Double = 1.0, frequency: Double = 120) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.dCutoff = dCutoff
        self.frequency = frequency
    }

    /// Filters `x` sampled at `time` seconds. Timestamps that do not advance keep
    /// the previous frequency (the reference behaviour).
    package mutating func filter(_ x: Double, at time: Double) -> Double {
        if let t0 = lastTime, time > t0 { frequency = 1 / (time - t0) }
        lastTime = time
        guard let previous = lastFiltered else {
            lastFiltered = x
            lastDerivative = 0
            return x
        }
        let dx = (x - previous) * frequency
        let edx = Self.alpha(cutoff: dCutoff, frequency: frequency) * (dx - lastDerivative) + lastDerivative
        lastDerivative = edx
        let cutoff = minCutoff + beta * abs(edx)
        let a = Self.alpha(cutoff: cutoff, frequency: frequency)
        let filtered = a * x + (1 - a) * previous
        lastFiltered = filtered
        return filtered
    }

    /// Filters `x` sampled at `instant` on the caller's monotonic clock.
    package mutating func filter(_ x: Double, at instant: Instant) -> Double {
        filter(x, at: instant.seconds)
    }

    /// Forgets the history: the next sample passes through unfiltered.
    package mutating func reset() {
        lastTime = nil
        lastFiltered = nil
        lastDerivative = 0
    }

    /// Moves the filter's memory by `offset` (used to keep an unwrapped angle small
    /// without disturbing the filter: the derivative is unaffected).
    package mutating func shift(by offset: Double) {
        if let f = lastFiltered { lastFiltered = f + offset }
    }

    /// α = 1 / (1 + τ/Te) with τ = 1/(2π fc) and Te = 1/frequency.
    static func alpha(cutoff: Double, frequency: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        let te = 1 / frequency
        return 1 / (1 + tau / te)
    }
}

/// The 1€ filter applied to an attitude: one filter per axis; yaw is unwrapped
/// before filtering (so a turn through ±π is filtered smoothly instead of being
/// averaged across the jump) and wrapped back into (-π, π] afterwards.
package struct AttitudeOneEuroFilter: Sendable, Equatable {
    private var roll: OneEuroFilter
    private var pitch: OneEuroFilter
    private var yaw: OneEuroFilter
    private var lastRawYaw: Double?
    private var unwrappedYaw: Double = 0

    package init(minCutoff: Double, beta: Double, dCutoff: Double) {
        roll = OneEuroFilter(minCutoff: minCutoff, beta: beta, dCutoff: dCutoff)
        pitch = roll
        yaw = roll
    }

    package mutating func filter(_ a: Attitude, at time: Double) -> Attitude {
        if let last = lastRawYaw {
            unwrappedYaw += MotionMath.wrap(a.yaw - last)
        } else {
            unwrappedYaw = a.yaw
        }
        lastRawYaw = a.yaw
        // Keep the unwrapped angle bounded: shift input and filter memory together.
        if abs(unwrappedYaw) > 64 * .pi {
            let turns = (unwrappedYaw / (2 * .pi)).rounded(.towardZero) * 2 * .pi
            unwrappedYaw -= turns
            yaw.shift(by: -turns)
        }
        return Attitude(
            roll: roll.filter(a.roll, at: time),
            pitch: pitch.filter(a.pitch, at: time),
            yaw: MotionMath.wrap(yaw.filter(unwrappedYaw, at: time)))
    }

    package mutating func reset() {
        roll.reset(); pitch.reset(); yaw.reset()
        lastRawYaw = nil
        unwrappedYaw = 0
    }
}
