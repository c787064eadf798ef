#if os(Linux)
import RemotionProtocol
import RemotionHostLogic

/// Injects through two virtual uinput devices (docs/INJECTION.md, "uinput"):
///
/// - **"Remotion virtual pointer"**, absolute: ABS_X/ABS_Y over 0…32767 with the mouse
///   buttons, like a VM's tablet. libinput reports it as POINTER_MOTION_ABSOLUTE, no pointer
///   acceleration applies, and the compositor maps the range onto the desktop, so the
///   screen size never has to be known. Pointer and seed modes (`moveTo`) drive it.
/// - **"Remotion virtual mouse"**, relative: REL_X/REL_Y (raw deltas, for games in FPS mode,
///   `moveBy`), the wheel (REL_WHEEL + REL_WHEEL_HI_RES, REL_HWHEEL + REL_HWHEEL_HI_RES),
///   the mouse buttons and every key of `KeyCodeTables.evdev`.
///
/// A button press goes to the device that moved last (the tablet after `moveTo`, the mouse
/// otherwise); its release goes to the device that pressed it. Each frame goes to each
/// device that has events in ONE write() of input_event structs ending with SYN_REPORT.
/// `close()` destroys both devices; the `Injector` releases what is held before.
package final class UInputBackend: InjectorBackend {
    package let name = "uinput"
    /// The screen `moveTo` positions are in (the mapper's pixels; nominal: the compositor
    /// maps the device's range onto the real desktop, whatever its size).
    package var screen: ScreenGeometry

    private let absolute: any UInputDevice
    private let relative: any UInputDevice
    private var pendingAbsolute: [UInt8] = []
    private var pendingRelative: [UInt8] = []
    /// The last motion was absolute (presses go to the tablet).
    private var pointingAbsolutely = false
    /// Buttons held on the tablet (their releases go there too).
    private var heldOnAbsolute = Set<UInt16>()
    private var isClosed = false

    /// Opens /dev/uinput twice (one descriptor per device); fails with the fix to permissions.
    package convenience init(path: String = UInputFileDevice.defaultPath, screen: ScreenGeometry) throws(InjectionError) {
        let absolute = try UInputFileDevice(path: path)
        let relative: UInputFileDevice
        do { relative = try UInputFileDevice(path: path) } catch { absolute.close(); throw error }
        try self.init(absolute: absolute, relative: relative, screen: screen)
    }

    /// Declares and creates both devices; on failure neither is left behind.
    package init(absolute: any UInputDevice, relative: any UInputDevice, screen: ScreenGeometry,
                deviceName: String = "Remotion virtual") throws(InjectionError) {
        self.absolute = absolute
        self.relative = relative
        self.screen = screen
        var created: [any UInputDevice] = []
        do {
            for call in UInputLayout.absoluteSetup(name: deviceName + " pointer") { try absolute.control(call) }
            created.append(absolute)
            for call in UInputLayout.relativeSetup(name: deviceName + " mouse") { try relative.control(call) }
        } catch {
            for device in created { try? device.control(.destroy) }
            absolute.close()
            relative.close()
            throw error
        }
    }

    deinit { close() }

    package func screenGeometry() -> ScreenGeometry { screen }

    package func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {
        guard !isClosed else { throw InjectionError(.closed, backend: name, "posted after close()") }
        switch event {
        case .moveTo(let x, let y):
            pointingAbsolutely = true
            let (ax, ay) = UInputLayout.absolutePosition(x: x, y: y, on: screen)
            emit(&pendingAbsolute, EvdevEvent.absType, UInputLayout.absX, ax)
            emit(&pendingAbsolute, EvdevEvent.absType, UInputLayout.absY, ay)
        case .moveBy(let dx, let dy):
            pointingAbsolutely = false
            if dx != 0 { emit(&pendingRelative, EvdevEvent.relType, UInputLayout.relX, Int32(clamping: dx)) }
            if dy != 0 { emit(&pendingRelative, EvdevEvent.relType, UInputLayout.relY, Int32(clamping: dy)) }
        case .button(let b, let down):
            let code = UInputLayout.code(for: b)
            let onAbsolute = down ? pointingAbsolutely : heldOnAbsolute.contains(code)
            if down, onAbsolute { heldOnAbsolute.insert(code) } else if !down { heldOnAbsolute.remove(code) }
            if onAbsolute {
                emit(&pendingAbsolute, EvdevEvent.keyType, code, down ? 1 : 0)
            } else {
                emit(&pendingRelative, EvdevEvent.keyType, code, down ? 1 : 0)
            }
        case .key(let k, let down):
            guard let code = KeyCodeTables.evdev(k) else {
                throw InjectionError(.unsupported, backend: name,
                                     "key \(k.name) (keysym 0x\(String(k.keysym, radix: 16))) has no evdev key code")
            }
            emit(&pendingRelative, EvdevEvent.keyType, code, down ? 1 : 0)
        case .wheel(let dx, let dy):
            for (steps, low, high) in [(dy, UInputLayout.relWheel, UInputLayout.relWheelHiRes),
                                       (dx, UInputLayout.relHWheel, UInputLayout.relHWheelHiRes)] where steps != 0 {
                let n = Int32(min(max(steps, -UInputLayout.maxWheelSteps), UInputLayout.maxWheelSteps))
                emit(&pendingRelative, EvdevEvent.relType, low, n)
                emit(&pendingRelative, EvdevEvent.relType, high, n * UInputLayout.hiResPerStep)
            }
        }
    }

    /// Writes each device's frame (events + SYN_REPORT) in one write(); nothing if empty.
    package func flush() throws(InjectionError) {
        guard !isClosed else { throw InjectionError(.closed, backend: name, "flushed after close()") }
        let frames = [(absolute, pendingAbsolute), (relative, pendingRelative)]
        pendingAbsolute = []
        pendingRelative = []
        for (device, var frame) in frames where !frame.isEmpty {
            EvdevEvent.synReport.append(to: &frame)
            try device.write(frame)
        }
    }

    /// Destroys both virtual devices (UI_DEV_DESTROY) and closes their descriptors.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        for device in [absolute, relative] {
            try? device.control(.destroy)
            device.close()
        }
    }

    private func emit(_ pending: inout [UInt8], _ type: UInt16, _ code: UInt16, _ value: Int32) {
        EvdevEvent(type: type, code: code, value: value).append(to: &pending)
    }
}
#endif
