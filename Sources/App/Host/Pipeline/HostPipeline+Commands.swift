import RemotionProtocol
import RemotionHostLogic

/// The one on-loop entry for what a controller's transport asks once its session is open
/// (`ControllerCommand`: the page's WebSocket and data channels reach it through
/// `HostControllers`; DSU and local pads call it on the loop). The engine decides
/// (`HostEngine.perform`); this routes its outputs and types the text.
extension HostPipeline {
    /// Performs `command` for `id` with the loop's time; the answer, when the command has one
    /// (nil for the others, for a calibration of a session that is gone, for input the page
    /// is not told about).
    @discardableResult
    package func perform(_ command: ControllerCommand, for id: SessionID, now: Instant) -> ControllerAnswer? {
        let start = pending.count
        let elsewhere = engine.external.count
        let answer = engine.perform(command, for: id, screen: injector.screen, now: now, into: &pending)
        let typed = route(from: start, now: now)
        switch command {
        case .motion, .button: driver?.sinkChanged(now: now, membership: false)
        case .close where engine.external.count != elsewhere: driver?.sinkChanged(now: now, membership: true)
        case .input: return answer ?? typed.map(ControllerAnswer.reply)
        default: break
        }
        return answer
    }
}
