import RemotionProtocol

/// Samples summed into one: the rotation the FPS mapper would have turned for each of them
/// on its own (`GyroMouseMapper`: rate × min(dt, `maxStep`), nothing across a gap over
/// `resyncGap`), to be handed on as one sample whose gyro is that rotation over the span it
/// covers — the average rate, so the mapper turns exactly the summed rotation and a virtual
/// pad reports a rate the controller measured. Pure; shared by every origin's merge of late
/// motion (`LateMotion` for a backlog of samples, `NewestWinsIntake` for the page's).
package struct MotionMerge: Sendable, Equatable {
    /// Samples added.
    package private(set) var samples = 0
    private var x = 0.0, y = 0.0, z = 0.0
    private var anyGyro = false

    package init() {}

    package var isEmpty: Bool { samples == 0 }

    /// A sample `dt` seconds after its predecessor (0: the first, nothing to integrate).
    package mutating func add(_ sample: MotionSample, dt: Double) {
        samples += 1
        guard let g = sample.gyro else { return }
        anyGyro = true
        let step = Self.mapperStep(dt)
        x += Double(g.x) * step
        y += Double(g.y) * step
        z += Double(g.z) * step
    }

    /// Whether two samples' touchpads have the same fingers down (by id; where they are may
    /// differ). A merge keeps every touch's start and end as it keeps a button's press and
    /// release: a sample whose fingers differ from its predecessor's is an edge, never merged
    /// into another (the pad then sees the finger come down where it came down, and lift).
    package static func sameFingers(_ a: TouchState?, _ b: TouchState?) -> Bool {
        a?.first?.id == b?.first?.id && a?.second?.id == b?.second?.id
    }

    /// What the mapper integrates a rate over for a sample `dt` seconds after the previous.
    package static func mapperStep(_ dt: Double) -> Double {
        dt > 0 && dt <= GyroMouseMapper.resyncGap ? Swift.min(dt, GyroMouseMapper.maxStep) : 0
    }

    /// The summed rotation spread over `span` seconds (the time from the sample handed on
    /// before to `newest`): `newest` with that average rate; nil gyro when no sample had one,
    /// or when the rate is past Float's range.
    package func sample(_ newest: MotionSample, span: Double) -> MotionSample {
        var s = newest
        guard anyGyro, span > 0 else { s.gyro = anyGyro ? newest.gyro : nil; return s }
        let g = Vector3(x: Float(x / span), y: Float(y / span), z: Float(z / span))
        s.gyro = g.isFinite ? g : nil
        return s
    }
}
