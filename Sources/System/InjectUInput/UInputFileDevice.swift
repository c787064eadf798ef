#if os(Linux)
import Glibc
import RemotionHostLogic

/// The real /dev/uinput.
package final class UInputFileDevice: UInputDevice {
    package static let defaultPath = "/dev/uinput"

    /// The udev rule that gives the active local session access to uinput (uaccess;
    /// also in docs/INJECTION.md and scripts/install.sh).
    package static let udevRule = UInputAdvice.udevRule

    private var fd: Int32
    package let path: String

    package init(path: String = UInputFileDevice.defaultPath) throws(InjectionError) {
        let fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            throw InjectionError(.unavailable, backend: "uinput", Self.openFailureMessage(errno: errno, path: path))
        }
        self.fd = fd
        self.path = path
    }

    deinit { close() }

    /// Whether `path` exists and this process may open it for writing (for `--inject auto`).
    package static func isWritable(path: String = UInputFileDevice.defaultPath) -> Bool {
        access(path, W_OK) == 0
    }

    /// What went wrong opening uinput and how to fix it.
    package static func openFailureMessage(errno code: Int32, path: String) -> String {
        switch code {
        case ENOENT, ENODEV, ENXIO:
            return "\(path) does not exist: " + UInputAdvice.remedy(.missing)
                + " (kernels built without CONFIG_INPUT_UINPUT cannot use this backend; on X11 use --inject xtest)"
        case EACCES, EPERM, EROFS:
            return "\(path) is not writable by this user: " + UInputAdvice.remedy(.notWritable)
        default:
            return "cannot open \(path): \(String(cString: strerror(code)))"
        }
    }

    package func control(_ call: UInputIoctl) throws(InjectionError) {
        guard fd >= 0 else { throw InjectionError(.closed, backend: "uinput", "device is closed") }
        let result: Int32
        switch call {
        case .setEventBit(let bit), .setKeyBit(let bit), .setRelativeBit(let bit), .setAbsoluteBit(let bit):
            result = ioctl(fd, call.request, CInt(bit))
        case .setup(let setup):
            var bytes = setup.bytes
            result = bytes.withUnsafeMutableBytes { ioctl(fd, call.request, $0.baseAddress!) }
        case .absSetup(let setup):
            var bytes = setup.bytes
            result = bytes.withUnsafeMutableBytes { ioctl(fd, call.request, $0.baseAddress!) }
        case .create, .destroy:
            result = ioctl(fd, call.request)
        }
        guard result >= 0 else {
            throw InjectionError(.failed, backend: "uinput", "ioctl \(call) failed: \(String(cString: strerror(errno)))")
        }
    }

    package func write(_ bytes: [UInt8]) throws(InjectionError) {
        guard fd >= 0 else { throw InjectionError(.closed, backend: "uinput", "device is closed") }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            let why = written < 0 ? String(cString: strerror(errno)) : "short write \(written) of \(bytes.count) bytes"
            throw InjectionError(.failed, backend: "uinput", "write to \(path) failed: \(why)")
        }
    }

    package func close() {
        guard fd >= 0 else { return }
        _ = Glibc.close(fd)
        fd = -1
    }
}
#endif
