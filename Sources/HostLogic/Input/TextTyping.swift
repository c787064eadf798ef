import RemotionProtocol

/// A backend that can type text as characters, whatever the keyboard layout
/// (docs/WEB-CONTROLLER.md, "Typing"). XTest does (a spare keycode remapped to each
/// character's keysym); a backend that cannot returns what it could not type.
package protocol TextTypingBackend: InjectorBackend {
    /// Types `text`; returns the characters it could not type (empty: all typed).
    func type(_ text: String) throws(InjectionError) -> String
    /// Gives back every keycode typing borrowed (the keyboard map as before the text).
    /// Called a moment after the last text (not at once: an application reads the map
    /// when it handles the key, maybe later) and on close.
    func restoreBorrowedKeycodes()
}

extension TextTypingBackend {
    /// A backend that types is its own typist (`InjectorBackend.textTyping`).
    package var textTyping: (any TextTypingBackend)? { self }
}

/// Unicode characters as X11 keysyms (X11/keysymdef.h: "Unicode characters"):
/// Latin-1 printable characters are their own code point, every other character is
/// 0x01000000 + its code point; the control characters the phone keyboard sends for
/// Enter and Tab become the Return and Tab keys.
package enum UnicodeKeysym {
    package static func keysym(for scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x0a, 0x0d: return 0xff0d          // Return
        case 0x09: return 0xff09                // Tab
        case 0x08: return 0xff08                // BackSpace
        case 0x20...0x7e, 0xa0...0xff: return scalar.value
        case 0x00...0x1f, 0x7f...0x9f: return nil   // other control characters: nothing to type
        default: return 0x0100_0000 + scalar.value
        }
    }

    /// The keysyms of `text` in order, and the scalars that have none.
    package static func keysyms(of text: String) -> (keysyms: [UInt32], untyped: String) {
        var out: [UInt32] = [], untyped = ""
        for scalar in text.unicodeScalars {
            if let k = keysym(for: scalar) { out.append(k) } else { untyped.unicodeScalars.append(scalar) }
        }
        return (out, untyped)
    }
}

/// Which spare keycode carries which keysym, least recently used first: a character
/// typed again reuses its keycode without a remap, and a new one takes the keycode
/// used longest ago. Pure; the X adapter applies the remaps it returns.
package struct SpareKeycodes: Sendable, Equatable {
    package private(set) var codes: [UInt8]
    /// keycode → keysym it carries now (absent: still unmapped).
    package private(set) var carrying: [UInt8: UInt32] = [:]
    private var order: [UInt8]

    package init(codes: [UInt8]) {
        self.codes = codes
        order = codes
    }

    /// The keycode to press for `keysym` and whether it must be remapped first; nil when
    /// there are no spare keycodes.
    package mutating func assign(_ keysym: UInt32) -> (code: UInt8, remap: Bool)? {
        if let hit = carrying.first(where: { $0.value == keysym })?.key {
            touch(hit)
            return (hit, false)
        }
        guard let code = order.first else { return nil }
        carrying[code] = keysym
        touch(code)
        return (code, true)
    }

    /// Keycodes currently remapped (to restore when the backend closes).
    package var remapped: [UInt8] { codes.filter { carrying[$0] != nil } }

    /// Records that `code` (one of `codes`) already carries `keysym` (after a map change).
    package mutating func adopt(_ code: UInt8, carrying keysym: UInt32) {
        guard codes.contains(code) else { return }
        carrying[code] = keysym
    }

    /// The same keycodes and what they carry, taken in `previous`'s order of use where it
    /// knew them (new spares first: never used). Giving keycodes back or finding them again
    /// keeps that order, so the next character does not take the keycode a character just
    /// used: an application may still read that key with the map it had (a slow browser
    /// typed "é" as the "ß" that followed).
    package func inOrder(of previous: SpareKeycodes) -> SpareKeycodes {
        var s = self
        s.order = codes.filter { !previous.order.contains($0) } + previous.order.filter { codes.contains($0) }
        return s
    }

    private mutating func touch(_ code: UInt8) {
        order.removeAll { $0 == code }
        order.append(code)
    }
}
