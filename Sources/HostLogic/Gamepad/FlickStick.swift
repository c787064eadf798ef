import Foundation
import RemotionProtocol

/// Flick stick (JoyShockMapper's FLICK_STICK, GyroWiki's "The Flick Stick"; docs/GAMEPAD.md):
/// the controller's right stick points where the camera should face. Pushing it past the
/// threshold turns the camera at once by the stick's angle from straight ahead (spread over
/// `flickTime`, 0.1 s by default, so the game sees a fast turn, not a teleport); rotating the
/// held stick then turns the camera one to one (a quarter circle of the stick is a quarter
/// turn); letting go does nothing. Gyro then aims finely from wherever the flick left off.
///
/// The output is mouse counts on x: the game's counts per full turn are calibrated once
/// (`countsPerTurn`, JSM's REAL_WORLD_CALIBRATION × IN_GAME_SENS). Sans-IO: the stick and
/// the time in, counts and the next deadline out; the host calls `advance(to:)` at the
/// deadline while a flick is under way.
///
/// Directions: the stick as HID reads it (x right, y down). Straight ahead is up; the angle
/// grows clockwise, so a stick pushed right is +90° and turns the camera right (+x counts).
package struct FlickStick: Hashable, Sendable {
    /// A flick's angle as it is, or rounded to the nearest of 4 or 8 directions.
    package enum Snap: String, Hashable, Sendable, Codable, CaseIterable {
        case none, four = "4", eight = "8"

        var directions: Int { self == .four ? 4 : self == .eight ? 8 : 0 }
    }

    package struct Settings: Hashable, Sendable {
        /// Mouse counts that turn the camera a full 360° in the game.
        package var countsPerTurn: Float
        /// How long a flick takes.
        package var flickTime: Duration = .milliseconds(100)
        /// Stick magnitude (0…1) that starts a flick; it ends below `threshold − 0.1`.
        package var threshold: Float = 0.9
        /// Flicks within this many degrees of straight ahead do not turn (rotation still does).
        package var forwardDeadzoneDegrees: Float = 0
        /// Round a flick's angle to the nearest of 4 or 8 directions.
        package var snap: Snap = .none
        /// How often the host calls back while a flick is under way.
        package var tick: Duration = .milliseconds(4)

        package init(countsPerTurn: Float, flickTime: Duration = .milliseconds(100), threshold: Float = 0.9,
                     forwardDeadzoneDegrees: Float = 0, snap: Snap = .none) {
            self.countsPerTurn = countsPerTurn
            self.flickTime = flickTime
            self.threshold = threshold
            self.forwardDeadzoneDegrees = forwardDeadzoneDegrees
            self.snap = snap
        }

        /// Why a setting is refused (config.toml names the key).
        package var problem: String? {
            guard countsPerTurn.isFinite, countsPerTurn >= 1, countsPerTurn <= 10_000_000 else {
                return "counts-per-turn must be from 1 to 10000000"
            }
            let ms = flickTime.nanoseconds / 1_000_000
            guard ms >= 0, ms <= 1_000 else { return "flick-time must be from 0 to 1 (seconds)" }
            guard threshold.isFinite, threshold >= 0.2, threshold <= 1 else { return "flick-threshold must be from 0.2 to 1" }
            guard forwardDeadzoneDegrees.isFinite, forwardDeadzoneDegrees >= 0, forwardDeadzoneDegrees < 90 else {
                return "flick-forward-deadzone must be from 0 to 89 (degrees)"
            }
            return nil
        }
    }

    /// What one call gives: whole mouse counts to move on x now, and when to call again.
    package struct Output: Hashable, Sendable {
        package var counts: Int32
        package var nextDeadline: Instant?

        package init(counts: Int32, nextDeadline: Instant?) {
            self.counts = counts
            self.nextDeadline = nextDeadline
        }
    }

    package let settings: Settings
    private var engaged = false
    private var lastAngle: Float = 0
    private var flick: Flick?
    private var carry: Float = 0   // the fraction of a count not yet sent

    private struct Flick: Hashable, Sendable {
        var start: Instant
        var angle: Float   // radians, signed
        var done: Float    // progress already turned, 0…1
    }

    package init(_ settings: Settings) { self.settings = settings }

    /// A new stick position (x right, y down; −1…1).
    package mutating func stick(x: Float, y: Float, at now: Instant) -> Output {
        var turn: Float = 0   // radians
        let magnitude = (x * x + y * y).squareRoot()
        if magnitude.isFinite, magnitude >= (engaged ? settings.threshold - 0.1 : settings.threshold) {
            let angle = atan2(x, -y)
            if engaged {
                turn += Self.wrapped(angle - lastAngle)   // one to one
            } else {
                engaged = true
                let aimed = snapped(angle)
                if abs(aimed) * 180 / .pi > settings.forwardDeadzoneDegrees {
                    if let running = flick { turn += running.angle * (1 - running.done) }   // finish the old one now
                    flick = Flick(start: now, angle: aimed, done: 0)
                }
            }
            lastAngle = angle
        } else {
            engaged = false
        }
        return finish(turn: turn, at: now)
    }

    /// The flick's progress at `now` (call at `nextDeadline`).
    package mutating func advance(to now: Instant) -> Output { finish(turn: 0, at: now) }

    /// The controller left or the mode changed: nothing more turns.
    package mutating func reset() {
        engaged = false
        flick = nil
        carry = 0
    }

    private mutating func finish(turn: Float, at now: Instant) -> Output {
        var turn = turn
        var deadline: Instant?
        if var running = flick {
            let total = settings.flickTime.nanoseconds
            let elapsed = (now - running.start).nanoseconds
            let progress: Float = total <= 0 || elapsed >= total ? 1 : Float(max(0, elapsed)) / Float(total)
            turn += running.angle * (progress - running.done)
            running.done = progress
            if progress < 1 {
                flick = running
                let end = running.start + settings.flickTime
                deadline = min(now + settings.tick, end)
            } else {
                flick = nil
            }
        }
        let exact = carry + turn / (2 * .pi) * settings.countsPerTurn
        let whole = exact.rounded()   // the nearest: a carry of 0.9999 from float steps is a count
        carry = exact - whole
        let counts = whole.isFinite ? Int32(max(-1_000_000, min(1_000_000, whole))) : 0
        return Output(counts: counts, nextDeadline: deadline)
    }

    private func snapped(_ angle: Float) -> Float {
        guard settings.snap != .none else { return angle }
        let step = 2 * Float.pi / Float(settings.snap.directions)
        return Self.wrapped((angle / step).rounded() * step)
    }

    /// An angle in −π…π.
    static func wrapped(_ a: Float) -> Float {
        var a = a.truncatingRemainder(dividingBy: 2 * .pi)
        if a > .pi { a -= 2 * .pi } else if a < -.pi { a += 2 * .pi }
        return a
    }
}
