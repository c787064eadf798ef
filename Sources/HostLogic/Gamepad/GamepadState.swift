import RemotionProtocol

/// What a virtual gamepad shows at one moment, in physical units and independent of any
/// report format: two sticks, two analog triggers, the DualSense's buttons and d-pad, and
/// the motion of the sample it came from. A report codec (`DualSenseInputReport`) turns it
/// into bytes; a second pad type later is a second codec over the same state.
package struct GamepadState: Hashable, Sendable {
    /// A thumbstick: x −1 (left) … +1 (right), y −1 (up) … +1 (down), as HID and evdev read
    /// it. Values outside are clamped by the codec.
    package struct Stick: Hashable, Sendable {
        package var x: Float
        package var y: Float
        package init(x: Float, y: Float) { self.x = x; self.y = y }
        package static let centre = Stick(x: 0, y: 0)
    }

    /// The pad's motion in its own frame (the DualSense's: x to the right, y up out of the
    /// face, z toward the player). Angular rate in degrees per second (x pitch, y yaw,
    /// z roll), acceleration in g (specific force: +1 g up at rest), and the time the
    /// sample was taken.
    package struct Motion: Hashable, Sendable {
        package var angularRate: Vector3
        package var acceleration: Vector3
        package var time: Instant
        package init(angularRate: Vector3, acceleration: Vector3, time: Instant) {
            self.angularRate = angularRate; self.acceleration = acceleration; self.time = time
        }
        /// Lying flat and still: no rotation, 1 g up (the pad's y axis).
        package static func still(at time: Instant) -> Motion {
            Motion(angularRate: Vector3(x: 0, y: 0, z: 0), acceleration: Vector3(x: 0, y: 1, z: 0), time: time)
        }
    }

    package var leftStick: Stick
    package var rightStick: Stick
    /// 0 (released) … 1 (fully pressed).
    package var leftTrigger: Float
    package var rightTrigger: Float
    package var buttons: GamepadButtons
    package var dpad: GamepadDPad
    package var motion: Motion
    /// The fingers on the touchpad (0…1 of its width and height; rest: none).
    package var touch: TouchState

    package init(leftStick: Stick = .centre, rightStick: Stick = .centre, leftTrigger: Float = 0,
                 rightTrigger: Float = 0, buttons: GamepadButtons = [], dpad: GamepadDPad = [],
                 touch: TouchState = .none, motion: Motion) {
        self.leftStick = leftStick; self.rightStick = rightStick
        self.leftTrigger = leftTrigger; self.rightTrigger = rightTrigger
        self.buttons = buttons; self.dpad = dpad; self.touch = touch; self.motion = motion
    }

    /// Rest: sticks centred, triggers 0, buttons and d-pad up, no rotation (the last
    /// acceleration is kept: gravity does not stop). What a pad shows before it goes away.
    package func rest(at time: Instant) -> GamepadState {
        var motion = self.motion
        motion.angularRate = Vector3(x: 0, y: 0, z: 0)
        motion.time = time
        return GamepadState(motion: motion)
    }

    package var isAtRest: Bool {
        leftStick == .centre && rightStick == .centre && leftTrigger == 0 && rightTrigger == 0
            && buttons.isEmpty && dpad.isEmpty && touch == .none && motion.angularRate == Vector3(x: 0, y: 0, z: 0)
    }
}

/// The DualSense's buttons (the d-pad apart: `GamepadDPad`). L2 and R2 here are the
/// triggers' digital bits; their analog values are `GamepadState.leftTrigger`/`rightTrigger`.
package struct GamepadButtons: OptionSet, Hashable, Sendable {
    package let rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }
    package static let cross = GamepadButtons(rawValue: 1 << 0)
    package static let circle = GamepadButtons(rawValue: 1 << 1)
    package static let square = GamepadButtons(rawValue: 1 << 2)
    package static let triangle = GamepadButtons(rawValue: 1 << 3)
    package static let l1 = GamepadButtons(rawValue: 1 << 4)
    package static let r1 = GamepadButtons(rawValue: 1 << 5)
    package static let l2 = GamepadButtons(rawValue: 1 << 6)
    package static let r2 = GamepadButtons(rawValue: 1 << 7)
    package static let create = GamepadButtons(rawValue: 1 << 8)
    package static let options = GamepadButtons(rawValue: 1 << 9)
    package static let l3 = GamepadButtons(rawValue: 1 << 10)
    package static let r3 = GamepadButtons(rawValue: 1 << 11)
    package static let ps = GamepadButtons(rawValue: 1 << 12)
    package static let touchpad = GamepadButtons(rawValue: 1 << 13)
    package static let mute = GamepadButtons(rawValue: 1 << 14)

    /// Names as the pad targets of a profile will spell them (`pad.cross`, …).
    package static let names: [(String, GamepadButtons)] = [
        ("cross", .cross), ("circle", .circle), ("square", .square), ("triangle", .triangle),
        ("l1", .l1), ("r1", .r1), ("l2", .l2), ("r2", .r2), ("create", .create), ("options", .options),
        ("l3", .l3), ("r3", .r3), ("ps", .ps), ("touchpad", .touchpad), ("mute", .mute),
    ]

    package static func named(_ name: String) -> GamepadButtons? {
        names.first { $0.0 == name }?.1
    }
}

/// The d-pad as four directions; opposite directions held together cancel.
package struct GamepadDPad: OptionSet, Hashable, Sendable {
    package let rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    package static let up = GamepadDPad(rawValue: 1 << 0)
    package static let right = GamepadDPad(rawValue: 1 << 1)
    package static let down = GamepadDPad(rawValue: 1 << 2)
    package static let left = GamepadDPad(rawValue: 1 << 3)

    /// The HID hat switch value: 0 = up, clockwise in eighths, 8 = released.
    package var hat: UInt8 {
        let vertical = (contains(.down) ? 1 : 0) - (contains(.up) ? 1 : 0)
        let horizontal = (contains(.right) ? 1 : 0) - (contains(.left) ? 1 : 0)
        switch (horizontal, vertical) {
        case (0, -1): return 0
        case (1, -1): return 1
        case (1, 0): return 2
        case (1, 1): return 3
        case (0, 1): return 4
        case (-1, 1): return 5
        case (-1, 0): return 6
        case (-1, -1): return 7
        default: return 8
        }
    }
}


/// One of the pad's two thumbsticks.
package enum GamepadStickSide: String, Hashable, Sendable, CaseIterable {
    case left, right
}

/// A pad stick pushed fully one way while a button is held (`pad.left-stick-up`, docs/GAMEPAD.md
/// "Pad targets"): added to the stick the controller sends, clamped; opposite directions
/// held together cancel, as on the d-pad.
package struct GamepadStickPush: Hashable, Sendable {
    package enum Direction: String, Hashable, Sendable, CaseIterable {
        case left, right, up, down
    }
    package var side: GamepadStickSide
    package var direction: Direction
    package init(_ side: GamepadStickSide, _ direction: Direction) { self.side = side; self.direction = direction }

    /// The name after `pad.`: `left-stick-up`, `right-stick-left`.
    package var name: String { "\(side.rawValue)-stick-\(direction.rawValue)" }

    /// Every push, in the order error messages list them.
    package static let all: [GamepadStickPush] = GamepadStickSide.allCases.flatMap { side in
        Direction.allCases.map { GamepadStickPush(side, $0) }
    }

    /// The stick the pushes of one side make: full deflection each way (y −1 up, as HID reads it).
    static func stick(_ pushes: Set<Direction>) -> GamepadState.Stick {
        func axis(_ plus: Direction, _ minus: Direction) -> Float {
            (pushes.contains(plus) ? 1 : 0) - (pushes.contains(minus) ? 1 : 0)
        }
        return GamepadState.Stick(x: axis(.right, .left), y: axis(.down, .up))
    }
}

/// One controller's stream as a pad's state: its motion turned into the pad's frame and
/// units, its sixteen buttons through `GamepadButtonTable`. Sans-IO: samples and edges in,
/// `GamepadState` out.
///
/// Axes: a controller reports in its device frame (x to the right, y toward its top edge,
/// z out of the screen; gyro in rad/s about those axes; acceleration in g, +1 g up at
/// rest). Held like a pad — lying screen up, its top edge away from the player — that frame
/// is the DualSense's (x right, y up out of the face, z toward the player) as
/// pad = (x, z, −y). A flat controller at rest therefore reads 1 g on the pad's y, as a
/// DualSense on a table does.
package struct GamepadFeed: Hashable, Sendable {
    package private(set) var state: GamepadState
    /// Which pad control each button presses; a new table (a new profile) applies at once.
    package var table: GamepadButtonTable { didSet { applyHeld() } }
    /// Gyro as a stick (nil: off; `GyroStick.side` says which stick): a new one (a session's
    /// new profile, `gyro_stick.*`) applies at once, from the last sample's rate.
    package var gyroStick: GyroStick? {
        didSet {
            guard gyroStick != oldValue else { return }
            gyroPart = gyroStick?.stick(for: state.motion.angularRate) ?? .centre
            combine()
        }
    }
    private var held: Set<Button> = []
    /// The controller's own sticks and triggers (the newest sample's; none: centred, 0).
    private var analog = AnalogState()
    /// The buttons the controller's buttons press, and their part of the triggers (a button
    /// mapped to L2/R2 presses it fully).
    private var buttonBits = GamepadButtons()
    private var buttonLeftTrigger: Float = 0
    private var buttonRightTrigger: Float = 0
    /// The gyro's part of the stick `gyroStick.side` names.
    private var gyroPart = GamepadState.Stick.centre
    /// The sticks' part from buttons with stick targets (`pad.left-stick-up`): full each way held.
    private var pushLeft = GamepadState.Stick.centre
    private var pushRight = GamepadState.Stick.centre

    /// The gyro's stick goes back to centre until the next sample (a new profile takes over):
    /// the new state.
    package mutating func restGyroStick() -> GamepadState {
        gyroPart = .centre
        combine()
        return state
    }

    package init(table: GamepadButtonTable = .standard, gyroStick: GyroStick? = nil, at time: Instant) {
        self.table = table
        self.gyroStick = gyroStick
        self.state = GamepadState(motion: .still(at: time))
    }

    /// Degrees per radian.
    static let degrees: Float = 180 / .pi
    /// The most the report's int16 says in its calibration's units (`DualSenseUnits`).
    package static let maxDegreesPerSecond = Float(Int16.max) / DualSenseUnits.gyroPerDegreePerSecond
    package static let maxG = Float(Int16.max) / DualSenseUnits.accelPerG

    /// `v` within ±`limit`; NaN reads 0.
    static func physical(_ v: Float, _ limit: Float) -> Float { v.isNaN ? 0 : min(max(v, -limit), limit) }

    /// The controller frame's vector in the pad's frame.
    package static func padFrame(_ v: Vector3) -> Vector3 { Vector3(x: v.x, y: v.z, z: -v.y) }

    /// A motion sample: its rates (°/s) and acceleration in the pad's frame, its time (the
    /// controller's clock; the report's sensor clock keeps it advancing). A sample without
    /// gyro reads no rotation; one without acceleration keeps the last. Its button state
    /// is applied too (edges the host also delivers one by one are idempotent here).
    package mutating func motion(_ sample: MotionSample) -> GamepadState {
        let rate = sample.gyro.map { Self.padFrame($0) } ?? Vector3(x: 0, y: 0, z: 0)
        // Within what the pad's report can say (docs/SECURITY.md 11.5): NaN reads as no
        // rotation, a NaN acceleration keeps the last.
        func degrees(_ v: Float) -> Float { Self.physical(v * Self.degrees, Self.maxDegreesPerSecond) }
        state.motion.angularRate = Vector3(x: degrees(rate.x), y: degrees(rate.y), z: degrees(rate.z))
        if let a = sample.acceleration.map(Self.padFrame), a.isFinite {
            state.motion.acceleration = Vector3(x: Self.physical(a.x, Self.maxG), y: Self.physical(a.y, Self.maxG),
                                                z: Self.physical(a.z, Self.maxG))
        }
        state.motion.time = Instant(nanoseconds: Int64(clamping: sample.timestampMicros) &* 1_000)
        if let gyroStick { gyroPart = gyroStick.stick(for: state.motion.angularRate) }
        if let a = sample.analog { analog = a }
        // The fingers are what the latest sample says: a sample without a touchpad has none
        // down (the page left its Gamepad mode, a controller that never had one), so a finger
        // is never left on the pad by a lost last frame.
        state.touch = sample.touch ?? .none
        combine()
        return state
    }

    /// A button edge.
    package mutating func button(_ button: Button, isDown: Bool) -> GamepadState {
        if isDown { held.insert(button) } else { held.remove(button) }
        applyHeld()
        return state
    }

    /// The held buttons through the table.
    private mutating func applyHeld() {
        var buttons = GamepadButtons(), dpad = GamepadDPad()
        var l2: Float = 0, r2: Float = 0
        var left = Set<GamepadStickPush.Direction>(), right = Set<GamepadStickPush.Direction>()
        for b in held {
            switch table.target(of: b) {
            case let .button(x):
                buttons.insert(x)
                if x == .l2 { l2 = 1 }
                if x == .r2 { r2 = 1 }
            case let .dpad(d): dpad.insert(d)
            case let .stick(p):
                if p.side == .left { left.insert(p.direction) } else { right.insert(p.direction) }
            case .none: break
            }
        }
        buttonBits = buttons
        state.dpad = dpad
        buttonLeftTrigger = l2
        buttonRightTrigger = r2
        pushLeft = left.isEmpty ? .centre : GamepadStickPush.stick(left)
        pushRight = right.isEmpty ? .centre : GamepadStickPush.stick(right)
        combine()
    }

    /// Sticks and triggers from the controller's own, its buttons and the gyro: a stick is
    /// the controller's plus the gyro's when it is the gyro's stick (JoyShockMapper adds them
    /// too) plus its buttons' pushes, clamped; a trigger the larger of its analog value and a
    /// button pressing it, and a trigger that is down at all sets its digital bit (L2/R2), as
    /// the DualSense's own do.
    private mutating func combine() {
        func clamp(_ v: Float) -> Float { v.isFinite ? min(max(v, -1), 1) : 0 }
        let gyroLeft = gyroStick?.side == .left ? gyroPart : .centre
        let gyroRight = gyroStick?.side == .right ? gyroPart : .centre
        state.leftStick = GamepadState.Stick(x: clamp(analog.leftX + gyroLeft.x + pushLeft.x),
                                             y: clamp(analog.leftY + gyroLeft.y + pushLeft.y))
        state.rightStick = GamepadState.Stick(x: clamp(analog.rightX + gyroRight.x + pushRight.x),
                                              y: clamp(analog.rightY + gyroRight.y + pushRight.y))
        func unit(_ v: Float) -> Float { v.isFinite ? min(max(v, 0), 1) : 0 }
        state.leftTrigger = max(buttonLeftTrigger, unit(analog.leftTrigger))
        state.rightTrigger = max(buttonRightTrigger, unit(analog.rightTrigger))
        state.buttons = buttonBits
        if state.leftTrigger > 0 { state.buttons.insert(.l2) }
        if state.rightTrigger > 0 { state.buttons.insert(.r2) }
    }
}

/// Which pad control each of a controller's sixteen buttons (A…P) presses. The standard
/// table follows the host's default button map where it can: A and B are the main buttons
/// (left click there, Cross and Circle here), C, D, E, F are the arrows (Left, Right, Up,
/// Down keys there, the d-pad here). L2 and R2 press their triggers fully.
package struct GamepadButtonTable: Hashable, Sendable {
    package enum Target: Hashable, Sendable {
        case button(GamepadButtons)
        case dpad(GamepadDPad)
        /// A stick pushed fully one way while held (`left-stick-up`).
        case stick(GamepadStickPush)

        /// The d-pad's directions as pad targets spell them (`pad.dpad-up`).
        static let dpadNames: [(String, GamepadDPad)] = [("dpad-up", .up), ("dpad-down", .down), ("dpad-left", .left), ("dpad-right", .right)]

        /// A pad target by the name after `pad.` (`cross`, `r2`, `dpad-up`, `left-stick-up`).
        package init?(name: String) {
            if let b = GamepadButtons.named(name) { self = .button(b) }
            else if let d = Self.dpadNames.first(where: { $0.0 == name })?.1 { self = .dpad(d) }
            else if let p = GamepadStickPush.all.first(where: { $0.name == name }) { self = .stick(p) }
            else { return nil }
        }

        /// The name after `pad.`.
        package var name: String {
            switch self {
            case .button(let b): GamepadButtons.names.first { $0.1 == b }?.0 ?? "buttons-\(b.rawValue)"
            case .dpad(let d): Self.dpadNames.first { $0.1 == d }?.0 ?? "dpad-\(d.rawValue)"
            case .stick(let p): p.name
            }
        }

        /// Every name a profile may use, for error messages.
        package static var allNames: [String] {
            GamepadButtons.names.map(\.0) + dpadNames.map(\.0) + GamepadStickPush.all.map(\.name)
        }
    }

    package var targets: [Button: Target]

    package init(targets: [Button: Target]) { self.targets = targets }

    package func target(of button: Button) -> Target? { targets[button] }

    package static let standard = GamepadButtonTable(targets: [
        .a: .button(.cross), .b: .button(.circle),
        .c: .dpad(.left), .d: .dpad(.right), .e: .dpad(.up), .f: .dpad(.down),
        .g: .button(.square), .h: .button(.triangle),
        .i: .button(.l1), .j: .button(.r1), .k: .button(.l2), .l: .button(.r2),
        .m: .button(.options), .n: .button(.create), .o: .button(.ps), .p: .button(.touchpad),
    ])
}
