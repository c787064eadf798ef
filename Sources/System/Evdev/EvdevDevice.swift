#if os(Linux)
import Glibc
import RemotionHostLogic

/// Why an evdev node could not be opened or read; `code` is errno.
package struct EvdevError: Error, Sendable, CustomStringConvertible {
    package let code: Int32
    package let description: String
    package var isPermission: Bool { code == EACCES || code == EPERM }
    init(_ what: String, path: String, code: Int32) {
        self.code = code
        description = "\(what) \(path): \(String(cString: strerror(code)))"
    }
}

/// One open /dev/input/event* node (linux/input.h's ioctls), non-blocking. Owned by one
/// thread (the local-pads reader): no locking.
package final class EvdevDevice {
    package let path: String
    package private(set) var fd: Int32

    /// Whether it was opened read-write (force feedback is played by writing to the node).
    package let isWritable: Bool

    /// Opens non-blocking, read-only — or read-write when `writable` and allowed, read-only
    /// otherwise — and asks for CLOCK_MONOTONIC event times (the host's clock).
    package init(path: String, writable: Bool = false) throws(EvdevError) {
        var fd = writable ? open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) : -1
        isWritable = fd >= 0
        if fd < 0 { fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw EvdevError("cannot open", path: path, code: errno) }
        self.path = path
        self.fd = fd
        var clock = CInt(CLOCK_MONOTONIC)
        _ = withUnsafeMutablePointer(to: &clock) { ioctl(fd, Self.ioctlW(0xA0, size: 4), $0) }   // EVIOCSCLOCKID
    }

    deinit { close() }

    package func close() {
        guard fd >= 0 else { return }
        Glibc.close(fd)
        fd = -1
    }

    /// EVIOCGABS(code): the axis's value, range and resolution; nil when the node lacks it.
    package func absInfo(_ code: UInt16) -> EvdevAbsInfo? {
        var bytes = [UInt8](repeating: 0, count: 24)
        let r = bytes.withUnsafeMutableBytes { ioctl(fd, Self.ioctlR(0x40 + UInt(code), size: 24), $0.baseAddress!) }
        return r < 0 ? nil : EvdevAbsInfo(bytes: bytes)
    }

    /// EVIOCGABS for each of `codes` the node has.
    package func absInfos(_ codes: [UInt16]) -> [UInt16: EvdevAbsInfo] {
        var out: [UInt16: EvdevAbsInfo] = [:]
        for c in codes { if let a = absInfo(c) { out[c] = a } }
        return out
    }

    /// EVIOCGKEY: the key codes down now.
    package func pressedKeys() -> Set<UInt16> {
        var bits = [UInt8](repeating: 0, count: 96)   // KEY_MAX 0x2ff
        let r = bits.withUnsafeMutableBytes { ioctl(fd, Self.ioctlR(0x18, size: 96), $0.baseAddress!) }
        guard r >= 0 else { return [] }
        var out: Set<UInt16> = []
        for (i, byte) in bits.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 { out.insert(UInt16(i * 8 + bit)) }
        }
        return out
    }

    /// EVIOCGRAB: only this descriptor receives the node's events (nil: done), else why not.
    package func grab() -> String? {
        if ioctl(fd, Self.ioctlW(0x90, size: 4), 1) < 0 { return String(cString: strerror(errno)) }
        isGrabbed = true
        return nil
    }

    /// Whether `grab` took the node.
    package private(set) var isGrabbed = false

    /// What one read gave.
    package enum ReadResult {
        case events([EvdevInputEvent], partial: Bool)
        /// Nothing more to read now.
        case empty
        /// The device is gone (ENODEV) or the read failed.
        case gone(String)
    }

    /// Reads what is queued (up to 64 events).
    package func read() -> ReadResult {
        var buffer = [UInt8](repeating: 0, count: 64 * EvdevInputEvent.byteCount)
        let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            let code = errno
            if code == EAGAIN || code == EINTR { return .empty }
            return .gone(String(cString: strerror(code)))
        }
        if n == 0 { return .gone("end of file") }
        return .events(EvdevInputEvent.decode(buffer[0..<n]), partial: n % EvdevInputEvent.byteCount != 0)
    }

    static func ioctlR(_ nr: UInt, size: UInt) -> UInt { (2 << 30) | (size << 16) | (0x45 << 8) | nr }
    static func ioctlW(_ nr: UInt, size: UInt) -> UInt { (1 << 30) | (size << 16) | (0x45 << 8) | nr }
}
#endif
