import RemotionProtocol

/// What one DSU client asked to receive, and when it last asked. A rule lives while
/// its latest request is younger than the lifetime (5 s, as DS4Windows and the
/// protocol description: "implement some kind of timeout").
struct DSUClientSubscription: Hashable, Sendable {
    var allPads: Instant?
    var slots: [Instant?] = Array(repeating: nil, count: DSU.slotCount)
    var macs: [DSUMAC: Instant] = [:]

    /// Records one request. Returns false (and records nothing) when it is a MAC
    /// rule beyond `maxMACs` live ones.
    mutating func record(_ r: DSUPadRequest, now: Instant, lifetime: Duration, maxMACs: Int) -> Bool {
        if r.isAllPads { allPads = now; return true }
        if r.byMAC, macs[r.mac] == nil {
            expire(now: now, lifetime: lifetime)
            guard macs.count < maxMACs else { return false }
        }
        if r.bySlot, Int(r.slot) < DSU.slotCount { slots[Int(r.slot)] = now }
        if r.byMAC { macs[r.mac] = now }
        return true
    }

    func wants(slot: UInt8, mac: DSUMAC, now: Instant, lifetime: Duration) -> Bool {
        func live(_ t: Instant?) -> Bool { t.map { now - $0 < lifetime } ?? false }
        return live(allPads) || (Int(slot) < DSU.slotCount && live(slots[Int(slot)])) || live(macs[mac])
    }

    /// The latest request time of any rule.
    var lastRequest: Instant? {
        (slots + [allPads] + macs.values.map(Optional.some)).compactMap { $0 }.max()
    }

    mutating func expire(now: Instant, lifetime: Duration) {
        macs = macs.filter { now - $0.value < lifetime }
    }
}

/// One filled server slot.
struct DSUServedSlot<ControllerID: Hashable & Sendable>: Sendable {
    var controller: ControllerID
    var mac: DSUMAC
    /// For gyro rates from attitude deltas.
    var lastAttitude: Attitude?
    var lastTimestampMicros: UInt64?
    var lastDerivedGyro: Vector3 = .zero

    init(controller: ControllerID, mac: DSUMAC) { self.controller = controller; self.mac = mac }

    /// Gaps longer than this restart the rate estimate (as the gyro mouse does).
    static var resyncGapMicros: UInt64 { 500_000 }

    /// The gyro rates to send for `sample` (rad/s, Remotion frame): the sample's own
    /// when it has them; else the body rate from the previous attitude to this one over
    /// the sample timestamps; else zero. A repeated timestamp repeats the last rate.
    mutating func gyro(for sample: MotionSample) -> Vector3 {
        defer {
            if let a = sample.attitude, a.isFinite {
                lastAttitude = a
                lastTimestampMicros = sample.timestampMicros
            }
        }
        if let g = sample.gyro, g.isFinite { return g }
        guard let a = sample.attitude, a.isFinite,
              let prev = lastAttitude, let t0 = lastTimestampMicros else {
            lastDerivedGyro = .zero
            return .zero
        }
        let t1 = sample.timestampMicros
        if t1 == t0 { return lastDerivedGyro }
        guard t1 > t0, t1 - t0 <= Self.resyncGapMicros else {
            lastDerivedGyro = .zero
            return .zero
        }
        lastDerivedGyro = DSUAxes.angularVelocity(from: prev, to: a, seconds: Double(t1 - t0) / 1e6)
        return lastDerivedGyro
    }

    /// The accelerometer reading to send (g, Remotion frame): the sample's own; else
    /// gravity seen at the sample's attitude; else lying flat, (0, 0, −1).
    static func acceleration(for sample: MotionSample) -> Vector3 {
        if let a = sample.acceleration, a.isFinite { return a }
        if let att = sample.attitude, att.isFinite { return DSUAxes.gravity(for: att) }
        return DSUAxes.flatGravity
    }
}
