import RemotionProtocol
import RemotionHostLogic

/// A controller's virtual pad given or taken while it is connected (docs/GAMEPAD.md "Which
/// controllers get a pad"): the page's Gamepad mode asks, the dashboard decides.
extension HostPipeline {
    /// Gives `id` a virtual pad or takes it away (the page's Gamepad mode, the dashboard):
    /// whether it has one now, nil when no such session or this host makes no pads. With
    /// `[gamepad] for = "every"` the host's owner gave each controller a pad: the controller
    /// itself (`askedByController`: the page leaving its Gamepad mode) cannot give it back;
    /// the dashboard can.
    @discardableResult
    package func setPad(_ id: SessionID, on: Bool, now: Instant, askedByController: Bool = false) -> Bool? {
        if !on, askedByController, core.pads?.forEvery == true { return core.hasPad(id) }
        let start = pending.count
        let has = core.setPad(id, on: on, now: now, into: &pending)
        route(from: start, session: id, now: now)
        return has
    }

    /// One controller's gyro as a pad stick (its page's choice; docs/GAMEPAD.md): the target
    /// in effect, nil when no such session.
    @discardableResult
    package func setGyroStick(_ id: SessionID, _ target: GyroStickSettings.Target?) -> GyroStickSettings.Target? {
        core.setGyroStick(id, target)
    }
}
