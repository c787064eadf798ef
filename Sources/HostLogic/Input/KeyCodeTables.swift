import RemotionProtocol

/// Keysym -> platform key code tables for the backends that do not speak keysyms
/// (uinput: Linux evdev KEY_* codes; CGEvent: macOS virtual key codes). Pure data
/// so that both are tested on any platform. US layout positions.
package enum KeyCodeTables {
    /// Linux input-event-codes.h KEY_* for a keysym, nil if the table has none.
    package static func evdev(_ key: Key) -> UInt16? { evdevTable[key.keysym] }

    /// macOS Carbon kVK_* virtual key code for a keysym, nil if the table has none.
    package static func macVirtual(_ key: Key) -> UInt16? { macTable[key.keysym] }

    /// Every keysym the evdev table covers (for the uinput device's key bits).
    package static var evdevCodes: [UInt16] { Array(Set(evdevTable.values)).sorted() }

    private static func letters(_ s: String, _ codes: [UInt16]) -> [(UInt32, UInt16)] {
        zip(s.unicodeScalars.map(\.value), codes).map { ($0, $1) }
    }

    static let evdevTable: [UInt32: UInt16] = {
        var t: [UInt32: UInt16] = [:]
        let rows = letters("qwertyuiop", Array(16...25)) + letters("asdfghjkl", Array(30...38))
            + letters("zxcvbnm", Array(44...50)) + letters("1234567890", Array(2...11))
        for (sym, code) in rows { t[sym] = code }
        let named: [(UInt32, UInt16)] = [
            (0xff1b, 1), (0x2d, 12), (0x3d, 13), (0xff08, 14), (0xff09, 15), (0x5b, 26), (0x5d, 27),
            (0xff0d, 28), (0xffe3, 29), (0x3b, 39), (0x27, 40), (0x60, 41), (0xffe1, 42), (0x5c, 43),
            (0x2c, 51), (0x2e, 52), (0x2f, 53), (0xffe2, 54), (0xffe9, 56), (0x20, 57), (0xffe5, 58),
            (0xffc8, 87), (0xffc9, 88), (0xffe4, 97), (0xff61, 99), (0xffea, 100),
            (0xff50, 102), (0xff52, 103), (0xff55, 104), (0xff51, 105), (0xff53, 106), (0xff57, 107),
            (0xff54, 108), (0xff56, 109), (0xff63, 110), (0xffff, 111), (0xff13, 119),
            (0xffeb, 125), (0xffec, 126), (0xff67, 127),
        ]
        for (sym, code) in named { t[sym] = code }
        for n in 0..<10 { t[0xffbe + UInt32(n)] = 59 + UInt16(n) }  // F1-F10 = KEY_F1 59 ... KEY_F10 68
        return t
    }()

    static let macTable: [UInt32: UInt16] = {
        var t: [UInt32: UInt16] = [:]
        let letterCodes: [Character: UInt16] = [
            "a": 0, "s": 1, "d": 2, "f": 3, "h": 4, "g": 5, "z": 6, "x": 7, "c": 8, "v": 9, "b": 11,
            "q": 12, "w": 13, "e": 14, "r": 15, "y": 16, "t": 17, "1": 18, "2": 19, "3": 20, "4": 21,
            "6": 22, "5": 23, "=": 24, "9": 25, "7": 26, "-": 27, "8": 28, "0": 29, "]": 30, "o": 31,
            "u": 32, "[": 33, "i": 34, "p": 35, "l": 37, "j": 38, "'": 39, "k": 40, ";": 41,
            "\\": 42, ",": 43, "/": 44, "n": 45, "m": 46, ".": 47, "`": 50, " ": 49,
        ]
        for (c, code) in letterCodes { t[c.unicodeScalars.first!.value] = code }
        let named: [(UInt32, UInt16)] = [
            (0xff0d, 36), (0xff09, 48), (0xff08, 51), (0xff1b, 53), (0xffeb, 55), (0xffec, 54),
            (0xffe1, 56), (0xffe5, 57), (0xffe9, 58), (0xffe3, 59), (0xffe2, 60), (0xffea, 61),
            (0xffe4, 62), (0xff63, 114), (0xff50, 115), (0xff55, 116), (0xffff, 117), (0xff57, 119),
            (0xff56, 121), (0xff51, 123), (0xff53, 124), (0xff54, 125), (0xff52, 126),
        ]
        for (sym, code) in named { t[sym] = code }
        let fkeys: [UInt16] = [122, 120, 99, 118, 96, 97, 98, 100, 101, 109, 103, 111]  // F1...F12
        for (n, code) in fkeys.enumerated() { t[0xffbe + UInt32(n)] = code }
        return t
    }()
}
