// `MotionBench fuse [name=value ...]`: the host's raw-sensor path (calibration, rest gate,
// fusion: `RawMotionPipeline` with the host's defaults) over a trace read from standard
// input, one orientation per sample on standard output. scripts/bench-fusion.sh feeds it
// the seeded hand-held traces of e2e/bench/fusion_bench.py and runs VQF on the same samples.
//
//   in:  t_us,gx,gy,gz,ax,ay,az      gyro rad/s, proper acceleration in g (body frame:
//                                     x right, y forward, z up); lines starting '#' skipped
//   out: w,x,y,z,rest                the body → world quaternion, 1 when the rest gate held
//
// The names set `SensorFusion.Settings` fields, so a bench run can compare parameters
// without a rebuild; the defaults are the host's.
import RemotionHostLogic
import RemotionProtocol

func runFuseTrace(arguments: [String]) -> Int32 {
    var settings = RawMotionPipeline.Settings()
    for argument in arguments {
        let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, let value = Double(parts[1]), value.isFinite else {
            printError("MotionBench fuse: '\(argument)' is not name=number"); return 2
        }
        switch parts[0] {
        case "rest_gate": settings.restGate = value != 0
        default:
            guard settings.fusion.set(parts[0], to: value) else {
                printError("MotionBench fuse: no fusion setting '\(parts[0])' (\(SensorFusion.Settings.tunable.joined(separator: ", ")), rest_gate)")
                return 2
            }
        }
    }
    var pipeline = RawMotionPipeline(settings: settings)
    var lineNumber = 0
    while let line = readLine(strippingNewline: true) {
        lineNumber += 1
        if line.isEmpty || line.hasPrefix("#") { continue }
        let f = line.split(separator: ",")
        let numbers = f.dropFirst().compactMap { Float(String($0)) }
        guard f.count == 7, let t = UInt64(String(f[0])), numbers.count == 6 else {
            printError("MotionBench fuse: line \(lineNumber) is not t_us,gx,gy,gz,ax,ay,az"); return 2
        }
        let sample = MotionSample(timestampMicros: t,
                                  gyro: Vector3(x: numbers[0], y: numbers[1], z: numbers[2]),
                                  acceleration: Vector3(x: numbers[3], y: numbers[4], z: numbers[5]))
        let out = pipeline.process(sample)
        let q = out.orientation ?? .identity
        print("\(q.w),\(q.x),\(q.y),\(q.z),\(out.atRest ? 1 : 0)")
    }
    return 0
}
