import RemotionProtocol

/// One of the eighteen digital buttons a DSU pad-data reply carries, named after the
/// DualShock 4 (the protocol's model). The Nintendo names the protocol description
/// uses are aliases: Y = square, B = cross, A = circle, X = triangle.
package enum DSUButton: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    // Byte 36, bit 7 down.
    case dpadLeft, dpadDown, dpadRight, dpadUp, options, r3, l3, share
    // Byte 37, bit 7 down.
    case square, cross, circle, triangle, r1, l1, r2, l2
    // Bytes 38 and 39.
    case home, touch

    /// The config-file name: "cross", "dpad-left", "l1", "home", …
    package var name: String {
        switch self {
        case .dpadLeft: "dpad-left"
        case .dpadDown: "dpad-down"
        case .dpadRight: "dpad-right"
        case .dpadUp: "dpad-up"
        case .options: "options"
        case .r3: "r3"
        case .l3: "l3"
        case .share: "share"
        case .square: "square"
        case .cross: "cross"
        case .circle: "circle"
        case .triangle: "triangle"
        case .r1: "r1"
        case .l1: "l1"
        case .r2: "r2"
        case .l2: "l2"
        case .home: "home"
        case .touch: "touch"
        }
    }

    package var description: String { name }

    /// Other accepted spellings (lower case). The Nintendo letters are not accepted
    /// alone because "a"/"b" would read as Remotion's buttons A/B; use "nintendo-a" etc.
    private static let aliases: [String: DSUButton] = [
        "left": .dpadLeft, "down": .dpadDown, "right": .dpadRight, "up": .dpadUp,
        "dpad_left": .dpadLeft, "dpad_down": .dpadDown, "dpad_right": .dpadRight, "dpad_up": .dpadUp,
        "start": .options, "select": .share, "create": .share, "ps": .home, "guide": .home,
        "touchpad": .touch, "touch-button": .touch,
        "nintendo-y": .square, "nintendo-b": .cross, "nintendo-a": .circle, "nintendo-x": .triangle,
    ]

    /// Parses a name or alias, case-insensitively.
    package init?(name: some StringProtocol) {
        let lower = name.lowercased()
        if let b = DSUButton.allCases.first(where: { $0.name == lower }) { self = b; return }
        guard let b = Self.aliases[lower] else { return nil }
        self = b
    }

    /// Bit position in the 32-bit `DSUButtons` mask: byte 36's bit 7 is bit 0 here, so
    /// the enum order is the wire order.
    fileprivate var mask: UInt32 { 1 << UInt32(rawValue) }
}

/// The set of pressed DSU buttons.
package struct DSUButtons: Hashable, Sendable, CustomStringConvertible {
    package var rawValue: UInt32

    package init(rawValue: UInt32 = 0) { self.rawValue = rawValue & 0x3_FFFF }
    package init(_ buttons: some Sequence<DSUButton>) {
        rawValue = 0
        for b in buttons { insert(b) }
    }

    /// From the wire bytes: `buttons1` is byte 36, `buttons2` byte 37 (bit 7 first).
    package init(buttons1: UInt8, buttons2: UInt8, home: Bool, touch: Bool) {
        rawValue = 0
        for bit in 0..<8 {
            if buttons1 & (0x80 >> UInt8(bit)) != 0 { rawValue |= 1 << UInt32(bit) }
            if buttons2 & (0x80 >> UInt8(bit)) != 0 { rawValue |= 1 << UInt32(8 + bit) }
        }
        if home { insert(.home) }
        if touch { insert(.touch) }
    }

    package static let none = DSUButtons()

    package var buttons1: UInt8 { wireByte(from: 0) }
    package var buttons2: UInt8 { wireByte(from: 8) }

    private func wireByte(from first: UInt32) -> UInt8 {
        var byte: UInt8 = 0
        for bit in 0..<8 where rawValue & (1 << (first + UInt32(bit))) != 0 { byte |= 0x80 >> UInt8(bit) }
        return byte
    }

    package func contains(_ b: DSUButton) -> Bool { rawValue & b.mask != 0 }
    package mutating func insert(_ b: DSUButton) { rawValue |= b.mask }
    package mutating func remove(_ b: DSUButton) { rawValue &= ~b.mask }
    package var buttons: [DSUButton] { DSUButton.allCases.filter(contains) }
    package var isEmpty: Bool { rawValue == 0 }
    package var description: String { buttons.isEmpty ? "-" : buttons.map(\.name).joined(separator: "+") }
}
