#if os(Linux)
import RemotionHostLogic
/// The uinput ioctls the backend issues (linux/uinput.h), as values so that a
/// stand-in device can record and check the exact set-up sequence.
package enum UInputIoctl: Hashable, Sendable {
    case setEventBit(UInt16)
    case setKeyBit(UInt16)
    case setRelativeBit(UInt16)
    case setAbsoluteBit(UInt16)
    case absSetup(UInputAbsSetup)
    case setup(UInputSetup)
    case create
    case destroy

    /// The ioctl request number (_IO/_IOW with type 'U').
    package var request: UInt {
        switch self {
        case .setEventBit: Self.iow(100, size: 4)           // UI_SET_EVBIT   0x40045564
        case .setKeyBit: Self.iow(101, size: 4)             // UI_SET_KEYBIT  0x40045565
        case .setRelativeBit: Self.iow(102, size: 4)        // UI_SET_RELBIT  0x40045566
        case .setAbsoluteBit: Self.iow(103, size: 4)        // UI_SET_ABSBIT  0x40045567
        case .absSetup: Self.iow(4, size: UInputAbsSetup.byteCount) // UI_ABS_SETUP 0x401c5504
        case .setup: Self.iow(3, size: UInputSetup.byteCount) // UI_DEV_SETUP 0x405c5503
        case .create: Self.io(1)                            // UI_DEV_CREATE  0x5501
        case .destroy: Self.io(2)                           // UI_DEV_DESTROY 0x5502
        }
    }

    private static let type: UInt = 0x55  // 'U'
    private static func io(_ nr: UInt) -> UInt { (type << 8) | nr }
    private static func iow(_ nr: UInt, size: Int) -> UInt { (1 << 30) | (UInt(size) << 16) | (type << 8) | nr }
}

/// struct uinput_setup { struct input_id id; char name[80]; __u32 ff_effects_max; }
package struct UInputSetup: Hashable, Sendable {
    package static let byteCount = 92
    package var busType: UInt16
    package var vendor: UInt16
    package var product: UInt16
    package var version: UInt16
    package var name: String

    package init(busType: UInt16 = 0x06 /* BUS_VIRTUAL */, vendor: UInt16 = 0x1d6b, product: UInt16 = 0x5254,
                version: UInt16 = 1, name: String) {
        self.busType = busType; self.vendor = vendor; self.product = product; self.version = version
        self.name = name
    }

    /// The struct's bytes (native byte order; the name is cut to 79 bytes + NUL).
    package var bytes: [UInt8] {
        var b: [UInt8] = []
        for v in [busType, vendor, product, version] { withUnsafeBytes(of: v) { b += $0 } }
        let nameBytes = Array(name.utf8.prefix(79))
        b += nameBytes + [UInt8](repeating: 0, count: 80 - nameBytes.count)
        b += [0, 0, 0, 0]  // ff_effects_max
        return b
    }
}

/// struct uinput_abs_setup { __u16 code; struct input_absinfo { __s32 value, minimum,
/// maximum, fuzz, flat, resolution; } } (2 bytes of padding after `code`).
package struct UInputAbsSetup: Hashable, Sendable {
    package static let byteCount = 28
    package var code: UInt16
    package var minimum: Int32
    package var maximum: Int32
    package var resolution: Int32

    package init(code: UInt16, minimum: Int32, maximum: Int32, resolution: Int32 = 0) {
        self.code = code; self.minimum = minimum; self.maximum = maximum; self.resolution = resolution
    }

    /// The struct's bytes (native byte order; value, fuzz and flat are 0).
    package var bytes: [UInt8] {
        var b: [UInt8] = []
        withUnsafeBytes(of: code) { b += $0 }
        b += [0, 0]
        for v in [0, minimum, maximum, 0, 0, resolution] as [Int32] { withUnsafeBytes(of: v) { b += $0 } }
        return b
    }
}

/// struct input_event on 64-bit Linux: timeval (16 bytes, zero: the kernel
/// stamps events), __u16 type, __u16 code, __s32 value = 24 bytes.
package struct EvdevEvent: Hashable, Sendable {
    package static let byteCount = 24
    package static let synType: UInt16 = 0, keyType: UInt16 = 1, relType: UInt16 = 2, absType: UInt16 = 3
    package var type: UInt16
    package var code: UInt16
    package var value: Int32

    package init(type: UInt16, code: UInt16, value: Int32) {
        self.type = type; self.code = code; self.value = value
    }

    package static let synReport = EvdevEvent(type: synType, code: 0, value: 0)

    package func append(to bytes: inout [UInt8]) {
        bytes += [UInt8](repeating: 0, count: 16)
        withUnsafeBytes(of: type) { bytes += $0 }
        withUnsafeBytes(of: code) { bytes += $0 }
        withUnsafeBytes(of: value) { bytes += $0 }
    }
}

/// The file-descriptor operations the backend needs, so that tests can stand
/// in for /dev/uinput (which this CI kernel does not have).
package protocol UInputDevice: AnyObject {
    func control(_ call: UInputIoctl) throws(InjectionError)
    /// Writes all `bytes` in one write(2) call.
    func write(_ bytes: [UInt8]) throws(InjectionError)
    func close()
}
#endif
