import RemotionHostLogic
import Testing

/// The wlroots injector's own keymap: a key per keysym, reused, evicted longest-unused
/// first, never while held; the XKB text names each.
@Suite struct VirtualKeymapTests {
    @Test func aKeysymKeepsItsKeyAndANewOneAsksForAnUpload() {
        var map = VirtualKeymap()
        #expect(map.code(for: 0x1000e9) == 1)       // é: XKB keycode 9, evdev 1
        #expect(map.needsUpload)
        map.markUploaded()
        #expect(map.code(for: 0x1000e9) == 1)
        #expect(!map.needsUpload, "a keysym already on a key needs no new keymap")
        #expect(map.code(for: 0x61) == 2)
        #expect(map.needsUpload)
    }

    @Test func fullTheLongestUnusedUnheldKeyIsReused() {
        var map = VirtualKeymap(capacity: 3)
        let a = map.code(for: 0x61)!, b = map.code(for: 0x62)!, c = map.code(for: 0x63)!
        #expect([a, b, c] == [1, 2, 3])
        map.pressed(a, down: true)                   // a held: not reused although used longest ago
        _ = map.code(for: 0x63)                      // c used again: b is now the longest unused
        map.markUploaded()
        #expect(map.code(for: 0x64) == b)
        #expect(map.needsUpload)
        #expect(map.keysyms == [0x61, 0x64, 0x63])
        map.pressed(b, down: true); map.pressed(c, down: true)
        #expect(map.code(for: 0x65) == nil, "every key held: no key for a new keysym")
        map.pressed(c, down: false)
        #expect(map.code(for: 0x65) == c)
    }

    @Test func releasesBeyondPressesAndOutsideCodesAreIgnored() {
        var map = VirtualKeymap(capacity: 2)
        let a = map.code(for: 0x61)!
        map.pressed(a, down: false)
        map.pressed(0, down: true)
        map.pressed(999, down: true)
        #expect(!map.anyHeld)
        map.pressed(a, down: true)
        #expect(map.anyHeld)
    }

    @Test func theTextNamesEveryKeyTheModifiersAndSmallLettersCapitals() {
        var map = VirtualKeymap()
        _ = map.code(for: 0x1000e9)
        _ = map.code(for: 0xffe3)                    // Control_L
        _ = map.code(for: 0x61)
        let text = map.text()
        #expect(text.contains("<K9> = 9;") && text.contains("key <K9> { [ 0x1000e9 ] };"))
        #expect(text.contains("modifier_map Control { <K10> };"))
        #expect(text.contains("key <K11> { [ 0x61, 0x41 ] };"))
        #expect(text.contains("maximum = 255;"))
        #expect(text.hasPrefix("xkb_keymap {"))
    }
}
