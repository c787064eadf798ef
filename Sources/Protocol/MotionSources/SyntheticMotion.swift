import RealModule

/// A motion source: attitude (and its rates) as a function of time since streaming began.
public protocol MotionSource: Sendable {
    func sample(at t: Double) -> MotionReading
    /// How long the source lasts (a replayed trace), or nil for endless.
    var length: Double? { get }
}

public struct MotionReading: Sendable, Equatable {
    public var attitude: Attitude
    /// Rates in rad/s (x pitch, y roll, z yaw).
    public var gyro: Vector3
    /// Buttons the source itself holds (a replayed trace); nil when it says nothing.
    public var buttons: ButtonSet?
    public init(attitude: Attitude, gyro: Vector3, buttons: ButtonSet? = nil) {
        self.attitude = attitude; self.gyro = gyro; self.buttons = buttons
    }
}

/// Smooth generated trajectories with optional Gaussian sensor noise (seeded).
public struct SyntheticMotion: MotionSource {
    public enum Shape: String, Sendable, CaseIterable {
        case still, circle, figureEight = "figure-eight", sweep
    }

    public var shape: Shape
    /// Standard deviation of the noise added to each angle, radians.
    public var noise: Double
    public var seed: UInt64
    /// Yaw and pitch amplitude, radians.
    public var amplitude: Double = 0.3
    /// Seconds per cycle.
    public var period: Double = 2.0

    public init(shape: Shape, noise: Double = 0, seed: UInt64 = 1) {
        self.shape = shape; self.noise = noise; self.seed = seed
    }

    public var length: Double? { nil }

    public func sample(at t: Double) -> MotionReading {
        let w = 2 * Double.pi / period
        let a = amplitude
        var yaw = 0.0, pitch = 0.0, yawRate = 0.0, pitchRate = 0.0
        switch shape {
        case .still:
            break
        case .circle:
            yaw = a * .sin(w * t); yawRate = a * w * .cos(w * t)
            pitch = a * 0.6 * (.cos(w * t) - 1); pitchRate = -a * 0.6 * w * .sin(w * t)
        case .figureEight:
            yaw = a * .sin(w * t); yawRate = a * w * .cos(w * t)
            pitch = a * 0.5 * .sin(2 * w * t); pitchRate = a * w * .cos(2 * w * t)
        case .sweep:
            // Triangle wave between -a and +a.
            let phase = (t / period).truncatingRemainder(dividingBy: 1)
            let rising = phase < 0.5
            yaw = rising ? -a + 4 * a * phase : 3 * a - 4 * a * phase
            yawRate = (rising ? 4 : -4) * a / period
        }
        if noise > 0 {
            var rng = SplitMix64(seed: seed ^ UInt64(bitPattern: Int64(t * 1e6)))
            yaw += noise * rng.nextGaussian()
            pitch += noise * rng.nextGaussian()
        }
        return MotionReading(attitude: Attitude(roll: 0, pitch: pitch, yaw: yaw),
                             gyro: Vector3(x: Float(pitchRate), y: 0, z: Float(yawRate)))
    }
}

extension SplitMix64 {
    /// A standard normal deviate (Box–Muller), for synthetic sensor noise.
    public mutating func nextGaussian() -> Double {
        let u1 = max(Double.leastNonzeroMagnitude, nextUnit())
        let u2 = nextUnit()
        return (-2 * Double.log(u1)).squareRoot() * Double.cos(2 * Double.pi * u2)
    }
}
