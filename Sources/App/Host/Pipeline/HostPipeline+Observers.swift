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
    /// The output the pointer covers was chosen anew (the dashboard): an overlay placed on
    /// one output goes there too.
    func pointerAreaChanged()
}

extension HostOutputHook {
    package func pointerAreaChanged() {}
}

/// An adapter beside the host's socket (a DSU source or server, the local pads, the virtual
/// pads) whose dropped input shows with the host's: in the status snapshot (its typed
/// `HostDrop`s, shown as "dsu-serve bad-crc") and in the stop line.
package protocol HostDropReporter: AnyObject {
    /// Drops by typed reason and where (`.dsuServer(.decode(.badCRC))`: 2).
    var hostDrops: [HostDrop: Int] { get }
    /// One line for the host's stop message: what it received, sent and dropped.
    var summary: String { get }
}

extension HostPipeline {
    /// The adapters' lines for the stop message ("" without adapters).
    package var adapterSummaries: [String] { dropReporters.map(\.summary) }

}
