/// A mouse button as the OS sees it (X11 numbering: 1 left, 2 middle, 3 right,
/// 8 back, 9 forward). The wheel is not a button here: see `InputEvent.wheel`.
public enum MouseButton: UInt8, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    case left = 1, middle = 2, right = 3, back = 8, forward = 9

    public var description: String {
        switch self {
        case .left: "left"
        case .middle: "middle"
        case .right: "right"
        case .back: "back"
        case .forward: "forward"
        }
    }

    public init?(name: String) {
        guard let b = MouseButton.allCases.first(where: { $0.description == name.lowercased() }) else { return nil }
        self = b
    }
}

/// A keyboard key, identified by its X11 keysym (the portable name space every
/// backend translates from: XTest directly, uinput and CGEvent through tables).
public struct Key: Hashable, Sendable, CustomStringConvertible {
    public var keysym: UInt32
    public init(keysym: UInt32) { self.keysym = keysym }

    public var name: String { KeyNames.name(of: keysym) ?? "0x" + String(keysym, radix: 16) }
    public var description: String { name }

    /// Parses a key name such as "a", "Left", "F5", "space", "Return", "ctrl".
    public init?(name: String) {
        guard let sym = KeyNames.keysym(named: name) else { return nil }
        keysym = sym
    }

    public static let left = Key(keysym: 0xff51)
    public static let up = Key(keysym: 0xff52)
    public static let right = Key(keysym: 0xff53)
    public static let down = Key(keysym: 0xff54)
    public static let shift = Key(keysym: 0xffe1)
    public static let control = Key(keysym: 0xffe3)
    public static let alt = Key(keysym: 0xffe9)
    public static let superKey = Key(keysym: 0xffeb)
    public static func letter(_ c: Character) -> Key { Key(keysym: UInt32(c.lowercased().unicodeScalars.first!.value)) }
}

/// What the host asks an injector to do. Positions are in screen pixels, origin
/// top left; relative motion and wheel steps are signed counts.
public enum InputEvent: Hashable, Sendable {
    case moveTo(x: Int, y: Int)
    case moveBy(dx: Int, dy: Int)
    case button(MouseButton, down: Bool)
    case key(Key, down: Bool)
    /// Wheel steps: positive dy scrolls up, positive dx scrolls right.
    case wheel(dx: Int, dy: Int)

    /// The held input this event presses or releases, if any.
    public var heldInput: HeldInput? {
        switch self {
        case .button(let b, _): .mouse(b)
        case .key(let k, _): .key(k)
        default: nil
        }
    }

    public var isPress: Bool {
        switch self {
        case .button(_, let d), .key(_, let d): d
        default: false
        }
    }
}

/// Something that stays down until released: a mouse button or a key.
public enum HeldInput: Hashable, Sendable, Comparable {
    case mouse(MouseButton)
    case key(Key)

    public var releaseEvent: InputEvent {
        switch self {
        case .mouse(let b): .button(b, down: false)
        case .key(let k): .key(k, down: false)
        }
    }

    private var sortKey: (Int, UInt32) {
        switch self {
        case .mouse(let b): (0, UInt32(b.rawValue))
        case .key(let k): (1, k.keysym)
        }
    }
    public static func < (a: HeldInput, b: HeldInput) -> Bool { a.sortKey < b.sortKey }
}

/// The size of the screen the pointer moves on, in pixels.
public struct ScreenGeometry: Hashable, Sendable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) { self.width = width; self.height = height }
}
