#if os(Linux)
import Glibc
import RemotionHostLogic

extension LocalPadReaderLoop {
    /// IN_CREATE, IN_DELETE, IN_ATTRIB (udev set the permissions), IN_MOVED_TO.
    static let inotifyMask: UInt32 = 0x100 | 0x200 | 0x004 | 0x080

    /// Empties the inotify queue: the names in /dev/input that changed, or nil when everything
    /// must be looked at again (the /dev watch fired, the queue overflowed: `InotifyNames`).
    mutating func drainInotify() -> Set<String>? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var names: Set<String>? = watchingInput ? [] : nil
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(inotify, $0.baseAddress, $0.count) }
            guard n > 0 else { break }
            let got = buffer.withUnsafeBytes { InotifyNames.parse(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            if let got, names != nil { names?.formUnion(got) } else { names = nil }
        }
        return names
    }

    /// Compares the nodes present with the pads open: opens new pads, attaches gamepad nodes
    /// that appeared, closes pads whose motion node is gone. `changed`: the event nodes to
    /// read again from sysfs (the others as last read), nil for all of them. Reading every
    /// node's sysfs took the reader 0.5–1.2 s in a loaded guest, while the open pads' frames
    /// waited in the kernel; a node plugged in costs only its own.
    mutating func rescan(changed: Set<String>? = nil) {
        if inotify >= 0, !watchingInput {
            // /dev/input appears with the first input device; until then /dev is watched for it.
            watchingInput = inotify_add_watch(inotify, EvdevSysfs.devDirectory, Self.inotifyMask) >= 0
            if !watchingInput { _ = inotify_add_watch(inotify, "/dev", 0x100) }
        }
        if let changed {
            // A node whose /dev entry is gone is forgotten, not read: the kernel removes the
            // entry before the node's sysfs directory, so reading it then cached the unplugged
            // pad's name, uniq and parent under a name the next pad reuses, and the next pad
            // opened with the old one's identity (seen in the guest: a second DualSense read
            // as the first, its calibration key the first's).
            for name in changed where name.hasPrefix("event") {
                known[name] = access("\(EvdevSysfs.devDirectory)/\(name)", F_OK) == 0 ? EvdevSysfs.node(name) : nil
            }
        } else {
            known = EvdevSysfs.nodesByName()
        }
        let nodes = known.keys.sorted().compactMap { known[$0] }
        skipped = []
        for node in nodes where node.isMotion {
            if let why = LocalPadNodes.skipReason(node) {
                say("local pads: not reading \(node.path), \(node.name): \(why)")
                skipped.append(.init(node: node.path, name: node.name, reason: why))
            }
        }
        defer { publishInventory() }
        let plans = LocalPadNodes.plans(nodes)
        let planned = Set(plans.map(\.motion.path))
        for key in pads.keys.sorted() where !planned.contains(key) { close(key, why: "unplugged") }
        for plan in plans {
            if pads[plan.motion.path] == nil { open(plan) }
            if let controls = plan.controls, var p = pads[plan.motion.path], p.controls == nil {
                guard let device = openNode(controls, writable: true) else { continue }   // rumble writes to it
                let events = p.pad.attachControls(axes: device.absInfos(EvdevCode.padAxes), pressed: device.pressedKeys())
                p.controls = device
                p.controlsRumble = device.canRumble
                pads[plan.motion.path] = p
                if !events.isEmpty { notify(.events(key: plan.motion.path, events)) }
            }
        }
    }

    private mutating func open(_ plan: LocalPadNodes.Plan) {
        guard let device = openNode(plan.motion) else { return }
        do {
            let pad = try LocalPad(driver: plan.driver, motionAxes: device.absInfos(EvdevCode.motionAxes))
            let name = LocalPadNodes.displayName(plan.motion)
            pads[plan.motion.path] = OpenPad(pad: pad, motion: device, name: name, driver: plan.driver.rawValue)
            notify(.opened(key: plan.motion.path, name: name, uniq: plan.motion.uniq))
            // Said every time (a pad plugged in again is read again).
            notify(.say("local pads: reading \(name) from \(plan.motion.path) "
                + "(\(plan.driver.rawValue) axes\(config.grab ? ", grabbed" : ""))"))
        } catch {
            device.close()
            say("local pads: not reading \(plan.motion.path), \(plan.motion.name): it \(error)")
            skipped.append(.init(node: plan.motion.path, name: plan.motion.name, reason: "it \(error)"))
        }
    }

    /// Opens a node (and grabs it when asked); says once why not.
    private mutating func openNode(_ node: EvdevNodeInfo, writable: Bool = false) -> EvdevDevice? {
        do {
            let device = try EvdevDevice(path: node.path, writable: writable)
            if config.grab, let why = device.grab() {
                say("local pads: cannot grab \(node.path) (\(why)): another program grabbed it; reading it shared")
            }
            return device
        } catch {
            if error.isPermission {
                let group = EvdevSysfs.group(of: node.path)
                say(LocalPadNodes.accessProblem(node, group: group))
                if node.isMotion {
                    skipped.append(.init(node: node.path, name: node.name,
                                         reason: "this user may not read it: \(LocalPadNodes.accessFix(group: group))"))
                }
            } else if error.code != ENOENT && error.code != ENODEV {
                say("local pads: \(error)")
            }
            return nil
        }
    }
}
#endif
