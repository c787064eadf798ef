import Testing
import RemotionProtocol
@testable import RemotionHostLogic

/// A game's rumble as the kernel's force feedback takes it (`LocalPadRumble`): the bytes of
/// `struct ff_effect` and of the EV_FF event, checked field by field against linux/input.h's
/// layout on a 64-bit kernel. The ioctl itself runs in the local-pads guest stage
/// (hid-playstation plays it on the owned pad: scripts/localpads-guest-test.sh).
@Suite struct LocalPadRumbleTests {
    @Test func theControllersBytesBecomeTheKernelsFullRange() {
        let full = LocalPadRumble(ControllerFeedback(rumbleLow: 255, rumbleHigh: 128))
        #expect(full.strong == 0xFFFF && full.weak == 0x8080)
        // hid-playstation keeps the top byte: 255 and 128 come out as they went in.
        #expect(full.strong >> 8 == 255 && full.weak >> 8 == 128)
        #expect(LocalPadRumble(ControllerFeedback()).isOff && !full.isOff)
    }

    @Test func theEffectIsAnFFRumbleOfOneSecondWithBothMotors() {
        let bytes = LocalPadRumble(strong: 0x1234, weak: 0xABCD).effectBytes(id: -1)
        func u16(_ i: Int) -> UInt16 { UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8 }
        #expect(bytes.count == 48)
        #expect(u16(0) == 0x50)                     // type FF_RUMBLE
        #expect(Int16(bitPattern: u16(2)) == -1)    // id: a new effect
        #expect(u16(4) == 0 && u16(6) == 0 && u16(8) == 0)   // direction, trigger
        #expect(u16(10) == 1_000 && u16(12) == 0)   // replay: 1 s, no delay
        #expect(u16(16) == 0x1234 && u16(18) == 0xABCD)      // the union: strong, weak
        #expect(bytes[20...].allSatisfy { $0 == 0 })
        // The kernel writes the id it gave back into the same bytes.
        var answered = bytes
        answered[2] = 7; answered[3] = 0
        #expect(LocalPadRumble.effectID(in: answered) == 7)
        #expect(LocalPadRumble.effectID(in: []) == -1)
    }

    /// It outlasts the host's refresh of a running rumble, so a steady one never gaps.
    @Test func oneUploadOutlastsTheRefresh() {
        #expect(LocalPadRumble.length > FeedbackPacer.refreshInterval)
    }

    @Test func playAndStopAreEVFFEventsForTheEffect() {
        let play = EvdevInputEvent.decode(LocalPadRumble.playEvent(id: 3, count: 1))
        #expect(play == [EvdevInputEvent(type: 0x15, code: 3, value: 1)])
        let stop = EvdevInputEvent.decode(LocalPadRumble.playEvent(id: 3, count: 0))
        #expect(stop == [EvdevInputEvent(type: 0x15, code: 3, value: 0)])
        let timed = EvdevInputEvent(timeMicros: 12_345_678, type: 1, code: 2, value: -3)
        #expect(EvdevInputEvent.decode(timed.bytes) == [timed])
    }
}
