import RemotionProtocol
import RemotionHostLogic

/// A controller's virtual pad given or taken while it is connected (docs/GAMEPAD.md "Which
/// controllers get a pad"): the page's Gamepad mode asks, the dashboard decides.
extension HostPipeline {
    /// Gives `id` a virtual pad or takes it away (`HostEngine.setPad` says who may).
    @discardableResult
    package func setPad(_ id: SessionID, on: Bool, now: Instant, askedByController: Bool = false) -> Bool? {
        let start = pending.count
        let has = engine.setPad(id, on: on, askedByController: askedByController, now: now, into: &pending)
        route(from: start, now: now)
        return has
    }

    /// One controller's gyro as a pad stick (its page's choice; docs/GAMEPAD.md): the target
    /// in effect, nil when no such session.
    @discardableResult
    package func setGyroStick(_ id: SessionID, _ target: GyroStickSettings.Target?) -> GyroStickSettings.Target? {
        engine.setGyroStick(id, target)
    }
}
