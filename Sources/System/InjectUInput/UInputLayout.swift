#if os(Linux)
import RemotionProtocol
import RemotionHostLogic

/// What the two uinput devices declare (linux/input-event-codes.h) and how a screen
/// position becomes an ABS value. Pure: the set-up sequences are values a stand-in device
/// records and a test compares.
package enum UInputLayout {
    static let btnLeft: UInt16 = 0x110, btnRight: UInt16 = 0x111, btnMiddle: UInt16 = 0x112
    static let btnSide: UInt16 = 0x113, btnExtra: UInt16 = 0x114
    static let buttons = [btnLeft, btnRight, btnMiddle, btnSide, btnExtra]
    static let relX: UInt16 = 0x00, relY: UInt16 = 0x01, relHWheel: UInt16 = 0x06, relWheel: UInt16 = 0x08
    static let relWheelHiRes: UInt16 = 0x0b, relHWheelHiRes: UInt16 = 0x0c
    static let absX: UInt16 = 0x00, absY: UInt16 = 0x01
    /// REL_WHEEL_HI_RES units per wheel step (a notch).
    static let hiResPerStep: Int32 = 120
    /// Most wheel steps written in one event (keeps the hi-res value far from overflow).
    static let maxWheelSteps = 1000

    /// The absolute axes' range: 0…absMaximum on both, as QEMU's USB tablet.
    package static let absMaximum: Int32 = 32767

    /// The ABS value of pixel `x` on a screen `extent` pixels wide: `x · 32768 / extent`,
    /// rounded, clamped to 0…32767. libinput (and compositors) map a value v to
    /// v / 32768 of the desktop, so the pixel's screen fraction x / extent is kept.
    package static func absoluteValue(_ x: Int, extent: Int) -> Int32 {
        guard extent > 0 else { return 0 }
        let range = Int64(absMaximum) + 1
        let inside = Int64(min(max(x, 0), extent))  // first, so the product cannot overflow
        let v = (inside * range + Int64(extent) / 2) / Int64(extent)
        return Int32(min(v, Int64(absMaximum)))
    }

    /// Both ABS values of a `moveTo` position on `screen`.
    package static func absolutePosition(x: Int, y: Int, on screen: ScreenGeometry) -> (Int32, Int32) {
        (absoluteValue(x, extent: screen.width), absoluteValue(y, extent: screen.height))
    }

    /// The tablet: EV_KEY (mouse buttons) and EV_ABS X/Y over 0…32767. udev classifies it
    /// ID_INPUT_MOUSE with absolute axes (a VM tablet); libinput gives absolute motion.
    package static func absoluteSetup(name: String) -> [UInputIoctl] {
        [.setEventBit(EvdevEvent.keyType), .setEventBit(EvdevEvent.absType)]
            + buttons.map { .setKeyBit($0) }
            + [absX, absY].flatMap { code -> [UInputIoctl] in
                [.setAbsoluteBit(code), .absSetup(UInputAbsSetup(code: code, minimum: 0, maximum: absMaximum))]
            }
            + [.setup(UInputSetup(product: 0x5255, name: name)), .create]
    }

    /// The mouse with keys: EV_KEY (buttons and keys), EV_REL X/Y and both wheels in low
    /// and high resolution.
    package static func relativeSetup(name: String) -> [UInputIoctl] {
        [.setEventBit(EvdevEvent.keyType), .setEventBit(EvdevEvent.relType)]
            + [relX, relY, relWheel, relHWheel, relWheelHiRes, relHWheelHiRes].map { .setRelativeBit($0) }
            + buttons.map { .setKeyBit($0) }
            + KeyCodeTables.evdevCodes.map { .setKeyBit($0) }
            + [.setup(UInputSetup(product: 0x5254, name: name)), .create]
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
}
#endif
