#if os(Linux)
import NIOCore
import RemotionHostLogic
import RemotionProtocol
import RemotionSystem

/// `remotion host --gamepad dualsense`: each controller gets its own virtual DualSense
/// (docs/GAMEPAD.md). It watches the host pipeline (`HostPipelineObserver`) on the host's
/// loop: a session that opens creates a pad (its MAC from the controller's identity, so a
/// controller that comes back gets the same one), each motion sample and button edge is one
/// input report, and a session that closes — it left, timed out or was revoked — sets its
/// pad to rest and destroys it. Only the loop touches it.
/// One virtual pad as the observer drives it: `UHIDDualSense`, or a recording stand-in in tests.
package protocol VirtualPadDevice: AnyObject {
    var mac: DualSenseMAC { get }
    /// False when the report could not be written.
    func update(_ state: GamepadState) -> Bool
    /// Rest, then destroy.
    func close()
}

extension UHIDDualSense: VirtualPadDevice {}

package final class VirtualPadObserver: HostPipelineObserver, HostDropReporter {
    private struct Pad {
        let device: any VirtualPadDevice
        var feed: GamepadFeed
        let identity: String
    }

    private let bus: DualSenseBus
    private let identity: (SessionID, HostControllerOrigin) -> String
    private let say: (String) -> Void
    private let makePad: (String, DualSenseBus) throws -> any VirtualPadDevice
    private let gyroStick: GyroStick?
    private var pads: [SessionID: Pad] = [:]
    package private(set) var created = 0
    package private(set) var failed = 0
    package private(set) var writeFailures = 0
    private var lastError: String?

    /// `identity` names a session's controller stably (its paired name, its address);
    /// `say` reports pads made and refused, one line each; `makePad` makes a device for an
    /// identity (a UHID DualSense unless a test says otherwise).
    package init(bus: DualSenseBus, identity: @escaping (SessionID, HostControllerOrigin) -> String,
                 say: @escaping (String) -> Void, gyroStick: GyroStick? = nil,
                 makePad: @escaping (String, DualSenseBus) throws -> any VirtualPadDevice = { identity, bus in
                     try UHIDDualSense(identity: identity, bus: bus)
                 }) {
        self.makePad = makePad
        self.gyroStick = gyroStick
        self.bus = bus
        self.identity = identity
        self.say = say
    }

    package var dropLabel: String { "gamepad" }
    package var dropCounts: [String: Int] {
        var c: [String: Int] = [:]
        if failed > 0 { c["pad-not-created"] = failed }
        if writeFailures > 0 { c["report-not-written"] = writeFailures }
        return c
    }
    package var summary: String {
        "gamepad: \(created) virtual DualSense pads made, \(failed) refused, \(writeFailures) reports not written"
    }

    package func sessionOpened(_ id: SessionID, origin: HostControllerOrigin, now: Instant) {
        var name = identity(id, origin)
        // Two live controllers with one identity would get one MAC, which the driver refuses.
        let taken = Set(pads.values.map(\.identity))
        if taken.contains(name) {
            var n = 2
            while taken.contains("\(name)#\(n)") { n += 1 }
            name = "\(name)#\(n)"
        }
        do {
            let device = try makePad(name, bus)
            pads[id] = Pad(device: device, feed: GamepadFeed(gyroStick: gyroStick, at: now), identity: name)
            created += 1
            say("gamepad: a virtual DualSense (\(bus.rawValue), MAC \(device.mac)) for controller \(id)")
        } catch {
            failed += 1
            let reason = (error as? UHIDError)?.description ?? "\(error)"
            if reason != lastError { say("gamepad: no virtual pad for controller \(id): \(reason)") }
            lastError = reason
        }
    }

    package func motion(_ id: SessionID, _ sample: MotionSample, now: Instant) {
        guard var pad = pads[id] else { return }
        let state = pad.feed.motion(sample)
        pads[id] = pad
        if !pad.device.update(state) { writeFailures += 1 }
    }

    package func button(_ id: SessionID, _ button: Button, isDown: Bool, now: Instant) {
        guard var pad = pads[id] else { return }
        let state = pad.feed.button(button, isDown: isDown)
        pads[id] = pad
        if !pad.device.update(state) { writeFailures += 1 }
    }

    /// Rest, then destroy (UHIDDualSense.close).
    package func sessionClosed(_ id: SessionID, now: Instant) {
        guard let pad = pads.removeValue(forKey: id) else { return }
        pad.device.close()
    }

    /// Every pad to rest and destroyed: the host is stopping.
    package func closeAll() {
        for id in Array(pads.keys) { pads.removeValue(forKey: id)?.device.close() }
    }

    package var padCount: Int { pads.count }
}
#endif
