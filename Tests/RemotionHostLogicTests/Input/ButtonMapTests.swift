import RemotionProtocol
import RemotionHostLogic
import Testing

@Suite struct ButtonMapTests {
    @Test func seedDefaultMap() {
        let m = ButtonMap.seedDefault
        #expect(m[.a] == .mouse(.left) && m[.b] == .mouse(.right))
        #expect([m[.c], m[.d], m[.e], m[.f]] == [.key(.left, modifiers: []), .key(.right, modifiers: []),
                                                 .key(.up, modifiers: []), .key(.down, modifiers: [])])
        let letters = Button.allCases.dropFirst(6).map { b -> String in
            guard case .key(let k, [])? = m[b] else { return "?" }
            return k.name
        }
        #expect(letters == ["i", "j", "a", "b", "c", "d", "e", "f", "g", "h"])
    }

    @Test func chordPressesModifiersFirstAndReleasesThemLast() {
        var m = ButtonMap()
        m[.g] = .key(.letter("i"), modifiers: [.control, .shift])
        let down = m.events(for: .g, down: true)
        #expect(down.input == [.key(.control, down: true), .key(.shift, down: true), .key(.letter("i"), down: true)])
        #expect(down.host == nil)
        #expect(m.events(for: .g, down: false).input
                == [.key(.letter("i"), down: false), .key(.shift, down: false), .key(.control, down: false)])
    }

    @Test func wheelHostAndUnmapped() {
        var m = ButtonMap()
        m[.h] = .wheel(dx: 0, dy: 1)
        m[.i] = .host(.recenter)
        #expect(m.events(for: .h, down: true).input == [.wheel(dx: 0, dy: 1)])
        #expect(m.events(for: .h, down: false).input.isEmpty)
        #expect(m.events(for: .i, down: true).host == .recenter)
        #expect(m.events(for: .i, down: false).host == .recenter)
        #expect(m.events(for: .i, down: true).input.isEmpty)
        #expect(m.events(for: .p, down: true).input.isEmpty && m.events(for: .p, down: true).host == nil)
        #expect(ButtonMap.seedDefault.events(for: .a, down: true).input == [.button(.left, down: true)])
    }

    @Test(arguments: ["left", "right", "middle", "back", "forward", "key:Left", "key:ctrl+shift+i",
                      "wheel:up", "wheel:down", "wheel:left", "wheel:right", "action:recenter",
                      "action:toggle-mode", "action:hold-to-enable-motion", "action:pause", "action:calibrate",
                      "pad.cross", "pad.r2", "pad.options", "pad.dpad-up", "pad.dpad-left",
                      "pad.left-stick-up", "pad.right-stick-left"])
    func actionSpellingRoundTrips(text: String) throws {
        let action = try #require(try ButtonAction.parse(text).get())
        let expected = text == "key:ctrl+shift+i" ? "key:Control_L+Shift_L+i" : text
        #expect(action.description == expected)
        #expect(try ButtonAction.parse(action.description).get() == action)
    }

    @Test func badActionsSayWhatIsAccepted() throws {
        #expect(throws: ActionSyntaxError.self) { try ButtonAction.parse("kick").get() }
        #expect(throws: ActionSyntaxError.self) { try ButtonAction.parse("key:ctrl+nope").get() }
        #expect(throws: ActionSyntaxError.self) { try ButtonAction.parse("wheel:sideways").get() }
        #expect(throws: ActionSyntaxError.self) { try ButtonAction.parse("action:dance").get() }
        #expect(try ButtonAction.parse("none").get() == nil)
        #expect(try ButtonAction.parse("mouse:middle").get() == .mouse(.middle))
        #expect(throws: ActionSyntaxError.self) { try ButtonAction.parse("pad.x").get() }
        #expect(throws: ActionSyntaxError.self) { try ButtonAction.parse("pad.left-stick").get() }
    }

    /// Pad targets (docs/GAMEPAD.md "Pad targets"): the pad's table, and nothing for the injector.
    @Test func padTargetsMakeThePadsTableAndInjectNothing() throws {
        #expect(ButtonMap.seedDefault.padTable == .standard, "no pad target: every button on the standard table")
        var m = ButtonMap.seedDefault
        m[.a] = try ButtonAction.parse("PAD.Cross").get()
        m[.k] = try ButtonAction.parse("pad.dpad-down").get()
        #expect(m.padTable == GamepadButtonTable(targets: [.a: .button(.cross), .k: .dpad(.down)]))
        #expect(m.events(for: .a, down: true).input.isEmpty && m.events(for: .a, down: true).host == nil)
        let config = try HostConfig.parse("[buttons]\nA = \"pad.square\"\nB = \"pad.l2\"\n", path: "config.toml")
        #expect(config.buttons[.a] == .pad(.button(.square)) && config.buttons[.b] == .pad(.button(.l2)))
    }

    /// Stick targets (`pad.left-stick-up` …): every side and direction spelled, in the pad's table.
    @Test func stickTargetsParseForBothSticksAndEveryDirection() throws {
        for side in ["left", "right"] {
            for direction in ["left", "right", "up", "down"] {
                let text = "pad.\(side)-stick-\(direction)"
                let action = try #require(try ButtonAction.parse(text).get())
                #expect(action == .pad(.stick(GamepadStickPush(GamepadStickSide(rawValue: side)!,
                                                                 GamepadStickPush.Direction(rawValue: direction)!))))
                #expect(action.description == text)
            }
        }
        let config = try HostConfig.parse("[buttons]\nE = \"pad.right-stick-up\"\n", path: "config.toml")
        #expect(config.buttons.padTable == GamepadButtonTable(targets: [.e: .stick(GamepadStickPush(.right, .up))]))
        guard case let .failure(error) = ButtonAction.parse("pad.middle-stick-up") else {
            Issue.record("pad.middle-stick-up parsed"); return
        }
        let message = error.message
        #expect(message.contains("left-stick-up") && message.contains("right-stick-down") && !message.contains("\n"))
    }
}

@Suite struct KeyCodeTableTests {
    @Test func seedMacCodesMatchTheTable() {
        // The seed's kVK codes for buttons G-P: i j a b c d e f g h.
        let seed: [(Character, UInt16)] = [("i", 34), ("j", 38), ("a", 0), ("b", 11), ("c", 8),
                                           ("d", 2), ("e", 14), ("f", 3), ("g", 5), ("h", 4)]
        for (c, code) in seed { #expect(KeyCodeTables.macVirtual(.letter(c)) == code) }
        #expect(KeyCodeTables.macVirtual(.left) == 123 && KeyCodeTables.macVirtual(.right) == 124)
        #expect(KeyCodeTables.macVirtual(.down) == 125 && KeyCodeTables.macVirtual(.up) == 126)
    }

    @Test func evdevCodesFromInputEventCodes() {
        #expect(KeyCodeTables.evdev(.letter("a")) == 30)   // KEY_A
        #expect(KeyCodeTables.evdev(.letter("i")) == 23)   // KEY_I
        #expect(KeyCodeTables.evdev(.left) == 105)         // KEY_LEFT
        #expect(KeyCodeTables.evdev(.up) == 103)           // KEY_UP
        #expect(KeyCodeTables.evdev(.control) == 29)       // KEY_LEFTCTRL
        #expect(KeyCodeTables.evdev(Key(name: "F12")!) == 88)
        #expect(KeyCodeTables.evdev(Key(name: "0")!) == 11)
        #expect(KeyCodeTables.evdev(Key(keysym: 0x100_2603)) == nil)
    }

    @Test func everyNamedKeyHasCodesOnBothTables() {
        let names = ["space", "Return", "Escape", "Tab", "BackSpace", "Delete", "Home", "End", "Page_Up",
                     "Page_Down", "shift", "ctrl", "alt", "super", "F1", "F10", "minus", "slash", "z", "9"]
        for n in names {
            let key = Key(name: n)!
            #expect(KeyCodeTables.evdev(key) != nil, "evdev \(n)")
            #expect(KeyCodeTables.macVirtual(key) != nil, "mac \(n)")
        }
    }
}
