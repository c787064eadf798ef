import RemotionProtocol
import RemotionHostLogic
import Testing

@Suite struct HostConfigTests {
    @Test func fullExample() throws {
        let text = """
        # Remotion host config
        [buttons]
        A = "left"          # left click
        B = "right"
        C = "key:Left"
        G = "key:ctrl+shift+i"
        H = 'wheel:up'
        I = "action:recenter"
        P = "none"

        [mapping]
        sensitivity = 1.5
        "curve" = "quadratic"
        invert_y = false
        dead_zone_px = 2
        """
        let c = try HostConfig.parse(text, path: "config.toml")
        #expect(c.buttons[.a] == .mouse(.left))
        #expect(c.buttons[.g] == .key(.letter("i"), modifiers: [.control, .shift]))
        #expect(c.buttons[.h] == .wheel(dx: 0, dy: 1))
        #expect(c.buttons[.i] == .host(.recenter))
        #expect(c.buttons[.p] == nil)
        #expect(c.buttons[.j] == ButtonMap.seedDefault[.j])  // untouched defaults stay
        #expect(c.mapping == [
            .init(key: "sensitivity", value: "1.5", line: 12, quoted: false),
            .init(key: "curve", value: "quadratic", line: 13, quoted: true),
            .init(key: "invert_y", value: "false", line: 14, quoted: false),
            .init(key: "dead_zone_px", value: "2", line: 15, quoted: false),
        ])
    }

    /// The gyro keys as a config file spells them (dotted names are quoted keys), applied
    /// the way the host applies [mapping], and written back the way the dashboard saves.
    @Test func gyroSettingsInTheConfigFile() throws {
        let text = """
        [buttons]
        I = "action:calibrate"
        B = "none"                     # B only clutches
        [mapping]
        mode = "fps"
        "fps.space" = "world"
        "fps.clutch" = "off-while:B"
        "calibration.mode" = "manual"
        "calibration.rest_gate" = false
        "calibration.duration" = 5
        "sensors.accelerometer" = "down"
        """
        let c = try HostConfig.parse(text, path: "config.toml")
        #expect(c.buttons[.i] == .host(.calibrate) && c.buttons[.b] == nil)
        var s = MappingSettings()
        for entry in c.mapping { try s.set(entry.key, to: entry.value) }
        #expect(s.mode == .fps && s.fps.space == .world && s.fps.clutch == .holdToDisable(.b))
        #expect(s.sensors.calibrationMode == .manual && !s.sensors.restGate && s.sensors.calibrationDuration == 5)
        #expect(s.sensors.accelerometer == .down)
        let saved = HostConfig.updatingMapping(key: "fps.clutch", value: "toggle:C", in: text)
        #expect(saved.contains("\"fps.clutch\" = \"toggle:C\""))
        let again = try HostConfig.parse(saved, path: "config.toml")
        #expect(again.mapping.first { $0.key == "fps.clutch" }?.value == "toggle:C")
        #expect(HostConfig.updatingMapping(key: "calibration.rest_gate", value: "true", in: text)
            .contains("\"calibration.rest_gate\" = true"))
    }

    @Test func emptyFileGivesTheDefaults() throws {
        #expect(try HostConfig.parse("", path: "c.toml") == HostConfig())
        #expect(try HostConfig.parse("\n# only a comment\r\n", path: "c.toml").buttons == .seedDefault)
    }

    @Test func stringEscapes() throws {
        let c = try HostConfig.parse("[mapping]\nname = \"a\\\"b\\\\c\\u00e9\\t\"\n", path: "c")
        #expect(c.mapping.first?.value == "a\"b\\c\u{e9}\t")
    }

    static let bad: [(String, String)] = [
        ("[buttons]\nA = \"left\"\n\n\n\n\nQ = \"right\"", #"config.toml:7: button "Q" is not a button; use A to P"#),
        ("[buttons]\nA = \"kick\"", "config.toml:2: button A: \"kick\" is not an action"),
        ("[buttons]\nA = 3", "config.toml:2: button A needs a quoted action"),
        ("[motion]\n", "config.toml:1: unknown table [motion]; use [buttons], [mapping], [gamepad], [local-pads], [inject], [[dsu]] or [[profile]]"),
        ("A = \"left\"", "config.toml:1: \"A\" is outside any table"),
        ("[buttons]\nA = \"left\"\nA = \"right\"", "config.toml:3: key \"A\" is set twice in [buttons]"),
        ("[buttons]\n[buttons]", "config.toml:2: table [buttons] appears twice"),
        ("[mapping]\nx = [1, 2]", "config.toml:2: arrays are not supported"),
        ("[mapping]\nx = { a = 1 }", "config.toml:2: inline tables are not supported"),
        ("[mapping]\nx = \"\"\"\nmulti\n\"\"\"", "config.toml:2: multi-line strings are not supported"),
        ("[mapping]\nx = linear", "config.toml:2: \"linear\" is not a value; strings need quotes"),
        ("[mapping]\nx = \"open", "config.toml:2: string is not closed"),
        ("[mapping]\nx = 1 2", "config.toml:2: unexpected text after the value"),
        ("[mapping]\na.b = 1", "config.toml:2: dotted keys are not supported"),
        ("[mapping]\nx =", "config.toml:2: missing value"),
        ("[mapping]\nx = 0x10", "config.toml:2: \"0x10\" is not a value"),
        ("[mapping]\nx = \"\\q\"", "config.toml:2: unknown escape \\q"),
        ("[[buttons]]", "config.toml:1: [[buttons]] is a single table; write [buttons]"),
        ("[[keys]]", "config.toml:1: unknown table [[keys]]; the lists of tables are [[dsu]] and [[profile]]"),
        ("[dsu]\naddress = \"1.2.3.4\"", "config.toml:1: write [[dsu]] (double brackets)"),
        ("[buttons]\n[[buttons]]", "config.toml:2: [buttons] and [[buttons]] both appear"),
        ("[[dsu]\naddress = \"1.2.3.4\"", "config.toml:1: an array-of-tables header must be a plain name"),
        ("[buttons", "config.toml:1: a table header must be a plain name"),
        ("[mapping]\n= 3", "config.toml:2: expected `key = value`"),
        ("[gamepad]\npad = \"xbox\"", "config.toml:2: [gamepad] pad must be \"dualsense\", \"dualsense-usb\" or \"none\""),
        ("[gamepad]\npad = 1", "config.toml:2: [gamepad] pad must be"),
        ("[gamepad]\nbus = \"usb\"", "config.toml:2: [gamepad] has no key \"bus\"; its keys are pad, for, gyro, stick-rate"),
        ("[gamepad]\nfor = \"some\"", "config.toml:2: [gamepad] for must be \"every\" (each controller gets a pad) or \"asked\""),
        ("[gamepad]\ngyro = \"left-stick\"", "config.toml:2: [gamepad] gyro must be \"right-stick\" or \"none\""),
        ("[gamepad]\nstick-rate = 400", "config.toml:2: [gamepad] the stick settings need gyro = \"right-stick\""),
        ("[gamepad]\ngyro = \"right-stick\"\nstick-rate = \"fast\"", "config.toml:3: [gamepad] stick-rate must be a number"),
        ("[gamepad]\ngyro = \"right-stick\"\nstick-rate = 0", "config.toml:3: [gamepad] stick-rate must be from 1 to 10000"),
        ("[gamepad]\ngyro = \"right-stick\"\nundeadzone-inner = 0.6\nundeadzone-outer = 0.5", "config.toml:4: [gamepad] undeadzone-inner and undeadzone-outer must each be from 0 to 0.99, together less than 1"),
        ("[pads]", "config.toml:1: unknown table [pads]; use [buttons], [mapping], [gamepad], [local-pads], [inject], [[dsu]] or [[profile]]"),
    ]

    @Test func gamepadTable() throws {
        #expect(try HostConfig.parse("[gamepad]\npad = \"dualsense\"\n", path: "c").gamepad.pad == .bluetooth)
        #expect(try HostConfig.parse("[gamepad]\npad = \"dualsense-usb\"\n", path: "c").gamepad.pad == .usb)
        #expect(try HostConfig.parse("[gamepad]\npad = \"none\"\n", path: "c").gamepad.pad == nil)
        #expect(try HostConfig.parse("[gamepad]\npad = \"dualsense\"\nfor = \"asked\"\n", path: "c").gamepad.forEvery == false)
        #expect(try HostConfig.parse("[gamepad]\npad = \"dualsense\"\n", path: "c").gamepad.forEvery, "every controller by default")
        #expect(try HostConfig.parse("[mapping]\nsensitivity = 2\n", path: "c").gamepad == GamepadConfig(), "no pad unless asked")
        let stick = try HostConfig.parse("""
            [gamepad]
            pad = "dualsense"
            gyro = "right-stick"
            stick-rate = 540
            undeadzone-inner = 0.15
            undeadzone-outer = 0.05
            unpower = 2
            """, path: "c").gamepad.gyroStick
        #expect(stick == GyroStick(fullRate: 540, undeadzoneInner: 0.15, undeadzoneOuter: 0.05, unpower: 2))
        #expect(try HostConfig.parse("[gamepad]\ngyro = \"right-stick\"\n", path: "c").gamepad.gyroStick == GyroStick(),
                "JoyShockMapper's defaults: 360 °/s full, no undeadzone, no unpower")
    }

    /// `[gamepad] gyro = "right-stick"` is the host profile's default gyro stick; `[mapping]`'s
    /// `gyro_stick.*` wins over it, in file order after it (docs/GAMEPAD.md).
    @Test func theGamepadTablesGyroStickIsTheProfilesDefault() throws {
        let folded = try HostConfig.parse("""
            [gamepad]
            gyro = "right-stick"
            stick-rate = 540
            undeadzone-inner = 0.15
            """, path: "c").mappingSettings(path: "c")
        #expect(folded.gyroStick.target == .right && folded.gyroStick.rate == 540)
        #expect(folded.gyroStick.undeadzoneInner == 0.15, "the Float 0.15 stays 0.15: \(folded.gyroStick.undeadzoneInner)")
        #expect(folded.value(of: "gyro_stick.undeadzone_inner") == "0.15")
        #expect(try HostConfig.parse("[mapping]\nsensitivity = 2\n", path: "c").mappingSettings(path: "c").gyroStick
                == GyroStickSettings(), "off unless asked")
        let overridden = try HostConfig.parse("""
            [gamepad]
            gyro = "right-stick"
            stick-rate = 540
            [mapping]
            "gyro_stick.target" = "left"
            "gyro_stick.unpower" = 2
            """, path: "c").mappingSettings(path: "c")
        #expect(overridden.gyroStick.stick == GyroStick(fullRate: 540, unpower: 2, side: .left))
        let off = try HostConfig.parse("[gamepad]\ngyro = \"right-stick\"\n[mapping]\n\"gyro_stick.target\" = \"off\"\n",
                                       path: "c").mappingSettings(path: "c")
        #expect(off.gyroStick.stick == nil)
        let bad = try HostConfig.parse("[mapping]\n\"gyro_stick.target\" = \"middle\"\n", path: "config.toml")
        let error = #expect(throws: ConfigError.self) { try bad.mappingSettings(path: "config.toml") }
        #expect(error?.description == "config.toml:2: [mapping] gyro_stick.target: \"middle\" is not allowed; use one of: off, right, left")
    }

    @Test(arguments: bad)
    func badFilesNameFileLineAndFix(text: String, expected: String) {
        let error = #expect(throws: ConfigError.self) { try HostConfig.parse(text, path: "config.toml") }
        #expect(error?.description.hasPrefix(expected) == true, "got: \(error?.description ?? "no error")")
    }

    @Test func numbersOfTheSubset() throws {
        let c = try HostConfig.parse("[mapping]\na = -12\nb = 1_000\nc = 3.5e-2\nd = +0.25\n", path: "c")
        #expect(c.mapping.map(\.value) == ["-12", "1_000", "3.5e-2", "+0.25"])
        #expect(throws: ConfigError.self) { try HostConfig.parse("[mapping]\na = 1__0", path: "c") }
        #expect(throws: ConfigError.self) { try HostConfig.parse("[mapping]\na = 012", path: "c") }
        #expect(throws: ConfigError.self) { try HostConfig.parse("[mapping]\na = nan", path: "c") }
    }

    @Test func configLocation() {
        #expect(HostConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"])
                == "/x/cfg/remotion/config.toml")
        #expect(HostConfig.defaultPath(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/u/"])
                == "/home/u/.config/remotion/config.toml")
        #expect(HostConfig.defaultPath(environment: ["HOME": "/root"]) == "/root/.config/remotion/config.toml")
        #expect(HostConfig.defaultPath(environment: [:]) == nil)
    }

    @Test func injectOutputNamesTheOutputThePointerCovers() throws {
        #expect(try HostConfig.parse("", path: "c").inject.output == nil)
        #expect(try HostConfig.parse("[inject]\noutput = \"HEADLESS-2\"\n", path: "c").inject.output == "HEADLESS-2")
        let bad = ["[inject]\noutput = 2", "[inject]\noutput = \"\"", "[inject]\noutput = \"a b\"",
                   "[inject]\noutput = \"\(String(repeating: "x", count: 64))\"", "[inject]\noutput = \"a\\u001b[2J\""]
        for text in bad {
            #expect(throws: ConfigError.self) { try HostConfig.parse(text, path: "c") }
        }
        #expect { try HostConfig.parse("[inject]\nscreen = \"x\"", path: "c") } throws: {
            "\($0)".contains("[inject] has no key \"screen\"; its keys are output")
        }
    }
}
