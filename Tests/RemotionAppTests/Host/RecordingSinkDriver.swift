import RemotionApp
import RemotionNetwork
import RemotionProtocol

/// The UDP handler as a pipeline sees it (`HostSinkDriver`), recorded: what the pipeline told
/// it, the rumble it asked to send to datagram sessions (those in `datagramSessions`; false
/// for any other). A stand-in only for tests of the pipeline alone; the real handler is in
/// the rigs that start a host (PipelineRig, the end-to-end tests).
final class RecordingSinkDriver: HostSinkDriver {
    var datagramSessions: Set<SessionID> = []
    /// The static key each datagram session authenticated with (a Noise host's framing).
    var peerKeys: [SessionID: [UInt8]] = [:]
    private(set) var changes: [(now: Instant, membership: Bool)] = []
    private(set) var feedback: [(SessionID, ControllerFeedback)] = []

    /// The deadlines the pipeline asked the handler's timer to wake at.
    private(set) var wakes: [Instant] = []

    func sinkChanged(now: Instant, membership: Bool) { changes.append((now, membership)) }

    func sinkWakes(at deadline: Instant) { wakes.append(deadline) }

    func sendFeedback(_ id: SessionID, _ feedback: ControllerFeedback) -> Bool {
        guard datagramSessions.contains(id) else { return false }
        self.feedback.append((id, feedback))
        return true
    }

    func peerKey(of id: SessionID) -> [UInt8]? { peerKeys[id] }

    func report() -> HostReport { HostReport(sessions: [:], drops: DropCounters(), datagramsReceived: 0, datagramsSent: 0) }
}
