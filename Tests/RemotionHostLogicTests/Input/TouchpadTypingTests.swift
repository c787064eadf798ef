import RemotionHostLogic
import RemotionProtocol
import Testing

/// The touchpad's acceleration curve and scrolling, Unicode → keysym, the spare keycodes'
/// rotation, and the laser's placement and fade: all pure.
@Suite struct TouchpadTypingTests {
    @Test func gainRampsFromSpeedToSpeedTimesOnePlusAcceleration() {
        let t = TouchpadMapper()
        let s = t.settings
        #expect(t.gain(speed: 0) == s.speed)
        #expect(t.gain(speed: s.threshold) == s.speed)
        #expect(abs(t.gain(speed: (s.threshold + s.limit) / 2) - s.speed * (1 + s.acceleration / 2)) < 1e-12)
        #expect(t.gain(speed: s.limit) == s.speed * (1 + s.acceleration))
        #expect(t.gain(speed: 100) == s.speed * (1 + s.acceleration))
        #expect(t.gain(speed: .nan) == s.speed)
        // Monotonic: a faster finger never moves the pointer less per pixel.
        var last = 0.0
        for v in stride(from: 0.0, through: 3, by: 0.01) { let g = t.gain(speed: v); #expect(g >= last); last = g }
    }

    @Test func slowMovesAddUpExactlyThroughTheRemainder() {
        var t = TouchpadMapper()
        var total = (0, 0)
        for _ in 0..<100 {          // 0.5 px per 16 ms: far below the threshold, gain = speed
            let d = t.move(dx: 0.5, dy: -0.25, millis: 16)
            total.0 += d.dx; total.1 += d.dy
        }
        #expect(total.0 == Int((50 * t.settings.speed).rounded(.towardZero)))
        #expect(total.1 == Int((-25 * t.settings.speed).rounded(.towardZero)))
    }

    @Test func fastFlicksMoveFurtherThanSlowOnes() {
        var slow = TouchpadMapper(), fast = TouchpadMapper()
        let a = slow.move(dx: 4, dy: 0, millis: 32)      // 0.125 px/ms
        let b = fast.move(dx: 4, dy: 0, millis: 1)       // 4 px/ms
        #expect(b.dx > a.dx)
        #expect(fast.move(dx: .infinity, dy: 0, millis: 1) == (0, 0))
    }

    @Test func scrollingMakesWholeStepsAndKeepsFractions() {
        var t = TouchpadMapper()
        #expect(t.scroll(dx: 0, dy: 12) == (0, 0))
        #expect(t.scroll(dx: 0, dy: 12) == (0, 1))
        #expect(t.scroll(dx: 0, dy: -60) == (0, -2))
        #expect(t.scroll(dx: 30, dy: 0).dx == 1)
    }

    @Test func unicodeBecomesKeysyms() {
        #expect(UnicodeKeysym.keysym(for: "a") == 0x61)
        #expect(UnicodeKeysym.keysym(for: "é") == 0xe9)
        #expect(UnicodeKeysym.keysym(for: "ß") == 0xdf)
        #expect(UnicodeKeysym.keysym(for: "€") == 0x0100_20ac)
        #expect(UnicodeKeysym.keysym(for: "😀") == 0x0101_f600)
        #expect(UnicodeKeysym.keysym(for: "\n") == 0xff0d)
        #expect(UnicodeKeysym.keysym(for: "\u{7}") == nil)
        let (syms, untyped) = UnicodeKeysym.keysyms(of: "a\u{1}b")
        #expect(syms == [0x61, 0x62] && untyped == "\u{1}")
    }

    @Test func spareKeycodesRotateLeastRecentlyUsed() {
        var s = SpareKeycodes(codes: [250, 251])
        #expect(s.assign(0xe9)! == (250, true))
        #expect(s.assign(0xdf)! == (251, true))
        #expect(s.assign(0xe9)! == (250, false))         // typed again: no remap
        #expect(s.assign(0x0101_f600)! == (251, true))   // takes the one used longest ago
        #expect(Set(s.remapped) == [250, 251])
        var none = SpareKeycodes(codes: [])
        #expect(none.assign(0x61) == nil)
    }

    @Test func keycodesGivenBackOrFoundAgainAreNotReusedFirst() {
        var s = SpareKeycodes(codes: [250, 251, 252])
        _ = s.assign(0xe9)                               // é on 250
        // Given back (restoreBorrowedKeycodes): 250 was used last, so ß takes 251.
        var back = SpareKeycodes(codes: s.codes).inOrder(of: s)
        #expect(back.remapped.isEmpty)
        #expect(back.assign(0xdf)! == (251, true))
        // Found again after a map change: 250 still carries é and stays last.
        var again = s.rebased(on: [250, 251, 252])
        #expect(again.assign(0xdf)! == (251, true))
        #expect(again.assign(0xe9)! == (250, false), "é still carried: no remap")
        // A new spare found then is taken before any used one.
        var grown = s.rebased(on: [249, 250, 251, 252])
        #expect(grown.assign(0xdf)! == (249, true))
    }

    @Test func laserFollowsThePointerEventsAndFades() {
        let screen = ScreenGeometry(width: 1920, height: 1080)
        // Pointer mode's position as is; FPS mode's relative moves from the dot, kept on screen.
        #expect(LaserPointer.next(from: (0, 0), after: .moveTo(x: 480, y: 324), screen: screen)! == (480, 324))
        #expect(LaserPointer.next(from: (100, 100), after: .moveBy(dx: -30, dy: 5), screen: screen)! == (70, 105))
        #expect(LaserPointer.next(from: (10, 1075), after: .moveBy(dx: -30, dy: 50), screen: screen)! == (0, 1079))
        #expect(LaserPointer.next(from: (1, 1), after: .button(.left, down: true), screen: screen) == nil)
        #expect(LaserPointer.next(from: (1, 1), after: .wheel(dx: 0, dy: 1), screen: screen) == nil)

        var dot = LaserDot()
        #expect(!dot.visible(at: 0) && dot.hideAt == nil)
        dot.sample(x: 5, y: 6, now: 10)
        #expect(dot.visible(at: 10.49) && !dot.visible(at: 10.5) && dot.hideAt == 10.5)
        dot.clear()
        #expect(!dot.visible(at: 10.1))
    }
}

/// The record of borrowed keycodes: text round trip, junk skipped, only
/// codes that still carry the recorded keysym are restored, map changes rebase the spares.
@Suite struct BorrowedKeycodesTests {
    @Test func roundTripsAndSkipsJunk() {
        let r = BorrowedKeycodes([255: 0x100_014B, 254: 0xe9])
        #expect(r.text == "254 e9\n255 100014b\n")
        #expect(BorrowedKeycodes(text: r.text) == r)
        let junk = BorrowedKeycodes(text: "x y\n7 41\n300 41\n12 0\n12\n20 zz\n200 41 9\n30 41\n")
        #expect(junk.carrying == [30: 0x41])
        #expect(BorrowedKeycodes(text: String(repeating: "9 41\n", count: 100_000)).carrying.count == 1)
    }

    @Test func restoresOnlyWhatStillCarriesTheRecordedKeysym() {
        let r = BorrowedKeycodes([250: 0x41, 251: 0x42, 252: 0x43])
        let now: [UInt8: UInt32] = [250: 0x41, 251: 0xffca, 252: 0]
        #expect(r.toRestore { now[$0] } == [250])
    }

    @Test func aMapChangeForgetsCodesThatAreNoLongerSpare() {
        var spares = SpareKeycodes(codes: [255, 254, 253])
        _ = spares.assign(0x41)
        _ = spares.assign(0x42)
        let rebased = spares.rebased(on: [255, 253, 252])
        #expect(rebased.carrying == [255: 0x41])
        #expect(rebased.remapped == [255])
    }
}
