#if os(Linux)
import CX11
import RemotionHostLogic
import RemotionProtocol
import RemotionSystem
import RemotionTestSupport
import Testing

/// Typing through XTest on a real Xvfb: spare keycodes are remapped to each character's
/// keysym (read back through a second X connection) and emptied again when the backend
/// closes. (That applications see the characters is checked end to end by
/// scripts/web-modes-test.sh with xev as the witness.)
@Suite struct XTestTypingTests {
    /// keycode → first keysym in the server's map now.
    func keysyms(_ probe: OpaquePointer) -> [Int: UInt] {
        var low: Int32 = 0, high: Int32 = 0
        XDisplayKeycodes(probe, &low, &high)
        var per: Int32 = 0
        guard let map = XGetKeyboardMapping(probe, KeyCode(low), high - low + 1, &per) else { return [:] }
        defer { XFree(map) }
        var out: [Int: UInt] = [:]
        for code in low...high { out[Int(code)] = UInt(map[Int(code - low) * Int(per)]) }
        return out
    }

    @Test func charactersGoThroughSpareKeycodesWhichAreRestoredOnClose() async throws {
        let xvfb = try await XvfbServer.start()
        defer { xvfb.stop() }
        let probe = try xvfb.openProbe()
        defer { XCloseDisplay(probe) }
        let before = keysyms(probe)
        let backend = try XTestBackend(displayName: xvfb.displayName)
        #expect(try backend.type("aé😀ß\n") == "")
        backend.sync()
        XSync(probe, 0)
        let during = keysyms(probe)
        let changed = during.filter { before[$0.key] != $0.value }
        // Every character has its keysym on a keycode that was empty before (Return has its own key).
        #expect(Set(changed.values) == [0x61, 0xe9, 0x0101_f600, 0xdf])
        #expect(changed.keys.allSatisfy { before[$0] == 0 })
        #expect(try backend.type("\u{1}x") == "\u{1}")      // a control character cannot be typed
        backend.close()
        XSync(probe, 0)
        #expect(keysyms(probe) == before, "the spare keycodes are empty again after close()")
    }
}
#endif
