#if canImport(Glibc)
import Glibc
import RemotionProtocol

// The in-process core benchmark (scripts/bench.sh, docs/BENCHMARKS.md): nanoseconds and
// allocations per motion packet through framing → HostStateMachine → MotionMapper →
// Injector(null backend), plain and Noise IK, one controller, no socket; then the plain packet
// with the caches cold between packets (ColdBench), as the host meets it at controller rates.
//
//   remotion-core-bench [PACKETS] [ROUNDS]          (default 200000 packets, 5 rounds)
// Allocations are counted when e2e/bench/malloc-count.c is preloaded (LD_PRELOAD);
// otherwise that column says "n/a". Prints the median round.

typealias CountFunction = @convention(c) () -> UInt
let mallocCount: CountFunction? = dlsym(dlopen(nil, RTLD_NOW), "remotion_malloc_count")
    .map { unsafeBitCast($0, to: CountFunction.self) }

func nanos() -> Int64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
}

struct Round { var nsPerPacket: Double; var allocationsPerPacket: Double?; var injected: Int }

func measure<F>(_ name: String, packets: Int, rounds: Int, setup: (Int) -> (CoreHarness<F>, [[UInt8]])) -> Round {
    var results: [Round] = []
    for _ in 0..<rounds {
        let (host, datagrams) = setup(packets)
        let a0 = mallocCount?()
        let t0 = nanos()
        for d in datagrams { host.receive(d) }
        let t1 = nanos()
        let a1 = mallocCount?()
        let allocations = a0.flatMap { a in a1.map { Double($0 - a) / Double(datagrams.count) } }
        results.append(Round(nsPerPacket: Double(t1 - t0) / Double(datagrams.count), allocationsPerPacket: allocations,
                             injected: host.injected))
    }
    let median = results.sorted { $0.nsPerPacket < $1.nsPerPacket }[rounds / 2]
    let allocations = median.allocationsPerPacket.map { String(format: "%.2f", $0) } ?? "n/a"
    print("core \(name): \(String(format: "%.0f", median.nsPerPacket)) ns per motion packet, \(allocations) allocations per packet, \(median.injected) of \(packets) injected (median of \(rounds) rounds)")
    return median
}

let args = CommandLine.arguments
let packets = args.count > 1 ? max(1, Int(args[1]) ?? 200_000) : 200_000
let rounds = args.count > 2 ? max(1, Int(args[2]) ?? 5) : 5
let plain = measure("plain", packets: packets, rounds: rounds, setup: CoreSetup.plain(count:))
let noise = measure("noise", packets: packets, rounds: rounds, setup: CoreSetup.noise(count:))
let cold = ColdBench.measure("plain", packets: min(packets, 20_000), setup: CoreSetup.plain(count:))
print(String(format: "core plain cold/hot: %.1f", cold / plain.nsPerPacket))
print(String(format: "core noise/plain: %.2f (%+.0f%%)", noise.nsPerPacket / plain.nsPerPacket,
             100 * (noise.nsPerPacket / plain.nsPerPacket - 1)))
let pad = PadBench.measure(samples: packets, rounds: rounds)
print(String(format: "core pad/plain: %.2f (a sample to a virtual pad's report vs a packet to the pointer)", pad / plain.nsPerPacket))
let pipeline = PipelineBench.measure(samples: packets, rounds: rounds, pads: false)
let pipelinePad = PipelineBench.measure(samples: packets, rounds: rounds, pads: true)
print(String(format: "core pipeline+pad/pipeline: %.2f (the pipeline with a virtual pad per session vs without)", pipelinePad / pipeline))
// The same inputs without the pad: what the pad itself adds to a sample in the pipeline, next
// to the pad's step alone (`core pad`: feed, report, write).
let pipelinePadInputs = PipelineBench.measure(samples: packets, rounds: rounds, pads: false, padInputs: true)
print(String(format: "core pipeline's pad step: %.0f ns (pipeline+pad minus the same inputs without a pad; core pad alone %.0f ns)",
             pipelinePad - pipelinePadInputs, pad))
#endif
