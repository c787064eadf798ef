import Foundation
import RemotionProtocol

/// Gyro as a thumbstick, for games that read a stick and no gyro (JoyShockMapper's virtual
/// stick, docs/GAMEPAD.md "Gyro as the right stick"): the controller's turning rate deflects
/// the stick in proportion, so turning the controller turns the camera at the game's stick
/// speed. Sans-IO: a rate in, a stick out.
///
/// - `side`: which of the pad's sticks it deflects (the right one by default; per profile,
///   `gyro_stick.target`).
/// - `fullRate`: the rate (°/s) that means full deflection (JSM's VIRTUAL_STICK_CALIBRATION,
///   360 by default).
/// - `undeadzoneInner`: where the output starts (0…1): a game ignores small deflections (its
///   inner deadzone), so the smallest turn jumps past it instead of doing nothing.
/// - `undeadzoneOuter`: how far short of full the output stops (0…1), for a game whose
///   outer deadzone already reads full.
/// - `unpower`: undoes a game's power curve on the stick (its exponent; 1 or less: none), so
///   the camera turns in proportion to the controller.
///
/// Directions, in the pad's frame (x right, y up out of the face, z toward the player):
/// turning right (about −y) pushes the stick right, lifting the far edge (about +x) pushes
/// it up (y −1, as HID reads up).
package struct GyroStick: Hashable, Sendable {
    package var fullRate: Float = 360
    package var undeadzoneInner: Float = 0
    package var undeadzoneOuter: Float = 0
    package var unpower: Float = 1
    package var side: GamepadStickSide = .right

    package init(fullRate: Float = 360, undeadzoneInner: Float = 0, undeadzoneOuter: Float = 0, unpower: Float = 1,
                 side: GamepadStickSide = .right) {
        self.fullRate = fullRate
        self.undeadzoneInner = undeadzoneInner
        self.undeadzoneOuter = undeadzoneOuter
        self.unpower = unpower
        self.side = side
    }

    /// The largest undeadzone either side (`[gamepad]` and `gyro_stick.*` alike).
    package static let maxUndeadzone: Float = 0.99

    /// Why a setting is refused (config.toml's `[gamepad]` names the key).
    package static func problem(fullRate: Float, inner: Float, outer: Float, unpower: Float) -> String? {
        guard fullRate.isFinite, fullRate >= 1, fullRate <= 10_000 else { return "stick-rate must be from 1 to 10000 (°/s)" }
        guard inner.isFinite, outer.isFinite, inner >= 0, outer >= 0, inner <= maxUndeadzone, outer <= maxUndeadzone,
              inner + outer < 1 else {
            return "undeadzone-inner and undeadzone-outer must each be from 0 to 0.99, together less than 1"
        }
        guard unpower.isFinite, unpower >= 0, unpower <= 10 else { return "unpower must be from 0 to 10" }
        return nil
    }

    /// The stick for an angular rate (°/s, pad frame).
    package func stick(for rate: Vector3) -> GamepadState.Stick {
        let x = -rate.y / fullRate, y = -rate.x / fullRate
        let magnitude = (x * x + y * y).squareRoot()
        guard magnitude.isFinite, magnitude > 0 else { return .centre }
        let linear = min(1, magnitude)
        let shaped = unpower > 1 ? Float(pow(Double(linear), 1 / Double(unpower))) : linear
        let out = undeadzoneInner + (1 - undeadzoneInner - undeadzoneOuter) * shaped
        return GamepadState.Stick(x: x / magnitude * out, y: y / magnitude * out)
    }
}
