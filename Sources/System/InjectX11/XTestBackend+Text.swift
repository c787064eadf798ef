#if os(Linux)
import CX11
import RemotionHostLogic
import RemotionProtocol

/// Typing text through XTest whatever the keyboard layout (docs/WEB-CONTROLLER.md,
/// "Typing"): each character becomes its keysym (`UnicodeKeysym`), a spare keycode (one
/// the X keyboard map leaves empty) is remapped to it, pressed and released. A character
/// typed again reuses its keycode; new ones take the keycode used longest ago
/// (`SpareKeycodes`), so an application that reads the map a little late still sees the
/// right one. Return, Tab and BackSpace press their own keys. The spare keycodes are
/// emptied again when the backend closes.
extension XTestBackend: TextTypingBackend {
    /// At most this many keycodes are borrowed.
    static let spareCount = 16

    package func type(_ text: String) throws(InjectionError) -> String {
        guard let dpy = display else { throw InjectionError(.closed, backend: name, "typed after close()") }
        if typing == nil { typing = SpareKeycodes(codes: Self.spareKeycodes(dpy)) }
        var missing = ""
        for scalar in text.unicodeScalars {
            guard let sym = UnicodeKeysym.keysym(for: scalar) else {
                missing.unicodeScalars.append(scalar)
                continue
            }
            if sym >= 0xff00, case let code = XKeysymToKeycode(dpy, KeySym(sym)), code != 0 {
                tap(dpy, UInt32(code))
                continue
            }
            guard let slot = typing?.assign(sym) else {
                missing.unicodeScalars.append(scalar)
                continue
            }
            if slot.remap {
                var pair: [KeySym] = [KeySym(sym), KeySym(sym)]
                XChangeKeyboardMapping(dpy, Int32(slot.code), 2, &pair, 1)
            }
            tap(dpy, UInt32(slot.code))
        }
        try flush()
        return missing
    }

    private func tap(_ dpy: OpaquePointer, _ code: UInt32) {
        XTestFakeKeyEvent(dpy, code, 1, 0)
        XTestFakeKeyEvent(dpy, code, 0, 0)
    }

    /// Empties every keycode typing remapped (called by close()).
    func restoreSpareKeycodes() {
        guard let dpy = display, let codes = typing?.remapped, !codes.isEmpty else { return }
        for code in codes {
            var none: [KeySym] = [KeySym(0)]
            XChangeKeyboardMapping(dpy, Int32(code), 1, &none, 1)
        }
        typing = SpareKeycodes(codes: typing?.codes ?? [])
        XFlush(dpy)
    }

    /// Keycodes with no keysym at all in the current map, highest first, at most `spareCount`.
    static func spareKeycodes(_ dpy: OpaquePointer) -> [UInt8] {
        var low: Int32 = 0, high: Int32 = 0
        XDisplayKeycodes(dpy, &low, &high)
        guard high >= low, low >= 8 else { return [] }
        var perCode: Int32 = 0
        guard let map = XGetKeyboardMapping(dpy, KeyCode(low), high - low + 1, &perCode) else { return [] }
        defer { XFree(map) }
        var spares: [UInt8] = []
        for code in stride(from: high, through: low, by: -1) where spares.count < spareCount {
            let base = Int(code - low) * Int(perCode)
            if (0..<Int(perCode)).allSatisfy({ map[base + $0] == 0 }) { spares.append(UInt8(code)) }
        }
        return spares
    }
}
#endif
