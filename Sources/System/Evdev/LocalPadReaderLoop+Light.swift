#if os(Linux)
import Foundation
import Glibc
import RemotionHostLogic

/// A game's light colour on a pad's LEDs (docs/LOCAL-PADS.md "Light"): `LocalPadLight` says
/// what to write where; this finds the LED class devices and writes their attributes.
extension EvdevSysfs {
    /// The RGB light of the pad whose event node is `node` (/dev/input/eventN): the LED class
    /// devices under its HID device (/sys/class/input/eventN/device/device/leds/…, where
    /// every driver here puts them), resolved now: a node's name is reused by the next pad.
    static func light(ofNode node: String) -> LocalPadLight? {
        let event = node.split(separator: "/").last.map(String.init) ?? ""
        guard event.hasPrefix("event"), let hid = resolved("\(classDirectory)/\(event)/device/device") else { return nil }
        let leds = "\(hid)/leds"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: leds)) ?? []
        return LocalPadLight.layout(leds: leds, names: names, read: text).map(LocalPadLight.init)
    }

    /// Writes one sysfs attribute; nil when it took it, else the errno.
    static func write(_ w: LocalPadLight.Write) -> Int32? {
        let fd = Glibc.open(w.path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { Glibc.close(fd) }
        let bytes = Array(w.text.utf8)
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        return n == bytes.count ? nil : (n < 0 ? errno : EIO)
    }
}

extension LocalPadReaderLoop {
    /// Shows the colours other threads posted (`LocalPadWatcher.light`) on each pad's LEDs, on
    /// this thread, which owns the pads: only a colour that changed is written. A write this
    /// user may not make is said once per pad (with the fix) and counted (`light-denied`); the
    /// pad is read on as before.
    mutating func showLights() {
        for (key, colour) in mailbox.takeLights() {
            guard var p = pads[key] else { continue }
            if !p.lightLooked {
                p.lightLooked = true
                p.light = EvdevSysfs.light(ofNode: p.motion.path)
                pads[key] = p
            }
            guard var light = p.light else {
                say("local pads: \(p.name) has no RGB light Remotion knows (its driver makes none), so a game's colour cannot reach it")
                continue
            }
            for write in light.writes(for: colour) {
                guard let code = EvdevSysfs.write(write) else { continue }
                if code == EACCES || code == EPERM {
                    if light.noteRefused() { notify(.say(LocalPadLight.refusal(pad: p.name, path: write.path))) }
                } else if code != ENOENT && code != ENODEV {   // a pad going away: its close says so
                    say("local pads: cannot set the light of \(p.name): \(write.path): \(String(cString: strerror(code)))")
                }
                break
            }
            p.light = light
            pads[key] = p
        }
    }
}
#endif
