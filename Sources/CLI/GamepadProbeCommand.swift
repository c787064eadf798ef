import ArgumentParser
import Foundation
import RemotionHostLogic
import RemotionProtocol
import RemotionSystem

/// `remotion gamepad-probe` (hidden, for development and the guest stage): one virtual
/// DualSense through /dev/uhid fed a known rotation, a Cross press, the left stick full right
/// and R2 held to the end, then set to rest and destroyed. Says each step as one JSON line on stdout (docs/GAMEPAD.md).
struct GamepadProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gamepad-probe",
        abstract: "Create one virtual DualSense (UHID), feed a known rotation and a button press, then remove it.",
        shouldDisplay: false)

    @Option(help: "How long to feed the rotation, in seconds.")
    var seconds: Double = 2

    @Option(help: "Reports per second.")
    var rate: Double = 100

    @Option(help: "Angular rate fed, °/s in the pad's frame: pitch,yaw,roll.")
    var gyro: String = "30,-90,45"

    @Option(help: "bluetooth or usb.")
    var bus: String = "bluetooth"

    @Option(help: "The controller identity the pad's MAC is derived from.")
    var identity: String = "gamepad-probe"

    @Option(help: "When Cross is held, FROM-TO in seconds of feeding (default: the middle half).")
    var cross: String?

    /// The local-pads guest stage's "owned" DualSense: named as a real one and with a phys that
    /// is not Remotion's, so `remotion host --local-pads` reads it like a pad a person plugged in.
    @Flag(help: .hidden)
    var asOwned = false

    @Option(help: "Wait until this file exists before feeding (the reader's readiness).")
    var goFile: String?

    func run() throws {
        guard let bus = DualSenseBus(rawValue: bus) else { throw UserError("--bus: bluetooth or usb") }
        let parts = gyro.split(separator: ",").compactMap { Float($0) }
        guard parts.count == 3 else { throw UserError("--gyro: three numbers, pitch,yaw,roll in °/s") }
        let angular = Vector3(x: parts[0], y: parts[1], z: parts[2])
        let pad: UHIDDualSense
        do {
            pad = try UHIDDualSense(identity: identity, bus: bus, looksOwned: asOwned, onEvent: { event in
                switch event {
                case .start: say(["event": "start"])
                case .open: say(["event": "open"])
                case .close: say(["event": "close"])
                case let .getReport(_, number, _): say(["event": "get_report", "report": Int(number)])
                default: break
                }
            }, onOutput: { output in
                // "lightbar": the colour the report sets, null when it sets none.
                let light: Any = output.lightbar.map { [Int($0.red), Int($0.green), Int($0.blue)] } ?? NSNull()
                say(["event": "output", "rumble_left": Int(output.rumbleLeft), "rumble_right": Int(output.rumbleRight),
                     "sets_rumble": output.setsRumble, "lightbar": light])
            })
        } catch {
            throw UserError(error.description)
        }
        say(["event": "created", "uniq": pad.mac.description, "bus": bus.rawValue])
        if let goFile {
            let deadline = Date().addingTimeInterval(120)
            while !FileManager.default.fileExists(atPath: goFile) {
                guard Date() < deadline else { pad.close(); throw UserError("--go-file \(goFile) never appeared") }
                usleep(20_000)
            }
        }
        let startDeadline = Date().addingTimeInterval(10)
        while !pad.isStarted && Date() < startDeadline { usleep(10_000) }
        guard pad.isStarted else {
            pad.close()
            throw UserError("the kernel did not start the pad (no driver bound it): sudo modprobe hid-playstation")
        }
        let period = 1 / max(rate, 1)
        let count = Int((seconds / period).rounded())
        var pressFrom = count / 4, pressTo = 3 * count / 4
        if let cross {
            let span = cross.split(separator: "-").compactMap { Double($0) }
            guard span.count == 2, span[0] >= 0, span[1] > span[0] else { pad.close(); throw UserError("--cross: FROM-TO in seconds, e.g. 0.5-1.5") }
            pressFrom = Int((span[0] / period).rounded()); pressTo = Int((span[1] / period).rounded())
        }
        var state = GamepadState(motion: .still(at: UHIDDualSense.now()))
        say(["event": "feeding", "reports": count, "gyro": [parts[0], parts[1], parts[2]].map(Double.init)])
        for i in 0..<count {
            state.motion = .init(angularRate: angular, acceleration: Vector3(x: 0, y: 1, z: 0), time: UHIDDualSense.now())
            // The left stick full right and R2 fully pressed from the first quarter to the
            // end: only the rest state brings them back.
            if i == pressFrom {
                state.leftStick = .init(x: 1, y: 0)
                state.rightTrigger = 1
                say(["event": "held", "left_stick_x": 1, "r2": 1])
            }
            let pressed = i >= pressFrom && i < pressTo
            if pressed != state.buttons.contains(.cross) {
                if pressed { state.buttons.insert(.cross) } else { state.buttons.remove(.cross) }
                say(["event": pressed ? "cross_down" : "cross_up"])
            }
            guard pad.update(state) else { pad.close(); throw UserError("writing an input report to /dev/uhid failed") }
            usleep(UInt32(period * 1_000_000))
        }
        pad.close()
        let counters = pad.counters
        say(["event": "destroyed", "reports": counters.reportsSent, "features_answered": counters.featuresAnswered,
             "features_refused": counters.featuresRefused])
    }
}

/// One JSON line on stdout, written at once.
private func say(_ object: [String: Any]) {
    guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
    FileHandle.standardOutput.write(data + Data("\n".utf8))
}
