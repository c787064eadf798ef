#if os(Linux)
import Glibc
import RemotionHostLogic

/// Force feedback on a pad's gamepad node (linux/input.h; docs/LOCAL-PADS.md "Rumble"): the
/// effect's bytes come from `LocalPadRumble`, this does the ioctl and the write.
extension EvdevDevice {
    /// EVIOCGBIT(EV_FF): whether the node takes FF_RUMBLE.
    package var canRumble: Bool {
        var bits = [UInt8](repeating: 0, count: 16)   // FF_MAX 0x7f
        let r = bits.withUnsafeMutableBytes {
            ioctl(fd, Self.ioctlR(0x20 + UInt(LocalPadRumble.evFF), size: 16), $0.baseAddress!)
        }
        let bit = Int(LocalPadRumble.ffRumble)
        return r >= 0 && bits[bit / 8] & (1 << (bit % 8)) != 0
    }

    /// Uploads `rumble` as effect `id` (−1: a new one) and plays it once (or stops it when it
    /// is off). Returns the effect's id, or why not.
    package func play(_ rumble: LocalPadRumble, effect id: Int16) -> Result<Int16, EvdevError> {
        var effect = id
        if !rumble.isOff || id < 0 {
            var bytes = rumble.effectBytes(id: id)
            let r = bytes.withUnsafeMutableBytes {
                ioctl(fd, Self.ioctlW(0x80, size: UInt(LocalPadRumble.effectSize)), $0.baseAddress!)   // EVIOCSFF
            }
            guard r >= 0 else { return .failure(EvdevError("cannot upload a rumble to", path: path, code: errno)) }
            effect = LocalPadRumble.effectID(in: bytes)
        }
        let event = LocalPadRumble.playEvent(id: effect, count: rumble.isOff ? 0 : 1)
        let n = event.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == event.count else { return .failure(EvdevError("cannot play a rumble on", path: path, code: errno)) }
        return .success(effect)
    }
}
#endif
