import RemotionProtocol

/// A game's rumble back to a gamepad on this computer, as the kernel's force feedback takes
/// it (linux/input.h): one FF_RUMBLE effect per pad, uploaded with EVIOCSFF (again, under
/// the id the kernel gave, when the rumble changes) and played by writing an EV_FF event to
/// the pad's gamepad node. Sans-IO: the adapter (the local-pads reader thread) does the
/// ioctl and the write with the bytes made here.
///
/// Each upload lasts `length` — longer than the host's refresh of a running rumble
/// (`FeedbackPacer.refreshInterval`, 500 ms) so a steady rumble does not gap, short enough
/// that a pad stops by itself soon after the host stopped sending (a host that died, a
/// session that ended without a last "off").
package struct LocalPadRumble: Sendable, Equatable {
    /// How long one upload plays.
    package static let length: Duration = .milliseconds(1_000)

    /// The motors as the kernel scales them: 0…0xFFFF (a DualSense's driver keeps the top byte).
    package var strong: UInt16
    package var weak: UInt16

    /// The controller's feedback as motor strengths (0…255 → 0…0xFFFF, 255 → 0xFFFF exactly).
    package init(_ feedback: ControllerFeedback) {
        strong = UInt16(feedback.rumbleLow) &* 257
        weak = UInt16(feedback.rumbleHigh) &* 257
    }

    package init(strong: UInt16, weak: UInt16) { self.strong = strong; self.weak = weak }

    package var isOff: Bool { strong == 0 && weak == 0 }

    /// FF_RUMBLE (linux/input.h), EV_FF.
    package static let ffRumble: UInt16 = 0x50
    package static let evFF: UInt16 = 0x15
    /// `struct ff_effect`'s size on a 64-bit kernel (its union holds a pointer: 8-aligned).
    package static let effectSize = 48

    /// `struct ff_effect` for EVIOCSFF: type FF_RUMBLE, `id` (−1: a new effect, the kernel
    /// writes the one it gives back into these bytes), replay length in ms, the two motors.
    package func effectBytes(id: Int16) -> [UInt8] {
        var b = [UInt8](repeating: 0, count: Self.effectSize)
        func put(_ v: UInt16, at i: Int) { b[i] = UInt8(v & 0xFF); b[i + 1] = UInt8(v >> 8) }
        put(Self.ffRumble, at: 0)
        put(UInt16(bitPattern: id), at: 2)
        put(UInt16(clamping: Self.length.nanoseconds / 1_000_000), at: 10)         // ff_replay.length; .delay 0
        put(strong, at: 16)                       // the union: ff_rumble_effect
        put(weak, at: 18)
        return b
    }

    /// The effect id the kernel wrote back into `effectBytes` after EVIOCSFF.
    package static func effectID(in bytes: [UInt8]) -> Int16 {
        guard bytes.count >= 4 else { return -1 }
        return Int16(bitPattern: UInt16(bytes[2]) | UInt16(bytes[3]) << 8)
    }

    /// The `struct input_event` that plays (`count` 1) or stops (0) effect `id`.
    package static func playEvent(id: Int16, count: Int32) -> [UInt8] {
        EvdevInputEvent(type: evFF, code: UInt16(bitPattern: id), value: count).bytes
    }
}
