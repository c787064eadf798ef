import RemotionProtocol

/// A controller's identity for its remembered calibration (docs/MOTION.md, "Calibration
/// memory"): what stays the same when the same controller comes back, whatever its address.
/// nil where there is none to trust (an empty id, a DSU pad with an all-zero MAC, a pad
/// without a uniq), or the key would be invalid (`CalibrationMemory.isValid(key:)`).
package enum ControllerCalibrationKey {
    /// A paired phone's page: its device id (the web credential's).
    package static func web(device: String) -> String? { checked("web:", device) }
    /// A UDP controller: its Noise static public key (base32, as paired.json spells it).
    package static func udp(staticKey: [UInt8]) -> String? {
        staticKey.isEmpty ? nil : checked("udp:", Base32.encode(staticKey))
    }
    /// A DSU server's pad: the MAC it reports for the slot (not the slot: another pad may take it).
    package static func dsu(mac: DSUMAC) -> String? { mac == .zero ? nil : checked("dsu:", mac.description) }
    /// A gamepad on this computer: its uniq (the pad's MAC for hid-playstation and
    /// hid-nintendo, a serial for hid-steam), not its device node (which changes on replug).
    package static func localPad(uniq: String) -> String? { checked("pad:", uniq) }

    private static func checked(_ prefix: String, _ value: String) -> String? {
        let key = prefix + value
        return value.isEmpty || !CalibrationMemory.isValid(key: key) ? nil : key
    }
}

/// One session's part in calibration memory: its identity, and what the pipeline knows about
/// its calibration's age and what was last saved. Sans-IO: `Instant`s from the caller.
package struct SessionCalibration: Sendable {
    /// The controller's identity (`ControllerCalibrationKey`); nil: nothing is remembered.
    package var key: String?
    /// Who named that identity, for the memory's bound per source (nil: the key is its own).
    package var source: String?
    /// The calibrator's revision as last seen (a change means the bias was set or refined).
    var seenRevision = 0
    /// The revision last saved or restored; nil before either.
    var savedRevision: Int?
    var lastSave: Instant?
    /// When the calibration in use was established or last refined, and the age it already
    /// had then (a restored calibration's).
    var since: Instant?
    var ageAtSince = 0.0

    package init() {}
}

/// "Remember this": a session's calibration for the host's memory, with how old it is.
package struct CalibrationSave: Sendable, Hashable {
    package var key: String
    package var calibration: GyroCalibration
    /// Seconds since it was established or last refined (the host turns it into a wall-clock time).
    package var ageSeconds: Double
    /// Who named the key (`CalibrationMemory`'s bound per source); nil: the key is its own.
    package var source: String?

    package init(key: String, calibration: GyroCalibration, ageSeconds: Double, source: String? = nil) {
        self.key = key; self.calibration = calibration; self.ageSeconds = ageSeconds; self.source = source
    }
}

extension PipelineCore {
    /// A session's calibration is saved at most this often while it changes (and always
    /// when the session ends), never per sample.
    package static let calibrationSaveInterval: Duration = .seconds(30)

    /// Names `id`'s controller for calibration memory (`key`, named by `source`: nil when
    /// the key is its own) and, when it has no calibration yet,
    /// puts back `saved` (recalled and aged by the host's memory): the bias is in use at
    /// once and later still periods refine it (`GyroCalibrator.restore`). Returns whether
    /// `saved` was restored (false: no such session, an invalid key, calibration off, or
    /// the session already calibrated itself — what it learned is newer).
    @discardableResult
    package mutating func identify(_ id: SessionID, as key: String, source: String? = nil,
                                   restoring saved: RecalledCalibration?, now: Instant) -> Bool {
        guard CalibrationMemory.isValid(key: key), let i = sessions.index(forKey: id) else { return false }
        sessions.values[i].calibration.key = key
        sessions.values[i].calibration.source = source
        guard let saved, sessions.values[i].mapper.raw.calibration == nil else { return false }
        sessions.values[i].mapper.restoreCalibration(saved.calibration)
        guard sessions.values[i].mapper.raw.calibration != nil else { return false }
        let revision = sessions.values[i].mapper.raw.calibrator.revision
        sessions.values[i].calibration.seenRevision = revision
        sessions.values[i].calibration.savedRevision = revision
        sessions.values[i].calibration.since = now
        sessions.values[i].calibration.ageAtSince = Swift.max(0, saved.ageSeconds)
        return true
    }

    /// The identity `id`'s calibration is remembered under, if any.
    package func calibrationKey(of id: SessionID) -> String? { sessions[id]?.calibration.key }

    /// After each sample: notes when the calibration changed, and says what to save when
    /// it changed since the last save and `calibrationSaveInterval` has passed.
    static func noteCalibration(_ s: inout PipelineSession, now: Instant) -> CalibrationSave? {
        let revision = s.mapper.raw.calibrator.revision
        if revision != s.calibration.seenRevision {
            s.calibration.seenRevision = revision
            s.calibration.since = now
            s.calibration.ageAtSince = 0
        }
        guard s.calibration.key != nil, s.calibration.savedRevision != revision else { return nil }
        if let last = s.calibration.lastSave, now - last < calibrationSaveInterval { return nil }
        return save(&s, now: now)
    }

    /// What to save of a session now: its calibration, if it has a key, a calibration and
    /// something not saved yet.
    static func save(_ s: inout PipelineSession, now: Instant) -> CalibrationSave? {
        let revision = s.mapper.raw.calibrator.revision
        guard let key = s.calibration.key, s.calibration.savedRevision != revision else { return nil }
        s.calibration.savedRevision = revision
        guard let calibration = s.mapper.raw.calibration else { return nil }
        s.calibration.lastSave = now
        return CalibrationSave(key: key, calibration: calibration, ageSeconds: s.calibrationAge(now: now) ?? 0,
                               source: s.calibration.source)
    }
}

extension PipelineSession {
    /// Seconds since the calibration in use was established or last refined (a restored
    /// one's age included); nil without a calibration.
    package func calibrationAge(now: Instant) -> Double? {
        guard mapper.raw.calibration != nil, let since = calibration.since else { return nil }
        return calibration.ageAtSince + Swift.max(0, (now - since).secondsDouble)
    }
}
