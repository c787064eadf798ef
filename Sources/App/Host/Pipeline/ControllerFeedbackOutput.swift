import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// What goes back to a controller on its own transport (docs/GAMEPAD.md "Rumble and lightbar",
/// docs/WEB-CONTROLLER.md "Calibrate"): the output for a session's `.feedback` (rumble and light
/// a game wrote to its pad, paced by the engine), `.calibration` (a calibration's progress) and
/// `.profile` (the profile in force). A phone's page gets each as a `ControllerNotice` through
/// the sink its transport gave when it opened the session; a UDP controller gets its feedback
/// as a datagram through the UDP handler; a DSU source or a local pad has no way back (counted).
/// On the host's loop.
package final class ControllerFeedbackOutput {
    /// Where each session's notices go, given by its transport at `open(…, notices:)`; removed
    /// when the session closes.
    package var sinks: [SessionID: @Sendable (ControllerNotice) -> Void] = [:]
    /// The datagram sessions' way back (the UDP handler the pipeline is attached to).
    weak var datagrams: (any HostSinkDriver)?
    /// Feedback messages handed to a controller's transport, and those with nowhere to go.
    package private(set) var sent = 0
    package private(set) var unsendable = 0

    /// Hands `feedback` to the transport of `id`'s controller.
    func send(_ feedback: ControllerFeedback, to id: SessionID) {
        if let sink = sinks[id] {
            sink(.feedback(feedback))
        } else if datagrams?.sendFeedback(id, feedback) != true {
            unsendable += 1     // a DSU source or a local pad: no way back (yet)
            return
        }
        sent += 1
    }

    /// Something only a page shows (a calibration's progress, the profile in force); nothing
    /// for a controller without a notice sink.
    func notify(_ id: SessionID, _ notice: ControllerNotice) { sinks[id]?(notice) }

    /// The session ended: its sink goes with it.
    func closed(_ id: SessionID) { sinks.removeValue(forKey: id) }
}
