/// What the adapter learns of one /dev/input/event* node from sysfs, before opening it
/// (so a keyboard is never opened, and a node it may not read is still named).
package struct EvdevNodeInfo: Hashable, Sendable {
    package var path: String              // /dev/input/event7
    package var name: String              // "DualSense Wireless Controller Motion Sensors"
    package var phys: String
    package var uniq: String              // the pad's MAC (hid-playstation, hid-nintendo), serial (hid-steam)
    package var vendor: UInt16
    package var product: UInt16
    /// The device the input device hangs off (sysfs, resolved): the HID device for all three drivers.
    package var parent: String
    /// INPUT_PROP_ACCELEROMETER.
    package var isMotion: Bool
    /// Has BTN_SOUTH: a gamepad, not the touchpad or the motion node.
    package var isGamepad: Bool

    /// `name`, `phys` and `uniq` are the device's own words (a USB or Bluetooth device names
    /// itself): kept without control characters (`TextFormat.sanitize`), as every line that
    /// shows them prints them.
    package init(path: String, name: String, phys: String = "", uniq: String = "", vendor: UInt16 = 0, product: UInt16 = 0,
                 parent: String = "", isMotion: Bool = false, isGamepad: Bool = false) {
        self.path = path; self.name = TextFormat.sanitize(name); self.phys = TextFormat.sanitize(phys)
        self.uniq = TextFormat.sanitize(uniq)
        self.vendor = vendor; self.product = product; self.parent = parent
        self.isMotion = isMotion; self.isGamepad = isGamepad
    }
}

/// Which nodes make which pads (sans-IO): each motion node with the gamepad node of the same
/// pad (same non-empty `uniq`, else the same parent device), Remotion's own virtual pads left out.
package enum LocalPadNodes {
    /// One pad to read: its motion node and, when present, its gamepad node.
    package struct Plan: Hashable, Sendable {
        package var motion: EvdevNodeInfo
        package var controls: EvdevNodeInfo?
        package var driver: LocalPadDriver
    }

    /// Remotion's own virtual DualSense (`--gamepad dualsense`, `gamepad-probe`): its HID
    /// device is named "Remotion virtual DualSense" and its phys is "remotion/<MAC>"
    /// (`DualSensePad.create`), and hid-playstation copies both onto every node ("… Motion
    /// Sensors"). Reading it back would feed each controller's motion into itself.
    package static func isRemotionsOwn(_ node: EvdevNodeInfo) -> Bool {
        node.phys.hasPrefix("remotion/") || node.name.hasPrefix("Remotion virtual")
    }

    /// Why a motion node is not read (nil: it is), in the words the log uses.
    package static func skipReason(_ node: EvdevNodeInfo) -> String? {
        if isRemotionsOwn(node) { return "Remotion's own virtual pad" }
        if LocalPadDriver(vendor: node.vendor) == nil {
            return "no known axis convention for vendor \(hex(node.vendor)) (hid-playstation, hid-sony, hid-nintendo, hid-steam are known)"
        }
        return nil
    }

    /// The pads among `nodes`, in path order; motion nodes skipped for `skipReason` are left out.
    package static func plans(_ nodes: [EvdevNodeInfo]) -> [Plan] {
        let pads = nodes.filter { $0.isGamepad && !$0.isMotion }
        return nodes.filter(\.isMotion).sorted { $0.path < $1.path }.compactMap { m in
            guard skipReason(m) == nil, let driver = LocalPadDriver(vendor: m.vendor) else { return nil }
            let byUniq = m.uniq.isEmpty ? nil : pads.first { $0.uniq == m.uniq }
            let byParent = m.parent.isEmpty ? nil : pads.first { $0.parent == m.parent }
            return Plan(motion: m, controls: byUniq ?? byParent, driver: driver)
        }
    }

    /// The controller's name: the device's name without " Motion Sensors" (hid-playstation,
    /// hid-sony) or hid-nintendo's " IMU" ("Nintendo Switch Left Joy-Con IMU (Grip)" is the
    /// "Nintendo Switch Left Joy-Con (Grip)"; 6.12's hid-nintendo says " (IMU)" after the
    /// device's own name, "Nintendo Co., Ltd. Pro Controller (IMU)" over USB), then its uniq.
    package static func displayName(_ motion: EvdevNodeInfo) -> String {
        var name = motion.name
        for suffix in [" Motion Sensors", " (IMU)", " IMU"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        if name.hasSuffix(" IMU (Grip)") { name.removeLast(" IMU (Grip)".count); name += " (Grip)" }
        if name.isEmpty { name = motion.path }
        return motion.uniq.isEmpty ? name : "\(name) (\(motion.uniq))"
    }

    /// One line for a node this user may not read: which node, and the group or rule that fixes it.
    package static func accessProblem(_ node: EvdevNodeInfo, group: String?) -> String {
        let owner = group.map { " (group \($0))" } ?? ""
        return "local pads: cannot read \(node.path)\(owner), \(displayName(node))'s motion sensors: \(accessFix(group: group))"
    }

    /// What lets this user read a pad's nodes: the group, or Remotion's udev rule.
    package static func accessFix(group: String?) -> String {
        let join = group.map { "add yourself to the group: sudo usermod -aG \($0) $USER and log in again, or " } ?? ""
        return "\(join)install Remotion's udev rule (its local-pads line gives the seat's user TAG+=\"uaccess\" "
            + "on motion-sensor nodes: docs/LOCAL-PADS.md)"
    }

    static func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
