import RemotionFuzzChecks
import RemotionProtocol
import RemotionHostLogic

/// The whole sans-IO host driven by a fuzzed script (`HostScript`): the pipeline with every
/// output on — pointer and keys (through the injector's held-input tracker), a virtual
/// DualSense per session (both buses' reports encoded), the DSU server with a subscribed
/// client (its packets decoded again) and feedback — fed by controllers of every origin.
/// Shared by the FuzzHost libFuzzer target (which traps on a violation so libFuzzer keeps the
/// input) and `HostFuzzPropertyTests` (seeded inputs in the normal suite).
///
/// Properties: nothing traps; every output is in range (pointer counts within what an
/// injector takes, a pad's sticks and triggers in their range and its motion finite, DSU's
/// served gyro ±2000 °/s and acceleration ±8 g, never NaN); every input and pad a session
/// held is released when it ends, and nothing is held once every session has ended.
package enum HostProperties {
    package static func run(_ bytes: [UInt8]) -> PropertyViolation? {
        run(steps: HostScript.steps(bytes), input: bytes).violation
    }

    /// The steps, then every session ends: the first property broken (with `input`, for the
    /// report) and what the outputs saw.
    package static func run(steps: [HostStep], input: [UInt8] = []) -> (violation: PropertyViolation?, seen: Seen) {
        var host = FuzzedHost()
        for step in steps {
            if let property = host.perform(step) { return (PropertyViolation(property, input: input), host.seen) }
        }
        if let property = host.closeAll() { return (PropertyViolation(property, input: input), host.seen) }
        return (nil, host.seen)
    }

    /// What the outputs saw: a test checks the script reached them.
    package struct Seen: Sendable {
        package var padReports = 0, dsuPackets = 0, pointerEvents = 0, presses = 0, padsClosed = 0
        package init() {}
    }
}

/// The host's decisions and the outputs' bookkeeping for one fuzz input.
struct FuzzedHost {
    static let screen = ScreenGeometry(width: 1920, height: 1080)
    static let dsuClient = "client"

    var core = PipelineCore(profile: MappingProfile(),
                            keepsTrails: true, pads: VirtualPadSettings(forEvery: true))
    var now = Instant(nanoseconds: 1_000_000_000)
    var held = HeldInputTracker()
    var reports: [SessionID: (usb: DualSenseInputReport, bluetooth: DualSenseInputReport)] = [:]
    var dsu = DSUServerStateMachine<String, SessionID>(configuration: .init(serverID: 1))
    var out: [PipelineOutput] = []
    var seen = HostProperties.Seen()

    init() {
        let request = DSUCodec.encode(DSUPacket(senderID: 9, message: .padDataRequest(DSUPadRequest(flags: 0))))
        _ = dsu.receive(request, from: Self.dsuClient, now: now)
    }

    /// One step; the property it broke, if any.
    mutating func perform(_ step: HostStep) -> String? {
        out.removeAll(keepingCapacity: true)
        switch step {
        case let .open(id):
            core.open(id, address: "fuzz", identity: "fuzz:\(id)", now: now, into: &out)
            _ = dsu.attach(id)
            return route(id)
        case let .close(id):
            return close(id)
        case let .motion(id, sample):
            let m = core.motion(id, sample, latencyMicros: nil, screen: Self.screen, now: now)
            if let event = m.pointer { out.append(.input(event)) }
            if let state = m.pad { out.append(.pad(state)) }
            if let mapped = m.sample, let problem = serveDSU(id, mapped) { return problem }
            return route(id)
        case let .button(id, button, isDown):
            core.button(id, button, isDown: isDown, now: now, into: &out)
            return route(id)
        case let .advance(d):
            now = now + d
            return nil
        case let .setPad(id, on):
            core.setPad(id, on: on, now: now, into: &out)
            return route(id)
        case let .feedback(id, change):
            core.padFeedback(id, change, now: now, into: &out)
            return route(id)
        case let .settings(settings):
            core.update(settings: settings)
            return nil
        case let .suspend(on):
            for (id, rest) in core.setSuspended(on) {
                guard reports[id] != nil else { return "a suspended session's rest goes to an open pad" }
                if let problem = Self.check(state: rest, atRest: true) { return problem }
            }
            return nil
        }
    }

    mutating func close(_ id: SessionID) -> String? {
        core.close(id, reason: .clientDisconnected(.user), now: now, into: &out)
        _ = dsu.detach(id)
        if let problem = route(id) { return problem }
        if held.held[id] != nil { return "a session that ended holds no input" }
        if reports[id] != nil { return "a session that ended has no pad" }
        return nil
    }

    /// Every session ends: nothing is held, no pad is left.
    mutating func closeAll() -> String? {
        for raw in 0..<HostScript.sessions {
            out.removeAll(keepingCapacity: true)
            if let problem = close(SessionID(raw)) { return problem }
        }
        return held.down.isEmpty && reports.isEmpty ? nil : "nothing is held once every session has ended"
    }

    /// The outputs of one step, checked and performed as the host's outputs would.
    private mutating func route(_ id: SessionID) -> String? {
        for output in out {
            switch output {
            case let .input(event):
                if let problem = Self.check(event) { return problem }
                seen.pointerEvents += 1
                if event.isPress { seen.presses += 1 }
                _ = held.filter(event, session: id)
            case let .inputs(events):
                for event in events {
                    if let problem = Self.check(event) { return problem }
                    if event.isPress { seen.presses += 1 }
                    _ = held.filter(event, session: id)
                }
            case .releaseHeld:
                _ = held.endSession(id)
            case .padOpened:
                if reports[id] != nil { return "a pad is opened once" }
                reports[id] = (DualSenseInputReport(bus: .usb), DualSenseInputReport(bus: .bluetooth))
            case let .pad(state):
                guard reports[id] != nil else { return "a pad state goes to an open pad" }
                if core.suspended { return "a pad reports nothing while the desktop session is inactive" }
                if let problem = Self.check(state) { return problem }
                _ = reports[id]?.usb.encode(state)
                _ = reports[id]?.bluetooth.encode(state)
                seen.padReports += 1
            case let .padClosed(rest):
                guard reports[id] != nil else { return "a pad that closes was open" }
                if let problem = Self.check(state: rest, atRest: true) { return problem }
                _ = reports[id]?.usb.encode(rest)
                reports[id] = nil
                seen.padsClosed += 1
            case .feedback, .calibration, .calibrationSave, .note, .text, .laser, .profile:
                break
            }
        }
        return nil
    }

    /// What the DSU server serves for the sample: the packets decode, gyro and acceleration
    /// within a real pad's range.
    private mutating func serveDSU(_ id: SessionID, _ sample: MotionSample) -> String? {
        for packet in dsu.update(id, sample: sample, now: now) {
            seen.dsuPackets += 1
            guard case .padData(let p)? = try? DSUCodec.decode(packet.bytes).message else {
                return "a served DSU packet decodes"
            }
            let g = [p.gyro.pitch, p.gyro.yaw, p.gyro.roll], a = [p.accel.x, p.accel.y, p.accel.z]
            guard g.allSatisfy({ $0.isFinite && abs($0) <= DSUGyro.physicalLimit }),
                  a.allSatisfy({ $0.isFinite && abs($0) <= DSUAccel.physicalLimit }) else {
                return "DSU serves gyro within ±2000 °/s and acceleration within ±8 g (\(g), \(a))"
            }
        }
        return nil
    }

    static func check(_ event: InputEvent) -> String? {
        switch event {
        case let .moveTo(x, y):
            return (0..<screen.width).contains(x) && (0..<screen.height).contains(y) ? nil : "a pointer position is on the screen"
        case let .moveBy(dx, dy), let .wheel(dx, dy):
            return abs(dx) <= 1_000_000_000 && abs(dy) <= 1_000_000_000 ? nil : "a relative move is within ±1e9 counts"
        case .button, .key:
            return nil
        }
    }

    static func check(_ state: GamepadState) -> String? { check(state: state, atRest: false) }

    static func check(state s: GamepadState, atRest: Bool) -> String? {
        let axes = [s.leftStick.x, s.leftStick.y, s.rightStick.x, s.rightStick.y]
        guard axes.allSatisfy({ $0.isFinite && abs($0) <= 1 }),
              [s.leftTrigger, s.rightTrigger].allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }) else {
            return "a pad's sticks are within ±1 and its triggers within 0…1"
        }
        let r = s.motion.angularRate, a = s.motion.acceleration
        guard [r.x, r.y, r.z, a.x, a.y, a.z].allSatisfy({ !$0.isNaN }) else { return "a pad's motion is never NaN" }
        guard atRest else { return nil }
        let still = s.buttons.isEmpty && s.dpad.isEmpty && axes.allSatisfy { $0 == 0 }
            && s.leftTrigger == 0 && s.rightTrigger == 0 && r.x == 0 && r.y == 0 && r.z == 0
        return still ? nil : "a pad that closes shows rest first"
    }
}
