import Logging
#if os(Linux)
import RemotionHostLogic
import RemotionProtocol
import RemotionSystem

/// One virtual pad as `VirtualPadOutput` drives it: `UHIDDualSense`; `NullSinkPad`, the
/// benchmark's stand-in (`--gamepad-sink null`); or a recording stand-in in tests.
package protocol VirtualPadDevice: AnyObject {
    var mac: DualSenseMAC { get }
    /// Writes `state`'s report; `received` is when the host received the event behind it
    /// (only the benchmark's stand-in reads it). False when the report could not be written.
    func update(_ state: GamepadState, received: Instant) -> Bool
    /// Rest, then destroy.
    func close()
}

extension UHIDDualSense: VirtualPadDevice {
    package func update(_ state: GamepadState, received: Instant) -> Bool { update(state) }
}

/// `remotion host --gamepad dualsense`: each controller gets its own virtual DualSense
/// (docs/GAMEPAD.md). An output of the host pipeline (`HostOutput`, pad states) on the
/// host's loop: `PipelineCore` decides what each session's pad shows (`GamepadFeed`) and
/// this makes it real. `.padOpened` creates a pad (its MAC from the controller's identity,
/// so a controller that comes back gets the same one), each `.pad` state is one input
/// report, and `.padClosed` — the session left, timed out or was revoked — shows the rest
/// state, then destroys the pad. Only the loop touches it. What a game writes to a pad
/// (rumble, lightbar: `DualSenseOutput`, on the pad's reader thread) goes to `onFeedback`
/// with the pad's session, which hops to the host's loop (docs/GAMEPAD.md "Rumble and lightbar").
package final class VirtualPadOutput: HostOutput, HostDropReporter {
    private struct Pad {
        let device: any VirtualPadDevice
        let identity: String
    }

    private let bus: DualSenseBus
    private let logger: Logger
    /// Makes a device for an identity; the closure it is given runs for each output report.
    package typealias MakePad = (String, DualSenseBus, @escaping @Sendable (DualSenseOutput) -> Void) throws -> any VirtualPadDevice
    private let makePad: MakePad
    private let onFeedback: @Sendable (SessionID, FeedbackChange) -> Void
    private var pads: [SessionID: Pad] = [:]
    package private(set) var created = 0
    package private(set) var failed = 0
    package private(set) var writeFailures = 0
    private var lastError: String?

    /// `logger` says pads made and refused, one line each; `onFeedback` gets what a game
    /// wrote to a session's pad (from the pad's own thread); `makePad` makes a device for an
    /// identity (a UHID DualSense unless a test says otherwise).
    package init(bus: DualSenseBus, logger: Logger,
                 onFeedback: @escaping @Sendable (SessionID, FeedbackChange) -> Void = { _, _ in },
                 makePad: @escaping MakePad = { identity, bus, onOutput in
                     try UHIDDualSense(identity: identity, bus: bus, onOutput: onOutput)
                 }) {
        self.makePad = makePad
        self.onFeedback = onFeedback
        self.bus = bus
        self.logger = logger
    }

    package var accepts: PipelineOutput.Kind { .pad }

    package func perform(_ output: PipelineOutput, session id: SessionID, now: Instant) {
        switch output {
        case .padOpened(let identity): open(id, identity: identity)
        case .pad(let state): update(id, state, received: now)
        case .padClosed(let rest):
            update(id, rest, received: now)
            close(id)
        case .input, .inputs, .releaseHeld, .note, .feedback, .calibration, .calibrationSave, .text, .laser, .profile: break
        }
    }

    /// Drops by reason.
    package var dropCounts: [VirtualPadDrop: Int] {
        var c: [VirtualPadDrop: Int] = [:]
        if failed > 0 { c[.padNotCreated] = failed }
        if writeFailures > 0 { c[.reportNotWritten] = writeFailures }
        return c
    }
    package var hostDrops: [HostDrop: Int] { [HostDrop: Int]().adding(dropCounts, as: HostDrop.gamepad) }
    package var summary: String {
        "gamepad: \(created) virtual DualSense pads made, \(failed) refused, \(writeFailures) reports not written"
    }

    private func open(_ id: SessionID, identity: String) {
        close(id)   // never two devices for one session
        var name = identity
        // Two live controllers with one identity would get one MAC, which the driver refuses.
        let taken = Set(pads.values.map(\.identity))
        if taken.contains(name) {
            var n = 2
            while taken.contains("\(name)#\(n)") { n += 1 }
            name = "\(name)#\(n)"
        }
        do {
            let onFeedback = self.onFeedback
            let device = try makePad(name, bus) { onFeedback(id, $0.change) }
            pads[id] = Pad(device: device, identity: name)
            created += 1
            logger.info("gamepad: a virtual DualSense (\(bus.rawValue), MAC \(device.mac)) for controller \(id)")
        } catch {
            failed += 1
            let reason = (error as? UHIDError)?.description ?? "\(error)"
            if reason != lastError { logger.warning("gamepad: no virtual pad for controller \(id): \(reason)") }
            lastError = reason
        }
    }

    private func update(_ id: SessionID, _ state: GamepadState, received: Instant) {
        guard let pad = pads[id] else { return }
        if !pad.device.update(state, received: received) { writeFailures += 1 }
    }

    /// Destroys the pad (UHIDDualSense.close writes its rest state once more first).
    private func close(_ id: SessionID) {
        pads.removeValue(forKey: id)?.device.close()
    }

    /// Every pad to rest and destroyed: the host is stopping.
    package func stop() {
        for id in Array(pads.keys) { pads.removeValue(forKey: id)?.device.close() }
    }

    package var padCount: Int { pads.count }
}
#endif
