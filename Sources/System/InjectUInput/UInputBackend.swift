#if os(Linux)
import RemotionProtocol
import RemotionHostLogic

/// Injects through one virtual uinput device: a relative mouse (REL_X/Y,
/// REL_WHEEL/HWHEEL, BTN_LEFT/RIGHT/MIDDLE/SIDE/EXTRA) with a keyboard (every
/// key of `KeyCodeTables.evdev`). Works under X11, Wayland and the console.
///
/// Each frame goes to the kernel in ONE write() of input_event structs ending
/// with SYN_REPORT. uinput cannot read the pointer position, so absolute moves
/// become relative motion from a tracked position: the first one first pushes
/// the pointer into the top-left corner (its own SYN_REPORT inside the same
/// write), later ones move by the difference. Relative motion is subject to the
/// desktop's pointer acceleration (use a flat profile for exact positions).
package final class UInputBackend: InjectorBackend {
    package let name = "uinput"
    /// The screen, as told by the caller (uinput has no notion of it).
    package var screen: ScreenGeometry
    /// Where the backend believes the pointer is (nil until the first absolute move).
    package private(set) var position: (x: Int, y: Int)?

    private let device: any UInputDevice
    private var pending: [UInt8] = []
    private var isClosed = false

    static let btnLeft: UInt16 = 0x110, btnRight: UInt16 = 0x111, btnMiddle: UInt16 = 0x112
    static let btnSide: UInt16 = 0x113, btnExtra: UInt16 = 0x114
    static let relX: UInt16 = 0, relY: UInt16 = 1, relHWheel: UInt16 = 6, relWheel: UInt16 = 8

    /// The ioctls that declare and create the device, in order.
    package static func setupSequence(name: String) -> [UInputIoctl] {
        [.setEventBit(EvdevEvent.keyType), .setEventBit(EvdevEvent.relType)]
            + [relX, relY, relWheel, relHWheel].map { .setRelativeBit($0) }
            + [btnLeft, btnRight, btnMiddle, btnSide, btnExtra].map { .setKeyBit($0) }
            + KeyCodeTables.evdevCodes.map { .setKeyBit($0) }
            + [.setup(UInputSetup(name: name)), .create]
    }

    /// Declares and creates the device on `device`.
    package init(device: any UInputDevice, screen: ScreenGeometry,
                deviceName: String = "Remotion virtual pointer") throws(InjectionError) {
        self.device = device
        self.screen = screen
        do {
            for call in Self.setupSequence(name: deviceName) { try device.control(call) }
        } catch {
            device.close()
            throw error
        }
    }

    /// Opens /dev/uinput (or `path`); fails with the udev rule to fix permissions.
    package convenience init(path: String = UInputFileDevice.defaultPath, screen: ScreenGeometry) throws(InjectionError) {
        try self.init(device: try UInputFileDevice(path: path), screen: screen)
    }

    deinit { close() }

    package func screenGeometry() -> ScreenGeometry { screen }

    package func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {
        guard !isClosed else { throw InjectionError(.closed, backend: name, "posted after close()") }
        switch event {
        case .moveTo(let x, let y):
            let target = (x: min(max(x, 0), screen.width - 1), y: min(max(y, 0), screen.height - 1))
            if position == nil {
                relative(-(screen.width + screen.height), -(screen.width + screen.height))
                EvdevEvent.synReport.append(to: &pending)
                position = (0, 0)
            }
            relative(target.x - position!.x, target.y - position!.y)
            position = target
        case .moveBy(let dx, let dy):
            relative(dx, dy)
            if let p = position {
                position = (min(max(p.x + dx, 0), screen.width - 1), min(max(p.y + dy, 0), screen.height - 1))
            }
        case .button(let b, let down):
            emit(EvdevEvent.keyType, Self.code(for: b), down ? 1 : 0)
        case .key(let k, let down):
            guard let code = KeyCodeTables.evdev(k) else {
                throw InjectionError(.unsupported, backend: name,
                                     "key \(k.name) (keysym 0x\(String(k.keysym, radix: 16))) has no evdev key code")
            }
            emit(EvdevEvent.keyType, code, down ? 1 : 0)
        case .wheel(let dx, let dy):
            if dy != 0 { emit(EvdevEvent.relType, Self.relWheel, Int32(clamping: dy)) }
            if dx != 0 { emit(EvdevEvent.relType, Self.relHWheel, Int32(clamping: dx)) }
        }
    }

    /// Writes the frame (events + SYN_REPORT) in one write(); nothing if empty.
    package func flush() throws(InjectionError) {
        guard !isClosed else { throw InjectionError(.closed, backend: name, "flushed after close()") }
        guard !pending.isEmpty else { return }
        EvdevEvent.synReport.append(to: &pending)
        let frame = pending
        pending = []
        try device.write(frame)
    }

    /// Destroys the virtual device (UI_DEV_DESTROY) and closes the descriptor.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        try? device.control(.destroy)
        device.close()
    }

    static func code(for button: MouseButton) -> UInt16 {
        switch button {
        case .left: btnLeft
        case .right: btnRight
        case .middle: btnMiddle
        case .back: btnSide
        case .forward: btnExtra
        }
    }

    private func relative(_ dx: Int, _ dy: Int) {
        if dx != 0 { emit(EvdevEvent.relType, Self.relX, Int32(clamping: dx)) }
        if dy != 0 { emit(EvdevEvent.relType, Self.relY, Int32(clamping: dy)) }
    }

    private func emit(_ type: UInt16, _ code: UInt16, _ value: Int32) {
        EvdevEvent(type: type, code: code, value: value).append(to: &pending)
    }
}
#endif
