import RemotionProtocol

/// What a controller's transport asks for a session it opened (`ControllerCommand`), decided
/// in the engine: the sample and edges through the release guarantees of `ExternalControllers`,
/// the rest by the core. The answer, when the command has one; the outputs appended to `out`.
extension HostEngine {
    @discardableResult
    package mutating func perform(_ command: ControllerCommand, for id: SessionID, screen: ScreenGeometry, now: Instant,
                                  into out: inout [EngineOutput<Address>]) -> ControllerAnswer? {
        switch command {
        case let .motion(sample, latencyMicros):
            for a in external.motion(id, sample, latencyMicros: latencyMicros, now: now) {
                handle(a, screen: screen, now: now, into: &out)
            }
        case let .button(edge, isDown):
            for a in external.button(id, edge, isDown: isDown, now: now) { handle(a, screen: screen, now: now, into: &out) }
        case .heard:
            external.heard(id, now: now)
        case .close(let reason):
            for a in external.close(id, reason: reason) { handle(a, screen: screen, now: now, into: &out) }
        case .recenter:
            core.recenter(id)
        case .setTyping(let allowed):
            core.setTyping(id, allowed: allowed)
        case .mode(let wanted):
            return .mode(core.setMode(id, wanted) ?? .pointer)
        case .pad(let on):
            return .pad(setPad(id, on: on, askedByController: true, now: now, into: &out))
        case .gyroStick(let target):
            return .gyroStick(core.setGyroStick(id, target) ?? .off)
        case .calibrate:
            let report = core.requestCalibration(id, now: now)
            if report == .running(progress: 0) { out.append(.session(id, .note(.calibration(started: true)))) }
            return report.map(ControllerAnswer.calibration)
        case .buttonLabels:
            return .reply(.buttons(of: core.sessions[id]?.buttons ?? core.profile.buttons))
        case .input(let message):
            let refused = decide(id, into: &out) { core, scratch in core.webInput(id, message, now: now, into: &scratch) }
            return refused.map(ControllerAnswer.reply)
        }
        return nil
    }

    /// Gives `id` a virtual pad or takes it away (the page's Gamepad mode, the dashboard):
    /// whether it has one now, nil when no such session or this host makes no pads. With
    /// `[gamepad] for = "every"` the host's owner gave each controller a pad: the controller
    /// itself (`askedByController`: the page leaving its Gamepad mode) cannot give it back;
    /// the dashboard can.
    @discardableResult
    package mutating func setPad(_ id: SessionID, on: Bool, askedByController: Bool = false, now: Instant,
                                 into out: inout [EngineOutput<Address>]) -> Bool? {
        if !on, askedByController, core.pads?.forEvery == true { return core.hasPad(id) }
        return decide(id, into: &out) { core, scratch in core.setPad(id, on: on, now: now, into: &scratch) }
    }
}
