import RemotionProtocol

/// Accelerometer reading in a DSU pad-data reply, in g, in the DSU (DualShock 4)
/// frame. See `DSUAxes` for what the axes mean and how they map to Remotion's.
package struct DSUAccel: Hashable, Sendable {
    package var x: Float
    package var y: Float
    package var z: Float
    package init(x: Float, y: Float, z: Float) { self.x = x; self.y = y; self.z = z }
    package static let zero = DSUAccel(x: 0, y: 0, z: 0)
    /// What a real DualShock 4 / DualSense measures at most, each way (g).
    package static let physicalLimit: Float = 8
    /// Each axis within ±`physicalLimit`; NaN reads 0. What the DSU server serves.
    package var physical: DSUAccel {
        DSUAccel(x: DSUGyro.clamp(x, Self.physicalLimit), y: DSUGyro.clamp(y, Self.physicalLimit),
                 z: DSUGyro.clamp(z, Self.physicalLimit))
    }
}

/// Gyroscope reading in a DSU pad-data reply, in degrees per second.
package struct DSUGyro: Hashable, Sendable {
    package var pitch: Float
    package var yaw: Float
    package var roll: Float
    package init(pitch: Float, yaw: Float, roll: Float) { self.pitch = pitch; self.yaw = yaw; self.roll = roll }
    package static let zero = DSUGyro(pitch: 0, yaw: 0, roll: 0)
    /// What a real DualShock 4 / DualSense measures at most, each way (°/s).
    package static let physicalLimit: Float = 2000
    /// Each axis within ±`physicalLimit`; NaN reads 0. What the DSU server serves: a source's
    /// 3e38 °/s is not served on as it came.
    package var physical: DSUGyro {
        DSUGyro(pitch: Self.clamp(pitch, Self.physicalLimit), yaw: Self.clamp(yaw, Self.physicalLimit),
                roll: Self.clamp(roll, Self.physicalLimit))
    }
    static func clamp(_ v: Float, _ limit: Float) -> Float { v.isFinite ? min(max(v, -limit), limit) : 0 }
}

/// One touch point (6 bytes): active, id, u16 x, u16 y (x rightward, y downward; the
/// range is device specific).
package struct DSUTouch: Hashable, Sendable {
    package var isActive: Bool
    package var id: UInt8
    package var x: UInt16
    package var y: UInt16
    package init(isActive: Bool = false, id: UInt8 = 0, x: UInt16 = 0, y: UInt16 = 0) {
        self.isActive = isActive; self.id = id; self.x = x; self.y = y
    }
    package static let none = DSUTouch()
}

/// The twelve analog button bytes, offsets 44…55 of a pad-data reply, in wire order.
/// Digital buttons report 0 released, 255 pressed.
package struct DSUAnalogButtons: Hashable, Sendable {
    package var dpadLeft: UInt8 = 0
    package var dpadDown: UInt8 = 0
    package var dpadRight: UInt8 = 0
    package var dpadUp: UInt8 = 0
    package var square: UInt8 = 0     // Nintendo Y
    package var cross: UInt8 = 0      // Nintendo B
    package var circle: UInt8 = 0     // Nintendo A
    package var triangle: UInt8 = 0   // Nintendo X
    package var r1: UInt8 = 0
    package var l1: UInt8 = 0
    package var r2: UInt8 = 0
    package var l2: UInt8 = 0

    package init() {}

    /// Wire order.
    package var bytes: [UInt8] {
        [dpadLeft, dpadDown, dpadRight, dpadUp, square, cross, circle, triangle, r1, l1, r2, l2]
    }

    /// From twelve bytes in wire order (extra bytes ignored, missing ones 0).
    package init(bytes: some Collection<UInt8>) {
        let b = Array(bytes) + Array(repeating: 0, count: Swift.max(0, 12 - bytes.count))
        (dpadLeft, dpadDown, dpadRight, dpadUp) = (b[0], b[1], b[2], b[3])
        (square, cross, circle, triangle) = (b[4], b[5], b[6], b[7])
        (r1, l1, r2, l2) = (b[8], b[9], b[10], b[11])
    }

    /// 255 for each pressed digital button, 0 for the others.
    package init(digital buttons: DSUButtons) {
        func v(_ b: DSUButton) -> UInt8 { buttons.contains(b) ? 255 : 0 }
        self.init(bytes: [v(.dpadLeft), v(.dpadDown), v(.dpadRight), v(.dpadUp), v(.square), v(.cross),
                          v(.circle), v(.triangle), v(.r1), v(.l1), v(.r2), v(.l2)])
    }
}

/// The 100-byte pad-data reply (message type 0x100002 from a server). Absolute
/// offsets: 20–30 slot info, 31 connected, 32 u32 packet counter, 36 and 37 button
/// bit masks, 38 home, 39 touch button, 40–43 sticks LX LY RX RY (128 neutral, Y
/// positive up), 44–55 analog buttons, 56–67 two touches, 68 u64 motion timestamp
/// (µs), 76/80/84 f32 accelerometer x/y/z (g), 88/92/96 f32 gyro pitch/yaw/roll (°/s).
package struct DSUPadData: Hashable, Sendable {
    package var info: DSUSlotInfo
    package var isConnected: Bool
    package var packetCounter: UInt32
    /// Byte 36, bit 7 down: d-pad left, down, right, up, options, R3, L3, share.
    package var buttons1: UInt8
    /// Byte 37, bit 7 down: square (Y), cross (B), circle (A), triangle (X), R1, L1, R2, L2.
    package var buttons2: UInt8
    package var home: UInt8
    package var touchButton: UInt8
    package var leftStickX: UInt8
    package var leftStickY: UInt8
    package var rightStickX: UInt8
    package var rightStickY: UInt8
    package var analog: DSUAnalogButtons
    package var touch1: DSUTouch
    package var touch2: DSUTouch
    package var motionTimestampMicros: UInt64
    package var accel: DSUAccel
    package var gyro: DSUGyro

    package init(info: DSUSlotInfo, isConnected: Bool = true, packetCounter: UInt32 = 0,
                 buttons1: UInt8 = 0, buttons2: UInt8 = 0, home: UInt8 = 0, touchButton: UInt8 = 0,
                 leftStickX: UInt8 = 128, leftStickY: UInt8 = 128, rightStickX: UInt8 = 128, rightStickY: UInt8 = 128,
                 analog: DSUAnalogButtons = DSUAnalogButtons(), touch1: DSUTouch = .none, touch2: DSUTouch = .none,
                 motionTimestampMicros: UInt64 = 0, accel: DSUAccel = .zero, gyro: DSUGyro = .zero) {
        self.info = info; self.isConnected = isConnected; self.packetCounter = packetCounter
        self.buttons1 = buttons1; self.buttons2 = buttons2; self.home = home; self.touchButton = touchButton
        self.leftStickX = leftStickX; self.leftStickY = leftStickY
        self.rightStickX = rightStickX; self.rightStickY = rightStickY
        self.analog = analog; self.touch1 = touch1; self.touch2 = touch2
        self.motionTimestampMicros = motionTimestampMicros; self.accel = accel; self.gyro = gyro
    }

    /// The eighteen digital buttons gathered from bytes 36–39 (home and touch count as
    /// pressed when their byte is non-zero).
    package var buttons: DSUButtons {
        get { DSUButtons(buttons1: buttons1, buttons2: buttons2, home: home != 0, touch: touchButton != 0) }
        set {
            buttons1 = newValue.buttons1
            buttons2 = newValue.buttons2
            home = newValue.contains(.home) ? 1 : 0
            touchButton = newValue.contains(.touch) ? 1 : 0
        }
    }
}
