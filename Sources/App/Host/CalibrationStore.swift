import Dispatch
import Foundation
import RemotionHostLogic
import RemotionNetwork
import Synchronization

/// The host's calibration memory on disk: `calibration.json` in the data directory (0600,
/// the directory 0700, written whole and renamed over the old file by `PrivateFiles`, read
/// once at start). The memory itself (`CalibrationMemory`, HostLogic) is a value: aging,
/// bounds and the strict decode are there; this adapter adds the wall clock and the file.
///
/// Owned by the host's pipeline, on its loop (one owner). Writes go to a serial queue of
/// their own, newest wins, so the loop never waits for a disk; `flush` waits (shutdown, tests).
package final class CalibrationStore {
    package static let fileName = "calibration.json"
    package private(set) var memory: CalibrationMemory
    /// Saves the memory refused (a value out of range: e.g. a manual calibration taken
    /// while the controller moved, beyond what is ever bias).
    package private(set) var refused = 0
    private let writer: CalibrationFileWriter?
    private let wallClock: @Sendable () -> Double

    /// `directory` nil: kept in memory only.
    package init(memory: CalibrationMemory, directory: String?,
                 wallClock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
                 onError: @escaping @Sendable (String) -> Void = { _ in }) {
        self.memory = memory
        self.wallClock = wallClock
        writer = directory.map { CalibrationFileWriter(directory: $0, onError: onError) }
    }

    /// What is remembered of `key`, aged for now; nil when nothing (or too old).
    package func recall(_ key: String) -> RecalledCalibration? { memory.recall(key, now: wallClock()) }

    /// Keeps a session's calibration (established `ageSeconds` ago) and writes the file.
    package func remember(_ save: CalibrationSave) {
        guard memory.remember(save.key, save.calibration, established: wallClock() - save.ageSeconds,
                              source: save.source) else {
            refused += 1
            return
        }
        writer?.submit(memory)
    }

    /// Waits until everything remembered so far is on disk.
    package func flush() { writer?.drain() }

    /// Reads `directory/calibration.json` at `now` (wall clock): the memory, and one line for
    /// the user when something in it was dropped or it could not be read (nil when all is well).
    package static func load(directory: String, now: Double) -> (CalibrationMemory, String?) {
        let path = directory + "/" + fileName
        let bytes: [UInt8]?
        do { bytes = try PrivateFiles.read(path) } catch {
            return (CalibrationMemory(), "calibration memory not read: \(error); starting empty")
        }
        guard let bytes else { return (CalibrationMemory(), nil) }
        let (memory, report) = CalibrationMemory.decode(bytes, now: now)
        if report.unreadable {
            return (memory, "calibration memory \(path) is not one (not JSON, or another version); starting empty, it will be rewritten")
        }
        guard report.malformed + report.expired > 0 else { return (memory, nil) }
        return (memory, "calibration memory: \(report.kept) controllers kept, \(report.malformed) malformed entries dropped, "
                    + "\(report.expired) older than \(Int(CalibrationMemory.maxAge / 86_400)) days forgotten")
    }
}

/// Writes the memory on a serial queue of its own: if writes come faster than the disk
/// takes them, only the newest is written.
final class CalibrationFileWriter: Sendable {
    private let directory: String
    private let onError: @Sendable (String) -> Void
    private let queue = DispatchQueue(label: "remotion.calibration-memory")
    private let pending = Mutex<CalibrationMemory?>(nil)

    init(directory: String, onError: @escaping @Sendable (String) -> Void) {
        self.directory = directory
        self.onError = onError
    }

    func submit(_ memory: CalibrationMemory) {
        let wasIdle = pending.withLock { slot in
            defer { slot = memory }
            return slot == nil
        }
        guard wasIdle else { return }
        queue.async { [self] in
            let taken: CalibrationMemory? = pending.withLock { slot in
                let value = slot
                slot = nil
                return value
            }
            guard let newest = taken else { return }
            do {
                try PrivateFiles.write(newest.encoded(), directory: directory, name: CalibrationStore.fileName)
            } catch {
                onError("calibration memory not written: \(error)")
            }
        }
    }

    func drain() { queue.sync {} }
}
