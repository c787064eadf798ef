/// One of the sixteen controller buttons, A to P (the seed's kProtocolButtonA…P).
public enum Button: UInt8, CaseIterable, Hashable, Sendable, Comparable, CustomStringConvertible {
    case a = 0, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p

    public var letter: String { String(UnicodeScalar(UInt8(ascii: "A") + rawValue)) }
    public var description: String { letter }

    /// Parses "A"…"P" (either case).
    public init?(letter: some StringProtocol) {
        guard letter.count == 1, let ascii = letter.uppercased().unicodeScalars.first?.value,
              ascii >= 65, ascii < 65 + 16 else { return nil }
        self.init(rawValue: UInt8(ascii - 65))
    }

    public static func < (a: Button, b: Button) -> Bool { a.rawValue < b.rawValue }
}

/// The state of all sixteen buttons as a bit mask: bit n is button n (A = bit 0).
public struct ButtonSet: Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16 = 0) { self.rawValue = rawValue }
    public init(_ buttons: some Sequence<Button>) {
        rawValue = 0
        for b in buttons { insert(b) }
    }

    public static let none = ButtonSet()

    public func contains(_ b: Button) -> Bool { rawValue & (1 << UInt16(b.rawValue)) != 0 }
    public mutating func insert(_ b: Button) { rawValue |= 1 << UInt16(b.rawValue) }
    public mutating func remove(_ b: Button) { rawValue &= ~(1 << UInt16(b.rawValue)) }
    public mutating func set(_ b: Button, down: Bool) { if down { insert(b) } else { remove(b) } }

    public var buttons: [Button] { Button.allCases.filter(contains) }
    public var isEmpty: Bool { rawValue == 0 }

    /// Buttons whose state differs between `self` and `other`.
    public func changes(to other: ButtonSet) -> [Button] {
        ButtonSet(rawValue: rawValue ^ other.rawValue).buttons
    }

    public var description: String { buttons.isEmpty ? "-" : buttons.map(\.letter).joined() }
}
