/// Names for the X11 keysyms a controller mapping uses (a subset of
/// X11/keysymdef.h: Latin-1 letters and digits by their character, the rest by name).
enum KeyNames {
    static let named: [(String, UInt32)] = [
        ("space", 0x20), ("Return", 0xff0d), ("Escape", 0xff1b), ("Tab", 0xff09),
        ("BackSpace", 0xff08), ("Delete", 0xffff), ("Insert", 0xff63),
        ("Home", 0xff50), ("Left", 0xff51), ("Up", 0xff52), ("Right", 0xff53), ("Down", 0xff54),
        ("Page_Up", 0xff55), ("Page_Down", 0xff56), ("End", 0xff57),
        ("Shift_L", 0xffe1), ("Shift_R", 0xffe2), ("Control_L", 0xffe3), ("Control_R", 0xffe4),
        ("Alt_L", 0xffe9), ("Alt_R", 0xffea), ("Super_L", 0xffeb), ("Super_R", 0xffec),
        ("Caps_Lock", 0xffe5), ("Menu", 0xff67), ("Print", 0xff61), ("Pause", 0xff13),
        ("minus", 0x2d), ("equal", 0x3d), ("comma", 0x2c), ("period", 0x2e), ("slash", 0x2f),
        ("semicolon", 0x3b), ("apostrophe", 0x27), ("bracketleft", 0x5b), ("bracketright", 0x5d),
        ("backslash", 0x5c), ("grave", 0x60),
    ] + (1...12).map { ("F\($0)", UInt32(0xffbe + $0 - 1)) }

    static let aliases: [String: String] = [
        "enter": "Return", "esc": "Escape", "escape": "Escape", "shift": "Shift_L",
        "ctrl": "Control_L", "control": "Control_L", "alt": "Alt_L", "super": "Super_L",
        "meta": "Super_L", "cmd": "Super_L", "backspace": "BackSpace", "pageup": "Page_Up",
        "pagedown": "Page_Down", "left": "Left", "right": "Right", "up": "Up", "down": "Down",
        "home": "Home", "end": "End", "tab": "Tab", "delete": "Delete", "insert": "Insert",
        "return": "Return", "capslock": "Caps_Lock", "menu": "Menu",
    ]

    static func keysym(named raw: String) -> UInt32? {
        if raw.count == 1, let scalar = raw.unicodeScalars.first, scalar.isASCII,
           scalar.properties.isAlphabetic || ("0"..."9").contains(raw) {
            return UInt32(raw.lowercased().unicodeScalars.first!.value)
        }
        let name = aliases[raw.lowercased()] ?? raw
        if let hit = named.first(where: { $0.0 == name }) { return hit.1 }
        return named.first(where: { $0.0.lowercased() == name.lowercased() })?.1
    }

    static func name(of keysym: UInt32) -> String? {
        if (0x30...0x39).contains(keysym) || (0x61...0x7a).contains(keysym) {
            return String(UnicodeScalar(UInt8(keysym)))
        }
        return named.first(where: { $0.1 == keysym })?.0
    }
}
