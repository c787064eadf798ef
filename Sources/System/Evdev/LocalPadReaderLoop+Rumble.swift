#if os(Linux)
import Glibc
import RemotionHostLogic

extension LocalPadReaderLoop {
    /// Plays the rumbles other threads posted (`LocalPadWatcher.rumble`) on each pad's gamepad
    /// node, on this thread, which owns the nodes. A pad without one that takes FF_RUMBLE, or
    /// one it may not write, is said once and skipped; the rumble of a pad gone is dropped.
    mutating func playRumbles() {
        for (key, rumble) in mailbox.takeRumbles() {
            guard var p = pads[key] else { continue }
            guard let controls = p.controls else {
                say("local pads: \(key) has no gamepad node, so a game's rumble cannot reach it")
                continue
            }
            guard controls.isWritable else {
                say("local pads: cannot rumble \(controls.path): it is not writable for this user (the input group's udev rule gives read and write)")
                continue
            }
            guard p.controlsRumble else {
                say("local pads: \(controls.path) takes no rumble (its driver has no FF_RUMBLE)")
                continue
            }
            switch controls.play(rumble, effect: p.rumbleEffect) {
            case .success(let id):
                p.rumbleEffect = id
                pads[key] = p
            case .failure(let error):
                say("local pads: \(error)")
            }
        }
    }
}
#endif
