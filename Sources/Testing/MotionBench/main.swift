// MotionBench: the raw-sensor motion path measured two ways (docs/BENCHMARKS.md).
//
//     swift build -c release --product MotionBench
//     .build/release/MotionBench              speed: nanoseconds per sample (SpeedBench.swift)
//     .build/release/MotionBench fuse < trace accuracy: orientations for a trace (FuseTrace.swift;
//                                             scripts/bench-fusion.sh runs it beside VQF)
import Foundation

func printError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "fuse" {
    exit(runFuseTrace(arguments: Array(arguments.dropFirst())))
}
runSpeedBench()
