/// The keymap of the wlroots injector's own virtual keyboard (zwp_virtual_keyboard_v1),
/// the way wtype does it: every keysym the host presses (a key, or a character the page
/// types) gets a keycode of this keyboard's own, and the keymap naming them is uploaded
/// before the key goes. So any Unicode character arrives whatever the session's layout,
/// and nothing of the session's own keyboard is borrowed or changed.
///
/// Pure: which keycode carries which keysym, and the XKB text that says so. At most
/// `capacity` keysyms at once; a new one takes the slot used longest ago that no held
/// key is on (a held key keeps its keycode until released).
package struct VirtualKeymap: Sendable {
    /// XKB keycodes 9...255 (evdev codes 1...247: the protocol's key is the XKB code − 8).
    package static let firstKeycode: UInt32 = 9
    package static let capacity = 247

    /// The keysym on each slot (slot i is XKB keycode 9 + i).
    package private(set) var keysyms: [UInt32] = []
    private var lastUse: [UInt64] = []
    private var heldCount: [UInt8] = []
    private var clock: UInt64 = 0
    /// Set when a slot changed since `markUploaded()`: the keymap must be uploaded again
    /// before a key on it is sent.
    package private(set) var needsUpload = true
    private let capacity: Int

    package init(capacity: Int = VirtualKeymap.capacity) {
        self.capacity = max(1, min(capacity, VirtualKeymap.capacity))
    }

    /// The evdev key code carrying `keysym`, given a slot when it has none. nil when every
    /// slot is held.
    package mutating func code(for keysym: UInt32) -> UInt32? {
        clock &+= 1
        if let slot = keysyms.firstIndex(of: keysym) {
            lastUse[slot] = clock
            return Self.evdev(slot)
        }
        if keysyms.count < capacity {
            keysyms.append(keysym)
            lastUse.append(clock)
            heldCount.append(0)
            needsUpload = true
            return Self.evdev(keysyms.count - 1)
        }
        var victim: Int?
        for slot in keysyms.indices where heldCount[slot] == 0 {
            if victim.map({ lastUse[slot] < lastUse[$0] }) ?? true { victim = slot }
        }
        guard let victim else { return nil }
        keysyms[victim] = keysym
        lastUse[victim] = clock
        needsUpload = true
        return Self.evdev(victim)
    }

    /// Records a press or release on evdev code `code` (a held key's slot is not reused).
    package mutating func pressed(_ code: UInt32, down: Bool) {
        guard code >= 1, case let slot = Int(code) - 1, slot < heldCount.count else { return }
        if down { heldCount[slot] = heldCount[slot] == .max ? .max : heldCount[slot] + 1 }
        else if heldCount[slot] > 0 { heldCount[slot] -= 1 }
    }

    /// Whether any key is down.
    package var anyHeld: Bool { heldCount.contains { $0 > 0 } }

    package mutating func markUploaded() { needsUpload = false }

    private static func evdev(_ slot: Int) -> UInt32 { UInt32(slot) + firstKeycode - 8 }

    /// The keymap in XKB's text format (v1). Keysyms are written as numbers (xkbcommon
    /// reads 0x… as a keysym); a small letter gets its capital on the
    /// second level (Shift+a is A, as on a keyboard; a typed capital has its own key); modifier
    /// keys are in the modifier map, so a held Control makes the next key a shortcut.
    package func text() -> String {
        var codes = "", symbols = ""
        let last = Self.firstKeycode + UInt32(max(keysyms.count, 1)) - 1
        for (slot, sym) in keysyms.enumerated() {
            let code = Self.firstKeycode + UInt32(slot)
            codes += "<K\(code)> = \(code);\n"
            symbols += "key <K\(code)> { [ \(Self.levels(sym)) ] };\n"
            if let modifier = Self.modifier(sym) { symbols += "modifier_map \(modifier) { <K\(code)> };\n" }
        }
        return """
        xkb_keymap {
        xkb_keycodes "remotion" {
        minimum = 8;
        maximum = \(max(last, 255));
        \(codes)};
        xkb_types "remotion" { include "complete" };
        xkb_compatibility "remotion" { include "complete" };
        xkb_symbols "remotion" {
        \(symbols)};
        };

        """
    }

    private static func hex(_ sym: UInt32) -> String { "0x" + String(sym, radix: 16) }

    private static func levels(_ sym: UInt32) -> String {
        switch sym {
        case 0x61...0x7a: "\(hex(sym)), \(hex(sym - 0x20))"     // a…z, A…Z
        default: hex(sym)
        }
    }

    private static func modifier(_ sym: UInt32) -> String? {
        switch sym {
        case 0xffe1, 0xffe2: "Shift"
        case 0xffe3, 0xffe4: "Control"
        case 0xffe7, 0xffe8, 0xffe9, 0xffea: "Mod1"     // Meta, Alt
        case 0xffeb, 0xffec: "Mod4"                     // Super
        default: nil
        }
    }
}
