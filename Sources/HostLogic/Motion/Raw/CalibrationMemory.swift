import Foundation
import RealModule
import RemotionProtocol

/// One controller's gyro calibration as it is remembered: the bias subtracted from its raw
/// gyro (rad/s, device axes), the confidence the calibrator had in it (0 … 1) and the
/// seconds of still data it stands for (w₀, at most `GyroCalibrator.Settings.memoryTime`).
package struct GyroCalibration: Sendable, Hashable {
    package var bias: Vec3
    package var confidence: Double
    package var weight: Double

    package init(bias: Vec3, confidence: Double, weight: Double) {
        self.bias = bias; self.confidence = confidence; self.weight = weight
    }
}

/// A remembered calibration as it comes back: its confidence and weight already lowered
/// for its age (`CalibrationMemory.trust`), and that age in seconds.
package struct RecalledCalibration: Sendable, Hashable {
    package var calibration: GyroCalibration
    package var ageSeconds: Double

    package init(calibration: GyroCalibration, ageSeconds: Double) {
        self.calibration = calibration; self.ageSeconds = ageSeconds
    }
}

/// The host's memory of its controllers' gyro calibrations, keyed by each controller's
/// stable identity (`ControllerCalibrationKey`), sans-IO: the wall-clock time is always a
/// parameter (seconds since 1970), the bytes go in and out as values; the host's adapter
/// reads and writes the file (`calibration.json`, 0600, docs/MOTION.md "Calibration memory").
///
/// Trust by age: a calibration established `a` seconds ago comes back with its confidence
/// and weight multiplied by `trust(a) = 2^(−a / halfLife)` (a half life of one day: a day
/// old counts half, a week old 1/128), and not at all once older than `maxAge` (30 days). Bounded: at most `capacity`
/// controllers; a new one beyond that evicts the one calibrated longest ago. Bounded per
/// source too: the identities one source names itself (a DSU server its pads' MACs, the
/// kernel the local pads' uniqs) are not authenticated, so one source keeps at most
/// `perSourceCapacity` entries and a new one beyond that evicts that source's oldest, never
/// another source's: a server inventing a MAC a second cannot push the phones out.
///
/// Strict: a key must be 1 … `maxKeyBytes` bytes without control characters; a bias finite
/// and within `maxBias` on every axis (what the calibrator would take for bias), a
/// confidence in 0 … 1, a weight in 0 … `maxWeight`, a time finite, ≥ 0 and not more than
/// `futureTolerance` ahead. Anything else is refused by `remember` and dropped (counted) by
/// `decode`, which never throws and never traps.
package struct CalibrationMemory: Sendable, Equatable {
    package static let capacity = 256
    /// Entries one source (`remember(_:_:established:source:)`) keeps at most.
    package static let perSourceCapacity = 16
    package static let halfLife: Double = 86_400
    package static let maxAge: Double = 30 * 86_400
    package static let maxKeyBytes = 200
    /// How far in the future a saved time may lie (a clock set back) before it is refused.
    package static let futureTolerance: Double = 86_400
    package static let maxBias = GyroCalibrator.Settings().maxBias
    package static let maxWeight = GyroCalibrator.Settings().memoryTime
    package static let version = 1

    package struct Entry: Sendable, Hashable {
        package var calibration: GyroCalibration
        /// When the calibration was established or last refined (wall clock, s since 1970).
        package var established: Double
        /// Who named the identity (`ControllerOrigin.calibrationSource`); the key itself when
        /// it is its own (a paired phone, a UDP controller's static key).
        package var source: String
    }

    package private(set) var entries: [String: Entry] = [:]

    package init() {}

    /// How much of a calibration's confidence and weight is left after `age` seconds:
    /// 2^(−age / halfLife), 1 for a negative age, 0 beyond `maxAge`.
    package static func trust(age: Double) -> Double {
        guard age.isFinite, age <= maxAge else { return 0 }
        return age <= 0 ? 1 : Double.exp2(-age / halfLife)
    }

    package static func isValid(key: String) -> Bool {
        let bytes = key.utf8.count
        return bytes > 0 && bytes <= maxKeyBytes && !key.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    static func isValid(_ c: GyroCalibration) -> Bool {
        c.bias.isFinite && c.bias.maxMagnitude <= maxBias
            && c.confidence.isFinite && (0...1).contains(c.confidence)
            && c.weight.isFinite && (0...maxWeight).contains(c.weight)
    }

    static func isValid(established: Double, now: Double) -> Bool {
        established.isFinite && established >= 0 && established <= now + futureTolerance
    }

    /// Keeps `calibration` for `key`, established at `established` (wall clock), named by
    /// `source` (nil: the key is its own source). False (and nothing kept) when any value is
    /// out of range. A key new to its source beyond `perSourceCapacity` evicts that source's
    /// entry established longest ago; a new key beyond `capacity`, the memory's.
    @discardableResult
    package mutating func remember(_ key: String, _ calibration: GyroCalibration, established: Double,
                                   source: String? = nil) -> Bool {
        let source = source ?? key
        guard Self.isValid(key: key), Self.isValid(key: source), Self.isValid(calibration), established.isFinite,
              established >= 0 else { return false }
        if entries[key]?.source != source {
            let ofSource = entries.filter { $0.key != key && $0.value.source == source }
            if ofSource.count >= Self.perSourceCapacity, let oldest = Self.oldestKey(of: ofSource) {
                entries[oldest] = nil
            } else if entries[key] == nil, entries.count >= Self.capacity, let oldest = Self.oldestKey(of: entries) {
                entries[oldest] = nil
            }
        }
        entries[key] = Entry(calibration: calibration, established: established, source: source)
        return true
    }

    /// The calibration kept for `key`, aged for `now` (wall clock); nil when there is none
    /// or it is older than `maxAge`.
    package func recall(_ key: String, now: Double) -> RecalledCalibration? {
        guard let e = entries[key] else { return nil }
        let age = Swift.max(0, now - e.established)
        let trust = Self.trust(age: age)
        guard trust > 0 else { return nil }
        var c = e.calibration
        c.confidence *= trust
        c.weight *= trust
        return RecalledCalibration(calibration: c, ageSeconds: age)
    }

    /// Forgets `key`.
    package mutating func forget(_ key: String) { entries[key] = nil }

    private static func oldestKey(of entries: [String: Entry]) -> String? {
        entries.min { ($0.value.established, $0.key) < ($1.value.established, $1.key) }?.key
    }
}

extension CalibrationMemory {
    /// What `decode` kept and dropped.
    package struct DecodeReport: Sendable, Hashable {
        /// The file as a whole was not a calibration memory (not JSON, another version).
        package var unreadable = false
        /// Entries dropped: malformed, out of range, from the future, duplicates, over capacity.
        package var malformed = 0
        /// Entries dropped because they are older than `maxAge`.
        package var expired = 0
        package var kept = 0
    }

    private struct Wire: Codable {
        var version: Int
        var controllers: [Lossy]
    }

    private struct WireEntry: Codable {
        var id: String
        /// rad/s, device axes x, y, z.
        var bias: [Double]
        var confidence: Double
        var weight: Double?
        /// Wall clock, seconds since 1970.
        var established: Double
        /// Who named the id; absent: the id is its own source (and in files before sources).
        var source: String?
    }

    /// One entry that may fail to decode without failing the file.
    private struct Lossy: Codable {
        var entry: WireEntry?
        init(_ entry: WireEntry) { self.entry = entry }
        init(from decoder: any Decoder) throws { entry = try? WireEntry(from: decoder) }
        func encode(to encoder: any Encoder) throws { try entry.encode(to: encoder) }
    }

    /// The file's bytes: `{"version":1,"controllers":[{"id":…,"bias":[x,y,z],"confidence":…,
    /// "weight":…,"established":…,"source":…}]}`, entries sorted by id; `source` only where it
    /// is not the id itself.
    package func encoded() -> [UInt8] {
        let list = entries.keys.sorted().compactMap { key -> Lossy? in
            guard let e = entries[key] else { return nil }
            let b = e.calibration.bias
            return Lossy(WireEntry(id: key, bias: [b.x, b.y, b.z], confidence: e.calibration.confidence,
                                   weight: e.calibration.weight, established: e.established,
                                   source: e.source == key ? nil : e.source))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(Wire(version: Self.version, controllers: list))).map { Array($0) + [0x0A] } ?? []
    }

    /// A memory from a file's bytes, at `now` (wall clock). Never throws: what cannot be
    /// used is dropped and counted in the report. The bounds hold as for `remember`: the
    /// newest `perSourceCapacity` of each source, the newest `capacity` of all.
    package static func decode(_ bytes: [UInt8], now: Double) -> (CalibrationMemory, DecodeReport) {
        var report = DecodeReport()
        guard let wire = try? JSONDecoder().decode(Wire.self, from: Data(bytes)), wire.version == version else {
            report.unreadable = true
            return (CalibrationMemory(), report)
        }
        var valid: [String: Entry] = [:]
        for item in wire.controllers {
            guard let w = item.entry, isValid(key: w.id), w.source.map(isValid(key:)) ?? true, w.bias.count == 3,
                  isValid(established: w.established, now: now) else {
                report.malformed += 1
                continue
            }
            let c = GyroCalibration(bias: Vec3(w.bias[0], w.bias[1], w.bias[2]), confidence: w.confidence,
                                    weight: w.weight ?? w.confidence * GyroCalibrator.Settings().confidenceTime)
            guard isValid(c) else { report.malformed += 1; continue }
            guard trust(age: now - w.established) > 0 else { report.expired += 1; continue }
            if let other = valid[w.id] {
                report.malformed += 1   // a duplicate id: the newer one stays
                if other.established >= w.established { continue }
            }
            valid[w.id] = Entry(calibration: c, established: w.established, source: w.source ?? w.id)
        }
        var memory = CalibrationMemory()
        var perSource: [String: Int] = [:]
        let newest = valid.sorted { ($0.value.established, $1.key) > ($1.value.established, $0.key) }.filter { _, entry in
            perSource[entry.source, default: 0] += 1
            return perSource[entry.source, default: 0] <= perSourceCapacity
        }
        for (key, entry) in newest.prefix(capacity) { memory.entries[key] = entry }
        report.malformed += valid.count - memory.entries.count
        report.kept = memory.entries.count
        return (memory, report)
    }
}
