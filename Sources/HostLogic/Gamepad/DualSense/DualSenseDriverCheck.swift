/// Whether this kernel can drive a virtual DualSense: the pad made through /dev/uhid is only
/// a HID device until the kernel's hid-playstation driver (Linux 5.12 and later,
/// CONFIG_HID_PLAYSTATION) binds it and makes its gamepad, motion and touchpad nodes. The
/// facts are read by the OS adapter (`UHIDDualSense.driverFacts`); the decision is here.
package struct DualSenseDriverFacts: Hashable, Sendable {
    /// `uname -r`.
    package var release: String
    /// /sys/bus/hid/drivers/playstation exists: the driver is loaded or built in.
    package var registered: Bool
    /// A hid-playstation module file under /lib/modules/<release> (udev loads it when the pad appears).
    package var moduleFile: String?
    /// /lib/modules/<release>/modules.builtin names it.
    package var builtIn: Bool

    package init(release: String, registered: Bool, moduleFile: String? = nil, builtIn: Bool = false) {
        self.release = release
        self.registered = registered
        self.moduleFile = moduleFile
        self.builtIn = builtIn
    }

    /// Nil when the pad will get its driver; else one line that says what is missing and the fix.
    package var problem: String? {
        if registered || builtIn || moduleFile != nil { return nil }
        return "this kernel (\(release)) has no hid-playstation driver (not loaded, not built in, no module under "
            + "/lib/modules/\(release)), so a virtual DualSense would get no gamepad node: install the kernel's modules "
            + "(Debian: linux-image-\(release)) and run sudo modprobe hid-playstation, or use a kernel with "
            + "CONFIG_HID_PLAYSTATION (Linux 5.12 or later)"
    }

    /// The module's file names (compressed or not) as kernels install them.
    package static let moduleNames = ["hid-playstation.ko", "hid-playstation.ko.xz", "hid-playstation.ko.zst", "hid-playstation.ko.gz"]

    /// modules.builtin lists built-in drivers by path (kernel/drivers/hid/hid-playstation.ko).
    package static func isBuiltIn(modulesBuiltin: String) -> Bool {
        modulesBuiltin.split(separator: "\n").contains { $0.hasSuffix("/hid-playstation.ko") }
    }
}
