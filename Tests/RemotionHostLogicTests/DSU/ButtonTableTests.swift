import Testing
import RemotionProtocol
@testable import RemotionHostLogic

@Suite struct ButtonTableTests {
    @Test func wireBitsFollowTheDescription() {
        // Byte 36 from bit 7: left, down, right, up, options, R3, L3, share.
        let order1: [DSUButton] = [.dpadLeft, .dpadDown, .dpadRight, .dpadUp, .options, .r3, .l3, .share]
        // Byte 37 from bit 7: square (Y), cross (B), circle (A), triangle (X), R1, L1, R2, L2.
        let order2: [DSUButton] = [.square, .cross, .circle, .triangle, .r1, .l1, .r2, .l2]
        for (i, b) in order1.enumerated() {
            #expect(DSUButtons([b]).buttons1 == 0x80 >> UInt8(i))
            #expect(DSUButtons([b]).buttons2 == 0)
            #expect(DSUButtons(buttons1: 0x80 >> UInt8(i), buttons2: 0, home: false, touch: false) == DSUButtons([b]))
        }
        for (i, b) in order2.enumerated() {
            #expect(DSUButtons([b]).buttons2 == 0x80 >> UInt8(i))
            #expect(DSUButtons(buttons1: 0, buttons2: 0x80 >> UInt8(i), home: false, touch: false) == DSUButtons([b]))
        }
        var pad = DSUPadData(info: .empty(slot: 0))
        pad.buttons = DSUButtons([.home, .touch, .r3])
        #expect(pad.home == 1 && pad.touchButton == 1 && pad.buttons1 == 0x04 && pad.buttons2 == 0)
    }

    @Test func defaultTableMatchesRemotionsDefaultMap() {
        let t = DSUButtonTable.default
        // A left click, B right click, C–F arrows Left/Right/Up/Down (ButtonMap.seedDefault).
        #expect(t[.cross] == .a && t[.circle] == .b)
        #expect(t[.dpadLeft] == .c && t[.dpadRight] == .d && t[.dpadUp] == .e && t[.dpadDown] == .f)
        #expect([t[.square], t[.triangle], t[.l1], t[.r1], t[.l2], t[.r2], t[.options], t[.share], t[.l3], t[.r3]]
                == [.g, .h, .i, .j, .k, .l, .m, .n, .o, .p])
        #expect(t[.home] == nil && t[.touch] == nil)
        // Every Remotion button has exactly one DSU button by default.
        #expect(Set(t.mapping.values).count == 16 && t.mapping.count == 16)
    }

    @Test func mapsBothWays() {
        let t = DSUButtonTable.default
        #expect(t.remotionButtons(for: DSUButtons([.cross, .dpadUp, .home])) == ButtonSet([.a, .e]))
        #expect(t.dsuButtons(for: ButtonSet([.b, .p])) == DSUButtons([.circle, .r3]))
    }

    @Test func overridesByName() throws {
        var t = DSUButtonTable.default
        try t.set("home", to: "p")
        try t.set(" Touch ", to: "O")
        try t.set("l3", to: "none")
        try t.set("nintendo-a", to: "A")          // circle → A too
        #expect(t[.home] == .p && t[.touch] == .o && t[.l3] == nil && t[.circle] == .a)
        // Two DSU buttons on A: either presses A; A pressed presses both.
        #expect(t.remotionButtons(for: DSUButtons([.circle])) == ButtonSet([.a]))
        #expect(t.dsuButtons(for: ButtonSet([.a])) == DSUButtons([.cross, .circle]))
        #expect(try DSUButtonTable.parse([("dpad_left", "D"), ("start", "B")])[.dpadLeft] == .d)
        #expect(try DSUButtonTable.parse([("start", "B")])[.options] == .b)
    }

    @Test func rejectsBadEntriesAndKeepsTheTable() {
        var t = DSUButtonTable.default
        #expect(throws: DSUButtonTableError.self) { try t.set("a", to: "B") }     // Nintendo letter alone: ambiguous
        #expect(throws: DSUButtonTableError.self) { try t.set("cross", to: "Q") }
        #expect(throws: DSUButtonTableError.self) { try t.set("cross", to: "AB") }
        #expect(t == .default)
        do { try t.set("banana", to: "A") } catch {
            #expect(error.description.hasPrefix("dsu.buttons.banana: \"banana\" is not a DSU button; use one of dpad-left"))
        }
    }

    @Test func namesRoundTrip() {
        for b in DSUButton.allCases { #expect(DSUButton(name: b.name) == b) }
        #expect(DSUButtonTable.default.configLines.first == "dpad-left = C")
        #expect(DSUButtonTable.default.configLines.last == "touch = none")
    }
}
