/// Device attitude in radians, as CoreMotion reports it: roll and pitch in [-π, π],
/// yaw in (-π, π].
public struct Attitude: Hashable, Sendable {
    public var roll: Double
    public var pitch: Double
    public var yaw: Double
    public init(roll: Double, pitch: Double, yaw: Double) {
        self.roll = roll; self.pitch = pitch; self.yaw = yaw
    }
    public static let zero = Attitude(roll: 0, pitch: 0, yaw: 0)
    public var isFinite: Bool { roll.isFinite && pitch.isFinite && yaw.isFinite }
}

/// A three-axis reading (gyro rates in rad/s about x/y/z, or acceleration in g).
public struct Vector3: Hashable, Sendable {
    public var x: Float
    public var y: Float
    public var z: Float
    public init(x: Float, y: Float, z: Float) { self.x = x; self.y = y; self.z = z }
    public static let zero = Vector3(x: 0, y: 0, z: 0)
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }
}

/// A controller's thumbsticks and analog triggers (docs/PROTOCOL.md §3, the motion packet's
/// analog field): sticks −1…1 (x right, y down, as HID reads them), triggers 0…1. Perishable
/// like motion: the newest packet's state is the truth.
public struct AnalogState: Hashable, Sendable {
    public var leftX: Float, leftY: Float, rightX: Float, rightY: Float
    public var leftTrigger: Float, rightTrigger: Float

    public init(leftX: Float = 0, leftY: Float = 0, rightX: Float = 0, rightY: Float = 0,
                leftTrigger: Float = 0, rightTrigger: Float = 0) {
        self.leftX = leftX; self.leftY = leftY; self.rightX = rightX; self.rightY = rightY
        self.leftTrigger = leftTrigger; self.rightTrigger = rightTrigger
    }
}

/// Up to two fingers on a controller's touchpad, each where it touches: x from the left edge
/// and y from the top, 0…1 of the pad's width and height, and the finger's id (a new touch,
/// a new id), as a DualSense's or a DS4's touchpad reports them.
public struct TouchState: Hashable, Sendable {
    public struct Finger: Hashable, Sendable {
        public var id: UInt8
        public var x: Float, y: Float
        public init(id: UInt8, x: Float, y: Float) { self.id = id; self.x = x; self.y = y }
    }
    public var first: Finger?
    public var second: Finger?
    public init(first: Finger? = nil, second: Finger? = nil) { self.first = first; self.second = second }
    /// No finger down.
    public static let none = TouchState()
}

/// One sensor sample as the controller streams it.
public struct MotionSample: Hashable, Sendable {
    /// When the sensor produced the sample, microseconds on the controller's clock.
    public var timestampMicros: UInt64
    public var attitude: Attitude?
    /// Angular rates in rad/s: x = pitch axis, y = roll axis, z = yaw axis (device frame).
    public var gyro: Vector3?
    public var acceleration: Vector3?
    /// The full state of all sixteen buttons when the sample was taken.
    public var buttons: ButtonSet
    /// Sticks and triggers, for a controller that has them (nil: none).
    public var analog: AnalogState?
    /// The fingers on its touchpad, for a controller that has one (nil: none).
    public var touch: TouchState?

    public init(timestampMicros: UInt64, attitude: Attitude? = nil, gyro: Vector3? = nil,
                acceleration: Vector3? = nil, buttons: ButtonSet = .none, analog: AnalogState? = nil,
                touch: TouchState? = nil) {
        self.timestampMicros = timestampMicros
        self.attitude = attitude
        self.gyro = gyro
        self.acceleration = acceleration
        self.buttons = buttons
        self.analog = analog
        self.touch = touch
    }
}
