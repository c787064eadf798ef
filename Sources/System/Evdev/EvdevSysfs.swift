#if os(Linux)
import Foundation
import Glibc
import RemotionHostLogic

/// The evdev nodes as sysfs describes them (/sys/class/input/eventN/device/…): name, phys,
/// uniq, ids, properties and key capabilities, readable without opening the node, so
/// Remotion opens only motion sensors and their gamepads, and can name a node it may not read.
package enum EvdevSysfs {
    package static let devDirectory = "/dev/input"
    static let classDirectory = "/sys/class/input"

    /// Every event node present now, by its name ("event4").
    static func nodesByName() -> [String: EvdevNodeInfo] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: classDirectory)) ?? []
        var out: [String: EvdevNodeInfo] = [:]
        for name in names where name.hasPrefix("event") { out[name] = node(name) }
        return out
    }

    static func node(_ event: String) -> EvdevNodeInfo? {
        let base = "\(classDirectory)/\(event)/device"
        guard let name = text("\(base)/name") else { return nil }
        let properties = bitmap(text("\(base)/properties") ?? "")
        let keys = bitmap(text("\(base)/capabilities/key") ?? "")
        return EvdevNodeInfo(path: "\(devDirectory)/\(event)", name: name, phys: text("\(base)/phys") ?? "",
                             uniq: text("\(base)/uniq") ?? "",
                             vendor: UInt16(text("\(base)/id/vendor") ?? "", radix: 16) ?? 0,
                             product: UInt16(text("\(base)/id/product") ?? "", radix: 16) ?? 0,
                             parent: resolved("\(base)/device") ?? "",
                             isMotion: properties.contains(EvdevCode.propAccelerometer),
                             isGamepad: keys.contains(Int(EvdevCode.btnSouth)))
    }

    /// A sysfs attribute without its trailing newline.
    static func text(_ path: String) -> String? {
        guard let s = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        return s.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A sysfs bitmap ("120013 0 0 …": unsigned longs in hex, the highest first) as set bits.
    package static func bitmap(_ text: String) -> Set<Int> {
        var out: Set<Int> = []
        for (i, word) in text.split(separator: " ").reversed().enumerated() {
            guard let w = UInt64(word, radix: 16) else { continue }
            for bit in 0..<64 where w & (1 << UInt64(bit)) != 0 { out.insert(i * 64 + bit) }
        }
        return out
    }

    static func resolved(_ path: String) -> String? {
        guard let p = realpath(path, nil) else { return nil }
        defer { free(p) }
        return String(cString: p)
    }

    /// The group that owns `path` (for the one-line permission fix), nil if unknown or root.
    /// getgrgid_r with a buffer of its own: the pads' reader thread asks this beside the
    /// host's other threads, and getgrgid's result is one static buffer for the process.
    package static func group(of path: String) -> String? {
        var st = stat()
        guard stat(path, &st) == 0, st.st_gid != 0 else { return nil }
        var entry = Glibc.group()
        var found: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 4096)
        return buffer.withUnsafeMutableBufferPointer { b -> String? in
            guard getgrgid_r(st.st_gid, &entry, b.baseAddress, b.count, &found) == 0, found != nil,
                  let name = entry.gr_name else { return nil }
            return String(cString: name)
        }
    }
}
#endif
