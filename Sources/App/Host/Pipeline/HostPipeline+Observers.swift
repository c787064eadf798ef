import NIOCore
import RemotionProtocol
import RemotionHostLogic

/// Something beside the injector that wants every controller's session: the DSU
/// server, which serves Remotion controllers to emulators. Called on the host's loop,
/// synchronously, in the order the host decided things (opened, then motion and
/// button edges, then closed after the session's buttons were released).
package protocol HostPipelineObserver: AnyObject {
    func sessionOpened(_ id: SessionID, origin: HostControllerOrigin, now: Instant)
    func motion(_ id: SessionID, _ sample: MotionSample, now: Instant)
    func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant)
    func sessionClosed(_ id: SessionID, now: Instant)
}

/// Where the mapping's output goes before the injector: every event a session's motion
/// or buttons produced (`moveTo` with the screen position pointer mode chose, `moveBy`,
/// buttons, keys, wheel), on the host's loop, in order. An on-screen overlay (a presenter
/// laser) takes the pointer events of a session while its laser is on, so the real cursor
/// stays put; a recorder returns true and keeps a copy.
package protocol HostOutputHook: AnyObject {
    /// Returns false to keep the event from the injector (this hook consumed it).
    func output(_ event: InputEvent, session: SessionID, now: Instant) -> Bool
}

/// An adapter beside the host's socket (a DSU source or server) whose dropped input
/// shows with the host's: in the status snapshot as "LABEL REASON" and in the stop line.
package protocol HostDropReporter: AnyObject {
    /// e.g. "dsu 127.0.0.1:26760" or "dsu-serve".
    var dropLabel: String { get }
    /// Drops by reason ("bad-crc": 2).
    var dropCounts: [String: Int] { get }
    /// One line for the host's stop message: what it received, sent and dropped.
    var summary: String { get }
}

extension HostPipeline {
    /// The adapters' lines for the stop message ("" without adapters).
    package var adapterSummaries: [String] { dropReporters.map(\.summary) }

    /// Pointer (and seed) mode turn an attitude into a screen position; a controller
    /// that sends only rates moves nothing there. Said once per session, in the log and
    /// in the status, instead of doing nothing silently.
    func noteMissingAttitude(_ id: SessionID, mode: MappingSettings.Mode) {
        guard let i = sessions.index(forKey: id), !sessions.values[i].attitudeNoted else { return }
        sessions.values[i].attitudeNoted = true
        let note = "\(mode.rawValue) mode needs attitude, which this controller does not send (nor gyro and acceleration to fuse one from); "
            + "use FPS mode (mode = \"fps\" in [mapping] or the dashboard) — it works from the gyro rates"
        sessions.values[i].telemetry.note = note
        let t = sessions.values[i].telemetry
        logger.warning("\(t.name.isEmpty ? t.address : t.name): \(note)", metadata: ["session": "\(id)"])
    }
}
