#if os(Linux)
import Foundation
import Glibc
import RemotionHostLogic

/// Reads what `DualSenseDriverFacts` decides on: the running kernel's release, whether the
/// playstation HID driver is registered, and its module file or built-in entry.
package enum UHIDDriverProbe {
    package static func facts(sysfs: String = "/sys", modules: String = "/lib/modules") -> DualSenseDriverFacts {
        var name = utsname()
        uname(&name)
        let release = withUnsafeBytes(of: &name.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let fm = FileManager.default
        let registered = fm.fileExists(atPath: sysfs + "/bus/hid/drivers/playstation")
        let folder = "\(modules)/\(release)/kernel/drivers/hid"
        let moduleFile = DualSenseDriverFacts.moduleNames.map { "\(folder)/\($0)" }.first { fm.fileExists(atPath: $0) }
        let builtin = (try? String(contentsOfFile: "\(modules)/\(release)/modules.builtin", encoding: .utf8))
            .map(DualSenseDriverFacts.isBuiltIn(modulesBuiltin:)) ?? false
        return DualSenseDriverFacts(release: release, registered: registered, moduleFile: moduleFile, builtIn: builtin)
    }
}
#endif
