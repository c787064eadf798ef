import RemotionProtocol

/// The kernel drivers whose "Motion Sensors" evdev node Remotion reads, each with its axis
/// convention written down and derived, as data (docs/LOCAL-PADS.md).
///
/// **Remotion** (`MotionSample`, docs/DSU.md "Axis conventions"): a pad lying flat, buttons
/// up, its grips toward you is held like a phone lying flat, screen up, top away from you:
/// x right, y forward (away from you), z up (out of the face). Gyro rad/s right-handed about
/// those axes; acceleration in g, the specific force (lying still it reads (0, 0, +1)).
///
/// Units never come from this table: every axis is divided by the resolution EVIOCGABS
/// reports for it (units per °/s on RX/RY/RZ, per g on X/Y/Z). The kernel's own numbers are
/// in the comments only to derive the tests' exact values.
package enum LocalPadDriver: String, Sendable, Hashable, CaseIterable {
    /// hid-playstation (DualSense, DualSense Edge; DualShock 4 from Linux 6.2) and hid-sony
    /// (DualShock 4 before 6.2). Resolutions 8192 per g and 1024 per °/s (DS_ACC_RES_PER_G,
    /// DS_GYRO_RES_PER_DEG_S; hid-sony's DS4_* are the same). The sensor frame is the pad's
    /// HID frame, passed through unchanged: x right, y up out of the face when the pad
    /// lies flat (a still, flat pad reads ABS_Y = +1 g), z toward the player (the grips);
    /// right-handed (x × y = z). Checked against the project's own virtual DualSense, whose
    /// `GamepadFeed` writes Remotion's (x, y, z) as the pad's (x, z, −y) and which the guest
    /// stage reads back through this driver. So Remotion = (x, −z, y).
    case playstation
    /// hid-nintendo (Switch Pro Controller, Joy-Cons). Resolutions 4096 per g
    /// (JC_IMU_ACCEL_RES_PER_G) and 14247 per °/s (JC_IMU_GYRO_RES_PER_DPS: 14.247 digits per
    /// °/s scaled by 1000). The driver's comment gives the frame, the right Joy-Con already
    /// negated to match: "X: positive is pointing toward the triggers, Y: positive is pointing
    /// to the left, Z: positive is pointing up (out of the buttons/sticks); the axes follow
    /// the right-hand rule." Toward the triggers is away from the player, so Remotion's x
    /// (right) is −Y, y (forward) is X, z (up) is Z: Remotion = (−y, x, z). An accelerometer
    /// reads the specific force, so a flat, still pad reads +1 g on Z. Checked on Linux 6.1's
    /// driver in the guest stage (scripts/lib/uhid_switchpro.py answers its handshake): a
    /// right turn of a flat pad is −Z and moves the pointer right.
    case nintendo
    /// hid-steam (Steam Deck, Linux 6.10 on). 16384 per g, 16 per °/s
    /// (STEAM_DECK_ACCEL_RES_PER_G, STEAM_DECK_GYRO_RES_PER_DPS); the driver remaps the
    /// Deck's report (ABS_Z = −accel y, ABS_Y = accel z, ABS_RZ = −gyro y, ABS_RY = gyro z)
    /// and its author checked "that the axes have the same orientation" as a DualSense on a
    /// rotating plate, so its frame is hid-playstation's: Remotion = (x, −z, y). Its
    /// MSC_TIMESTAMP is synthetic (+4000 µs per report: the Deck's report has no clock).
    case steam

    /// The driver family by the HID vendor id of the node (sysfs `id/vendor`).
    package init?(vendor: UInt16) {
        switch vendor {
        case 0x054C: self = .playstation   // Sony
        case 0x057E: self = .nintendo      // Nintendo
        case 0x28DE: self = .steam         // Valve
        default: return nil
        }
    }

    /// Whether MSC_TIMESTAMP is not the pad's clock and a report's time must come from the
    /// kernel. hid-nintendo makes it up: each report's three samples are spaced by its
    /// average report interval ÷ 3, an average in whole milliseconds of jiffies (4 ms apart at
    /// HZ=250) that it takes every 300 reports, so a Pro Controller sending every 15 ms was
    /// stamped 14 ms per report in the guest stage: its clock ran 6.7% slow and the pointer
    /// fell 6.7% short. So the decoder times each report by the kernel's event time of its
    /// first sample and spaces the report's samples by the driver's step
    /// (`LocalPadMotionDecoder`). hid-playstation and hid-sony send the pad's sensor clock.
    package var timesReportsByKernel: Bool { self == .nintendo }

    /// For each of Remotion's x, y, z: which of the driver's axes (0 = X/RX, 1 = Y/RY,
    /// 2 = Z/RZ) and its sign. A proper rotation, so gyro and accelerometer use the same.
    package var frame: [(axis: Int, sign: Float)] {
        switch self {
        case .playstation, .steam: [(0, 1), (2, -1), (1, 1)]
        case .nintendo: [(1, -1), (0, 1), (2, 1)]
        }
    }

    /// The driver's vector (in its units already divided by resolution) in Remotion's frame.
    package func remotion(_ v: (Float, Float, Float)) -> Vector3 {
        let a = [v.0, v.1, v.2], f = frame
        return Vector3(x: f[0].sign * a[f[0].axis], y: f[1].sign * a[f[1].axis], z: f[2].sign * a[f[2].axis])
    }

    /// How the gamepad node reports the d-pad and the analog triggers.
    package var controls: LocalPadControlLayout {
        switch self {
        // hid-playstation/hid-sony: d-pad on ABS_HAT0X/Y, L2/R2 analog on ABS_Z/ABS_RZ (0…255).
        case .playstation: LocalPadControlLayout(dpadHat: true, leftTrigger: EvdevCode.absZ, rightTrigger: EvdevCode.absRZ)
        // hid-nintendo: the Pro Controller's d-pad on the hat, the Joy-Cons' as BTN_DPAD_*
        // (both read); ZL/ZR are digital only.
        case .nintendo: LocalPadControlLayout(dpadHat: true, leftTrigger: nil, rightTrigger: nil)
        // hid-steam (Deck): d-pad as BTN_DPAD_*, ABS_HAT0/1 are the trackpads (not read),
        // L2 on ABS_HAT2Y and R2 on ABS_HAT2X (0…32767).
        case .steam: LocalPadControlLayout(dpadHat: false, leftTrigger: 0x15, rightTrigger: 0x14)
        }
    }
}

/// Where a driver puts the d-pad and the analog triggers on its gamepad node.
package struct LocalPadControlLayout: Sendable, Hashable {
    package var dpadHat: Bool
    package var leftTrigger: UInt16?
    package var rightTrigger: UInt16?
}
