import RemotionProtocol

/// Something the host itself does when a button is pressed, instead of injecting
/// (`action:NAME` in the config file).
package enum ButtonCommand: String, Sendable, Hashable, CaseIterable {
    /// Make the current attitude the screen centre.
    case recenter
    /// Switch between pointer modes (e.g. absolute / relative).
    case toggleMode = "toggle-mode"
    /// Motion moves the pointer only while this button is held.
    case holdToEnableMotion = "hold-to-enable-motion"
    /// Pause / resume motion.
    case pause
    /// Calibrate this controller's gyro: hold it still for `calibration.duration` seconds.
    case calibrate
}

/// What one controller button does.
package enum ButtonAction: Sendable, Hashable, CustomStringConvertible {
    case mouse(MouseButton)
    /// A key with modifiers: modifiers go down before the key and up after it.
    case key(Key, modifiers: [Key])
    /// Wheel steps sent once per press (positive dy = up, positive dx = right).
    case wheel(dx: Int, dy: Int)
    case host(ButtonCommand)
    /// A control of the session's virtual pad (`pad.cross`, `pad.r2`, `pad.dpad-up`;
    /// docs/GAMEPAD.md "Pad targets"): the pad presses it, the injector sees nothing.
    case pad(GamepadButtonTable.Target)

    /// The config-file spelling: "left", "key:Left", "key:ctrl+shift+i",
    /// "wheel:up", "action:recenter", "pad.cross".
    package var description: String {
        switch self {
        case .mouse(let b): b.description
        case .key(let k, let mods): "key:" + (mods + [k]).map(\.name).joined(separator: "+")
        case .wheel(0, 1): "wheel:up"
        case .wheel(0, -1): "wheel:down"
        case .wheel(-1, 0): "wheel:left"
        case .wheel(1, 0): "wheel:right"
        case .wheel(let dx, let dy): "wheel:\(dx),\(dy)"
        case .host(let a): "action:" + a.rawValue
        case .pad(let t): "pad." + t.name
        }
    }

    /// Parses the config-file spelling. `nil` means "none" (button unmapped).
    /// The error is a sentence saying what is accepted.
    package static func parse(_ text: String) -> Result<ButtonAction?, ActionSyntaxError> {
        let lower = text.lowercased()
        if lower == "none" { return .success(nil) }
        if let b = MouseButton(name: lower.hasPrefix("mouse:") ? String(lower.dropFirst(6)) : lower) {
            return .success(.mouse(b))
        }
        if lower.hasPrefix("key:") {
            let names = text.dropFirst(4).split(separator: "+", omittingEmptySubsequences: false).map(String.init)
            var keys: [Key] = []
            for name in names {
                guard let k = Key(name: name) else {
                    return .failure(ActionSyntaxError("\(EchoedValue.quoted(name)) is not a key name; use e.g. a, 5, Left, F5, space, Return, ctrl, shift, alt, super"))
                }
                keys.append(k)
            }
            return .success(.key(keys.last!, modifiers: Array(keys.dropLast())))
        }
        if lower.hasPrefix("wheel:") {
            switch lower.dropFirst(6) {
            case "up": return .success(.wheel(dx: 0, dy: 1))
            case "down": return .success(.wheel(dx: 0, dy: -1))
            case "left": return .success(.wheel(dx: -1, dy: 0))
            case "right": return .success(.wheel(dx: 1, dy: 0))
            default: return .failure(ActionSyntaxError("wheel direction must be up, down, left or right"))
            }
        }
        if lower.hasPrefix("pad.") {
            guard let t = GamepadButtonTable.Target(name: String(lower.dropFirst(4))) else {
                return .failure(ActionSyntaxError("unknown pad control; use pad. and one of \(GamepadButtonTable.Target.allNames.joined(separator: ", "))"))
            }
            return .success(.pad(t))
        }
        if lower.hasPrefix("action:") {
            guard let a = ButtonCommand(rawValue: String(lower.dropFirst(7))) else {
                let names = ButtonCommand.allCases.map(\.rawValue).joined(separator: ", ")
                return .failure(ActionSyntaxError("unknown host action; use one of \(names)"))
            }
            return .success(.host(a))
        }
        return .failure(ActionSyntaxError(
            "\(EchoedValue.quoted(text)) is not an action; use left, right, middle, back, forward, key:NAME (e.g. key:ctrl+shift+i), wheel:up|down|left|right, action:NAME, pad.NAME or none"))
    }
}

/// Why a button action string does not parse (the sentence goes into a `ConfigError`).
package struct ActionSyntaxError: Error, Sendable, Hashable {
    package var message: String
    package init(_ message: String) { self.message = message }
}

/// Controller button -> action. Unmapped buttons do nothing.
package struct ButtonMap: Sendable, Hashable {
    package var actions: [Button: ButtonAction]

    package init(_ actions: [Button: ButtonAction] = [:]) { self.actions = actions }

    /// A button of this map is `hold-to-enable-motion`: motion moves the pointer only while it is held.
    package var gatesMotion: Bool { actions.values.contains(.host(.holdToEnableMotion)) }

    /// What a session's virtual pad presses for each button: the map's pad targets when it
    /// names any (only those buttons then reach the pad), else the standard table (every
    /// button reaches the pad as well as the injector).
    package var padTable: GamepadButtonTable {
        var targets: [Button: GamepadButtonTable.Target] = [:]
        for (button, action) in actions { if case let .pad(t) = action { targets[button] = t } }
        return targets.isEmpty ? .standard : GamepadButtonTable(targets: targets)
    }

    package subscript(button: Button) -> ButtonAction? {
        get { actions[button] }
        set { actions[button] = newValue }
    }

    /// The seed's map: A left click, B right click, C-F the arrow keys
    /// Left/Right/Up/Down, G-P the letters i j a b c d e f g h.
    package static let seedDefault: ButtonMap = {
        var m: [Button: ButtonAction] = [.a: .mouse(.left), .b: .mouse(.right),
                                          .c: .key(.left, modifiers: []), .d: .key(.right, modifiers: []),
                                          .e: .key(.up, modifiers: []), .f: .key(.down, modifiers: [])]
        let letters: [Character] = ["i", "j", "a", "b", "c", "d", "e", "f", "g", "h"]
        for (button, letter) in zip(Button.allCases.dropFirst(6), letters) {
            m[button] = .key(.letter(letter), modifiers: [])
        }
        return ButtonMap(m)
    }()

    /// The events one press (`down`) or release of `button` injects, and the host
    /// action it triggers. Host actions are reported on both press and release
    /// (hold-to-enable-motion needs both); the caller looks at `down`.
    /// Key chords: press = modifiers in order then the key; release = the key then
    /// the modifiers in reverse order. Wheel: steps on press, nothing on release.
    package func events(for button: Button, down: Bool) -> (input: [InputEvent], host: ButtonCommand?) {
        switch actions[button] {
        case nil: ([], nil)
        case .mouse(let b)?: ([.button(b, down: down)], nil)
        case .key(let k, let mods)?:
            down ? (mods.map { .key($0, down: true) } + [.key(k, down: true)], nil)
                 : ([.key(k, down: false)] + mods.reversed().map { .key($0, down: false) }, nil)
        case .wheel(let dx, let dy)?: (down ? [.wheel(dx: dx, dy: dy)] : [], nil)
        case .host(let a)?: ([], a)
        case .pad?: ([], nil)
        }
    }
}
