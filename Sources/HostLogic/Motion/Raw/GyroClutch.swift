import RemotionProtocol

/// Whether gyro aiming is engaged, from the buttons held (JoyShockMapper's GYRO_ON /
/// GYRO_OFF and a toggle). Pure: feed it every sample's full `ButtonSet`.
///
/// - `always`: gyro output is always on.
/// - `holdToEnable(b)` (JSM `GYRO_ON = b`): off, on only while `b` is held.
/// - `holdToDisable(b)` (JSM `GYRO_OFF = b`): on, off while `b` is held — lift the
///   controller and reposition, like lifting a mouse.
/// - `toggle(b)`: each press of `b` (a rising edge) flips it; starts off
///   ("toggle to aim").
///
/// A button already held when the clutch starts (or after `reset()`) counts for the
/// hold modes at once, but does not toggle: a toggle needs a press seen as an edge.
package struct GyroClutch: Sendable, Equatable {
    package enum Mode: Sendable, Equatable, Hashable {
        case always
        case holdToEnable(Button)
        case holdToDisable(Button)
        case toggle(Button)
    }

    package var mode: Mode {
        didSet { if mode != oldValue { toggledOn = false } }
    }
    package private(set) var isEnabled: Bool
    private var toggledOn = false
    private var previous: ButtonSet?

    package init(mode: Mode = .always) {
        self.mode = mode
        isEnabled = Self.initial(mode)
    }

    /// Updates the state from the buttons held with this sample; returns `isEnabled`.
    @discardableResult
    package mutating func update(buttons: ButtonSet) -> Bool {
        defer { previous = buttons }
        switch mode {
        case .always:
            isEnabled = true
        case .holdToEnable(let b):
            isEnabled = buttons.contains(b)
        case .holdToDisable(let b):
            isEnabled = !buttons.contains(b)
        case .toggle(let b):
            if let p = previous, !p.contains(b), buttons.contains(b) { toggledOn.toggle() }
            isEnabled = toggledOn
        }
        return isEnabled
    }

    /// Forgets the toggle state and the previous buttons.
    package mutating func reset() {
        toggledOn = false
        previous = nil
        isEnabled = Self.initial(mode)
    }

    private static func initial(_ mode: Mode) -> Bool {
        switch mode {
        case .always, .holdToDisable: true
        case .holdToEnable, .toggle: false
        }
    }
}

extension GyroClutch.Mode: CustomStringConvertible, Codable {
    /// The config spelling: `always`, `hold:X` (JoyShockMapper GYRO_ON = X), `toggle:X`,
    /// `off-while:X` (GYRO_OFF = X), with X a button letter A–P (case-insensitive).
    /// `nil` for anything else.
    package init?(text: String) {
        let lower = text.lowercased()
        if lower == "always" { self = .always; return }
        guard let colon = lower.firstIndex(of: ":"),
              let button = Button(letter: lower[lower.index(after: colon)...]) else { return nil }
        switch lower[..<colon] {
        case "hold": self = .holdToEnable(button)
        case "toggle": self = .toggle(button)
        case "off-while": self = .holdToDisable(button)
        default: return nil
        }
    }

    package var description: String {
        switch self {
        case .always: "always"
        case .holdToEnable(let b): "hold:\(b.letter)"
        case .toggle(let b): "toggle:\(b.letter)"
        case .holdToDisable(let b): "off-while:\(b.letter)"
        }
    }

    package init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let mode = Self(text: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "\"\(text)\" is not a clutch mode"))
        }
        self = mode
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
