#if canImport(Glibc)
import Glibc
import RemotionHostLogic
import RemotionProtocol

/// The host pipeline's per-sample cost in process: `PipelineCore.motion`
/// (the session table, telemetry with its latency histogram, the mapper, the pad's state
/// with `pads`), its parts routed as `HostPipeline` routes them — the pointer to the injector
/// directly and to any other input output, pad states to the outputs of their kind behind a
/// protocol — to `Injector` (null backend) and, with `pads`, to a
/// `DualSensePad` whose report is written to /dev/null. One open session. `padInputs`: the
/// samples and settings of the pad run (acceleration, the gyro on the right stick) without a
/// pad, so that the pad's own step in the pipeline is the difference of the two runs.
enum PipelineBench {
    protocol Output: AnyObject {
        var accepts: PipelineOutput.Kind { get }
        func perform(_ output: PipelineOutput, session: SessionID)
    }

    final class InjectorSink: Output {
        let injector = Injector(backend: NullBackend())
        var injected = 0
        var accepts: PipelineOutput.Kind { .input }
        func perform(_ output: PipelineOutput, session: SessionID) {
            if case let .input(event) = output { inject(event, session: session) }
        }
        func inject(_ event: InputEvent, session: SessionID) {
            if (try? injector.apply(event, session: session)) != nil { injected += 1 }
        }
    }

    final class PadSink: Output {
        var pad = DualSensePad(identity: "bench")
        var report: [UInt8] = []   // reused, as UHIDDualSense reuses its buffers
        let sink = open("/dev/null", O_WRONLY)
        var bytes = 0
        init() { _ = pad.handle(.start) }
        deinit { close(sink) }
        var accepts: PipelineOutput.Kind { .pad }
        func perform(_ output: PipelineOutput, session: SessionID) {
            guard case let .pad(state) = output else { return }
            guard pad.input(state, into: &report) else { return }
            bytes += report.withUnsafeBytes { write(sink, $0.baseAddress, $0.count) }
        }
    }

    static func measure(samples count: Int, rounds: Int, pads: Bool, padInputs: Bool? = nil) -> Double {
        let padInputs = padInputs ?? pads
        let samples = (0..<count).map { i in
            let t = Double(i) / 1000
            return MotionSample(timestampMicros: UInt64(i) * 500,
                                attitude: Attitude(roll: 0, pitch: 0.2 * sin(t), yaw: 0.3 * sin(2 * t)),
                                gyro: Vector3(x: 0.1, y: Float(i % 100) / 50 - 1, z: 0.2),
                                acceleration: padInputs ? Vector3(x: 0, y: 0, z: 1) : nil)
        }
        let id = SessionID(0x5eed_0001)
        var results: [Double] = []
        var injected = 0
        for _ in 0..<rounds {
            var profile = MappingProfile()
            if padInputs { profile.settings.gyroStick.target = .right }   // the pad path with the gyro on its stick
            var core = PipelineCore(profile: profile, keepsTrails: true, pads: pads ? VirtualPadSettings() : nil)
            let injector = InjectorSink()
            let outputs: [any Output] = pads ? [injector, PadSink()] : [injector]
            let otherInputOutputs = outputs.filter { $0 !== injector && $0.accepts.contains(.input) }
            let padOutputs = outputs.filter { $0.accepts.contains(.pad) }
            var pending: [PipelineOutput] = []
            var now = Instant(nanoseconds: 1_000_000_000)
            core.open(id, address: "127.0.0.1:50000", identity: "bench", now: now, into: &pending)
            pending.removeAll(keepingCapacity: true)
            let t0 = nanos()
            for s in samples {
                now = now + .microseconds(500)
                let m = core.motion(id, s, latencyMicros: 40, screen: injector.injector.screen, now: now)
                if let event = m.pointer {
                    injector.inject(event, session: id)
                    for o in otherInputOutputs { o.perform(.input(event), session: id) }
                }
                if let state = m.pad { for o in padOutputs { o.perform(.pad(state), session: id) } }
            }
            results.append(Double(nanos() - t0) / Double(count))
            injected = injector.injected
        }
        let median = results.sorted()[rounds / 2]
        let name = pads ? "+pad" : padInputs ? " (the pad run's inputs, no pad)" : ""
        print("core pipeline\(name): \(String(format: "%.0f", median)) ns per sample "
              + "(PipelineCore, telemetry, trail, routed to the null injector\(pads ? " and a DualSense report to /dev/null" : "")), "
              + "\(injected) of \(count) injected (median of \(rounds) rounds)")
        return median
    }
}
#endif
