// Nanoseconds per sample for the raw-sensor path (calibration + fusion + gyro space + rest
// gate + clutch) and for that plus each mode's mapping, through a session's `MotionMapper`
// as the host runs it. docs/BENCHMARKS.md records the figures.
import RemotionHostLogic
import RemotionProtocol

/// `count` samples at 250 Hz: alternating 2 s still and 2 s of random-walk rotation (up
/// to 200 °/s per axis), with bias and noise; the accelerometer follows the orientation.
/// Button C toggles every 2.8 s (for the clutch).
func makeSamples(count: Int, withAttitude: Bool) -> [MotionSample] {
    var rng = SplitMix64(seed: 2026)
    func noise(_ s: Double) -> Double { (rng.nextUnit() + rng.nextUnit() + rng.nextUnit() - 1.5) * 2 * s }
    var q = Quaternion.identity
    var rate = Vec3.zero
    let bias = Vec3(0.017, -0.012, 0.009)
    var samples: [MotionSample] = []
    samples.reserveCapacity(count)
    for i in 0..<count {
        let moving = (i / 500) % 2 == 1
        rate = moving ? (rate + Vec3(noise(0.2), noise(0.2), noise(0.2))).map { min(max($0, -3.5), 3.5) } : .zero
        q = (q + q * Quaternion(w: 0, x: rate.x, y: rate.y, z: rate.z) * 0.002).normalized
        let gyro = rate + bias + Vec3(noise(0.005), noise(0.005), noise(0.005))
        let accel = q.up + Vec3(noise(0.01), noise(0.01), noise(0.01))
        samples.append(MotionSample(timestampMicros: 1_000_000 + UInt64(i) * 4000,
                                    attitude: withAttitude ? q.attitude : nil, gyro: gyro.vector3,
                                    acceleration: withAttitude ? nil : accel.vector3,
                                    buttons: (i / 700) % 2 == 1 ? ButtonSet([.c]) : .none))
    }
    return samples
}

/// Best of `runs` passes over `samples`, in ns per sample.
func measure(_ name: String, runs: Int = 7, samples: [MotionSample], _ body: ([MotionSample]) -> Int) {
    var best = Double.infinity
    var checksum = 0
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let start = clock.now
        checksum &+= body(samples)
        let elapsed = clock.now - start
        let ns = Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9
        best = min(best, ns / Double(samples.count))
    }
    let text = "\((best * 10).rounded() / 10)"
    print("\(name): \(text) ns/sample (best of \(runs) × \(samples.count) samples; checksum \(checksum))")
}

/// Runs a fresh session mapper with `keys` over the samples; the checksum sums its output.
func mapper(_ keys: [(String, String)]) -> ([MotionSample]) -> Int {
    { samples in
        var settings = MappingSettings()
        for (k, v) in keys { try? settings.set(k, to: v) }
        var mapper = MotionMapper(settings: settings)
        var sum = 0
        for s in samples {
            let out = mapper.update(s, screen: ScreenGeometry(width: 1920, height: 1080))
            sum &+= out.moveBy.dx &+ (out.moveTo?.x ?? 0)
        }
        return sum
    }
}

func runSpeedBench() {
    let raw = makeSamples(count: 250_000, withAttitude: false)
    let own = makeSamples(count: 250_000, withAttitude: true)

    measure("Fusion step only (SensorFusion.update)", samples: raw) { samples in
        var fusion = SensorFusion()
        var sum = 0.0
        for s in samples {
            fusion.update(gyro: Vec3(s.gyro!), acceleration: Vec3(s.acceleration!), dt: 0.004)
            sum += fusion.orientation.w
        }
        return Int(sum)
    }
    measure("RawMotionPipeline.process (calibration + fusion + player space)", samples: raw) { samples in
        var pipeline = RawMotionPipeline()
        var sum = 0.0
        for s in samples { sum += pipeline.process(s).yawRate }
        return Int(sum * 1000)
    }
    measure("MotionMapper fps, raw sensors (pipeline + FPS mapping)", samples: raw, mapper([("mode", "fps")]))
    measure("MotionMapper fps, raw sensors, clutch toggle:C", samples: raw,
            mapper([("mode", "fps"), ("fps.clutch", "toggle:C")]))
    measure("MotionMapper pointer, raw sensors (pipeline + fusion + pointer mapping)", samples: raw,
            mapper([("mode", "pointer")]))
    measure("MotionMapper pointer, own attitude + gyro (calibration, no fusion)", samples: own,
            mapper([("mode", "pointer")]))
    measure("MotionMapper fps, own attitude + gyro", samples: own, mapper([("mode", "fps")]))
}
