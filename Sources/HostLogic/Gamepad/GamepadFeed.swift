import RemotionProtocol

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
    package let table: GamepadButtonTable
    private var held: Set<Button> = []

    package init(table: GamepadButtonTable = .standard, at time: Instant) {
        self.table = table
        self.state = GamepadState(motion: .still(at: time))
    }

    /// Degrees per radian.
    static let degrees: Float = 180 / .pi

    /// The controller frame's vector in the pad's frame.
    package static func padFrame(_ v: Vector3) -> Vector3 { Vector3(x: v.x, y: v.z, z: -v.y) }

    /// A motion sample: its rates (°/s) and acceleration in the pad's frame, its time (the
    /// controller's clock; the report's sensor clock keeps it advancing). A sample without
    /// gyro reads no rotation; one without acceleration keeps the last. Its button state
    /// is applied too (edges the host also delivers one by one are idempotent here).
    package mutating func motion(_ sample: MotionSample) -> GamepadState {
        let rate = sample.gyro.map { Self.padFrame($0) } ?? Vector3(x: 0, y: 0, z: 0)
        state.motion.angularRate = Vector3(x: rate.x * Self.degrees, y: rate.y * Self.degrees, z: rate.z * Self.degrees)
        if let a = sample.acceleration { state.motion.acceleration = Self.padFrame(a) }
        state.motion.time = Instant(nanoseconds: Int64(clamping: sample.timestampMicros) &* 1_000)
        return state
    }

    /// A button edge.
    package mutating func button(_ button: Button, isDown: Bool) -> GamepadState {
        if isDown { held.insert(button) } else { held.remove(button) }
        var buttons = GamepadButtons(), dpad = GamepadDPad()
        var l2: Float = 0, r2: Float = 0
        for b in held {
            switch table.target(of: b) {
            case let .button(x):
                buttons.insert(x)
                if x == .l2 { l2 = 1 }
                if x == .r2 { r2 = 1 }
            case let .dpad(d): dpad.insert(d)
            case .none: break
            }
        }
        state.buttons = buttons
        state.dpad = dpad
        state.leftTrigger = l2
        state.rightTrigger = r2
        return state
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
    }

    package var targets: [Button: Target]

    package func target(of button: Button) -> Target? { targets[button] }

    package static let standard = GamepadButtonTable(targets: [
        .a: .button(.cross), .b: .button(.circle),
        .c: .dpad(.left), .d: .dpad(.right), .e: .dpad(.up), .f: .dpad(.down),
        .g: .button(.square), .h: .button(.triangle),
        .i: .button(.l1), .j: .button(.r1), .k: .button(.l2), .l: .button(.r2),
        .m: .button(.options), .n: .button(.create), .o: .button(.ps), .p: .button(.touchpad),
    ])
}
