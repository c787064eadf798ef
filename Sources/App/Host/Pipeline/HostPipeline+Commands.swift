import RemotionProtocol
import RemotionHostLogic

/// The one on-loop entry for what a controller's transport asks once its session is open
/// (`ControllerCommand`: the page's WebSocket and data channels reach it through
/// `HostControllers`). Each command becomes the pipeline's own verb, the one an adapter on
/// the host's loop (DSU, local pads) calls directly.
extension HostPipeline {
    /// Performs `command` for `id` with the loop's time; the answer, when the command has one
    /// (nil for the others, for a calibration of a session that is gone, for input the page
    /// is not told about).
    @discardableResult
    package func perform(_ command: ControllerCommand, for id: SessionID, now: Instant) -> ControllerAnswer? {
        switch command {
        case let .motion(sample, latencyMicros): motion(id, sample, latencyMicros: latencyMicros, now: now)
        case let .button(edge, isDown): button(id, edge, isDown: isDown, now: now)
        case .heard: heard(id, now: now)
        case .close(let reason): close(id, reason: reason, now: now)
        case .recenter: recenter(id)
        case .setTyping(let allowed): setTyping(id, allowed: allowed)
        case .mode(let wanted): return .mode(setMode(id, wanted) ?? .pointer)
        case .pad(let on): return .pad(setPad(id, on: on, now: now, askedByController: true))
        case .gyroStick(let target): return .gyroStick(setGyroStick(id, target) ?? .off)
        case .calibrate: return requestCalibration(id, now: now).map(ControllerAnswer.calibration)
        case .buttonLabels: return .reply(buttonLabels(id))
        case .input(let message): return webInput(id, message, now: now).map(ControllerAnswer.reply)
        }
        return nil
    }
}
