import NIOCore
import RemotionProtocol
import RemotionHostLogic

/// Something beside the injector that wants every controller's session: the DSU
/// server, which serves Remotion controllers to emulators. Called on the host's loop,
/// synchronously, in the order the host decided things (opened, then motion and
/// button edges, then closed after the session's buttons were released).
package protocol HostPipelineObserver: AnyObject {
    func sessionOpened(_ id: SessionID, address: SocketAddress, now: Instant)
    func motion(_ id: SessionID, _ sample: MotionSample, now: Instant)
    func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant)
    func sessionClosed(_ id: SessionID, now: Instant)
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
    /// Names a session (logs, status) that another transport opened, e.g.
    /// "DSU 127.0.0.1:26760 slot 0".
    package func describe(_ id: SessionID, name: String) {
        telemetry[id]?.address = name
    }

    /// The adapters' lines for the stop message ("" without adapters).
    package var adapterSummaries: [String] { dropReporters.map(\.summary) }

    /// Pointer (and seed) mode turn an attitude into a screen position; a controller
    /// that sends only rates (a DSU source until the host fuses attitude itself) moves
    /// nothing there. Said once per session, in the log and in the status, instead of
    /// doing nothing silently.
    func noteMissingAttitude(_ id: SessionID, mode: MappingSettings.Mode) {
        guard attitudeNoted.insert(id).inserted else { return }
        let note = "\(mode.rawValue) mode needs attitude, which this controller does not send (nor gyro and acceleration to fuse one from); "
            + "use FPS mode (mode = \"fps\" in [mapping] or the dashboard) — it works from the gyro rates"
        telemetry[id]?.note = note
        let name = telemetry[id]?.address ?? "\(id)"
        logger.warning("\(name): \(note)", metadata: ["session": "\(id)"])
    }
}
