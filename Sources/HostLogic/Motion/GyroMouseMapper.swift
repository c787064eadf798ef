import RemotionProtocol

/// Relative "gyro mouse" for games, after JoyShockMapper and GyroWiki
/// (docs/MOTION.md, "FPS mode"). Per sample, with v the angular velocity in °/s
/// in screen space (x = -yaw rate, y = -pitch rate):
///
///     v1  = soft-tiered smoothing of v           (fast motion is never smoothed)
///     s   = |v1|
///     v2  = v1 · min(1, s / tightening)           (tightening, not a dead zone)
///     k   = lerp(slow, fast, ramp(s, slowThreshold, fastThreshold)) · sensitivity
///     out = v2 · k · dt · pixelsPerDegree + remainder
///     move = trunc(out); remainder = out - move   (sub-pixel motion is kept)
///
/// pixelsPerDegree is width / degreesPerScreen (screen calibration) or
/// countsPer360 / 360 (game calibration).
package struct GyroMouseMapper: Sendable, Equatable {
    /// Gyro rates are integrated over at most this many seconds per sample.
    package static let maxStep = 0.1
    /// A gap longer than this (or a clock going backwards) restarts: no motion.
    package static let resyncGap = 0.5
    /// Attitude deltas are divided by at least this many seconds.
    package static let minStep = 0.0005

    package var settings: FPSSettings
    package var sensitivity: Double
    package private(set) var remainderX = 0.0
    package private(set) var remainderY = 0.0
    private var lastTimestamp: UInt64?
    private var lastAttitude: Attitude?
    private var smoothing = SoftTieredSmoothing()

    package init(settings: FPSSettings = FPSSettings(), sensitivity: Double = 1) {
        self.settings = settings
        self.sensitivity = sensitivity
    }

    /// Forgets timing, smoothing history and the sub-pixel remainder.
    package mutating func reset() {
        lastTimestamp = nil
        lastAttitude = nil
        smoothing = SoftTieredSmoothing()
        remainderX = 0
        remainderY = 0
    }

    /// Maps one sample to relative motion. Uses the sample's gyro rates when it has
    /// them, else the change of `attitude` (already filtered by the caller) since
    /// the previous sample.
    package mutating func update(_ sample: MotionSample, attitude: Attitude?,
                                screen: ScreenGeometry) -> (dx: Int, dy: Int) {
        let previousAttitude = lastAttitude
        guard let dt = advance(to: sample.timestampMicros, attitude: attitude) else { return (0, 0) }
        if let g = sample.gyro, g.isFinite {
            return move(vx: -MotionMath.degrees(Double(g.z)), vy: -MotionMath.degrees(Double(g.x)),
                        span: Swift.min(dt, Self.maxStep), screen: screen)
        }
        guard let a = attitude, a.isFinite, let p = previousAttitude else { return (0, 0) }
        let span = Swift.max(dt, Self.minStep)
        return move(vx: -MotionMath.degrees(MotionMath.wrap(a.yaw - p.yaw)) / span,
                    vy: -MotionMath.degrees(MotionMath.wrap(a.pitch - p.pitch)) / span,
                    span: span, screen: screen)
    }

    /// Maps rates that are already yaw and pitch (rad/s; yaw + = turn left, pitch + =
    /// tilt up), e.g. `RawMotionPipeline`'s calibrated gyro-space rates, at the sample
    /// time `timestampMicros`: the same arithmetic as a sample with gyro.z = yaw and
    /// gyro.x = pitch. `attitude` is remembered for samples without gyro that may follow.
    package mutating func update(yawRate: Double, pitchRate: Double, timestampMicros: UInt64,
                                 attitude: Attitude? = nil, screen: ScreenGeometry) -> (dx: Int, dy: Int) {
        guard let dt = advance(to: timestampMicros, attitude: attitude),
              yawRate.isFinite, pitchRate.isFinite else { return (0, 0) }
        return move(vx: -MotionMath.degrees(yawRate), vy: -MotionMath.degrees(pitchRate),
                    span: Swift.min(dt, Self.maxStep), screen: screen)
    }

    /// Takes the sample's time (and attitude); returns the seconds since the previous
    /// sample, or nil when there is no motion to map (first sample, a repeated or
    /// backwards timestamp, or a gap over `resyncGap`, which also restarts smoothing).
    private mutating func advance(to now: UInt64, attitude: Attitude?) -> Double? {
        let previousTime = lastTimestamp
        lastTimestamp = now
        if let a = attitude, a.isFinite { lastAttitude = a }
        guard let t0 = previousTime, now > t0 else { return nil }
        let dt = Double(now - t0) / 1e6
        guard dt <= Self.resyncGap else {
            smoothing = SoftTieredSmoothing()
            return nil
        }
        return dt
    }

    /// Smoothing, tightening, acceleration and the sub-pixel remainder for a screen-space
    /// angular velocity (°/s) acting over `span` seconds.
    private mutating func move(vx: Double, vy: Double, span: Double, screen: ScreenGeometry) -> (dx: Int, dy: Int) {
        let (sx, sy) = smoothing.apply(vx: vx, vy: vy, dt: span,
                                       threshold: settings.smoothThreshold, window: settings.smoothWindow)
        let speed = (sx * sx + sy * sy).squareRoot()
        let tight = settings.tightening > 0 && speed < settings.tightening ? speed / settings.tightening : 1
        let accel = MotionMath.ramp(speed, from: settings.slowThreshold, to: settings.fastThreshold)
        let gain = (settings.slowSensitivity + (settings.fastSensitivity - settings.slowSensitivity) * accel)
            * sensitivity
        let scale = tight * gain * span * pixelsPerDegree(screen)

        remainderX += sx * scale
        remainderY += sy * scale
        guard remainderX.isFinite, remainderY.isFinite else {
            remainderX = 0; remainderY = 0
            return (0, 0)
        }
        let dx = remainderX.rounded(.towardZero), dy = remainderY.rounded(.towardZero)
        remainderX -= dx
        remainderY -= dy
        return (MotionMath.pixels(dx), MotionMath.pixels(dy))
    }

    /// Output counts per degree of (accelerated) controller rotation.
    package func pixelsPerDegree(_ screen: ScreenGeometry) -> Double {
        switch settings.calibration {
        case .screen: Double(Swift.max(screen.width, 0)) / settings.degreesPerScreen
        case .counts: settings.countsPer360 / 360
        }
    }
}

/// GyroWiki's soft-tiered smoothing: the part of the input below the tier is
/// averaged over a short window, the rest passes straight through.
///
///     w = ramp(|v|, threshold/2, threshold)
///     out = v·w + average over the window of v·(1 - w)   (time-weighted)
struct SoftTieredSmoothing: Sendable, Equatable {
    struct Entry: Sendable, Equatable { var x: Double, y: Double, dt: Double }
    static let maxEntries = 256
    private var entries: [Entry] = []
    private var total = 0.0

    mutating func apply(vx: Double, vy: Double, dt: Double, threshold: Double, window: Double) -> (Double, Double) {
        guard threshold > 0, window > 0, dt > 0 else {
            entries.removeAll(); total = 0
            return (vx, vy)
        }
        let magnitude = (vx * vx + vy * vy).squareRoot()
        let w = MotionMath.ramp(magnitude, from: threshold / 2, to: threshold)
        entries.append(Entry(x: vx * (1 - w), y: vy * (1 - w), dt: dt))
        total += dt
        while entries.count > 1, total - entries[0].dt >= window || entries.count > Self.maxEntries {
            total -= entries.removeFirst().dt
        }
        var sx = 0.0, sy = 0.0, st = 0.0
        for e in entries { sx += e.x * e.dt; sy += e.y * e.dt; st += e.dt }
        return (vx * w + sx / st, vy * w + sy / st)
    }
}
