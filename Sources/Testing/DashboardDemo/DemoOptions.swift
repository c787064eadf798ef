import Foundation
import RemotionProtocol

/// The demo's flags (kept tiny: this is a test tool, not the user's CLI).
struct DemoOptions {
    var dashboardPort = 0
    var source = "synthetic:figure-eight"
    var rate = 120.0
    var duration = 30.0
    var portFile: String?
    var linger = 0.0
    var waitBeforeStart = 0.0

    struct Problem: Error, CustomStringConvertible { var description: String }

    static let usage = "usage: remotion-dashboard-demo [--dashboard-port N] [--source synthetic:SHAPE|replay:FILE] "
        + "[--rate HZ] [--duration S] [--port-file PATH] [--wait S] [--linger S]"

    static func parse(_ args: [String]) throws(Problem) -> DemoOptions {
        var o = DemoOptions()
        var i = 0
        func value(_ flag: String) throws(Problem) -> String {
            guard i + 1 < args.count else { throw Problem(description: "\(flag) needs a value; \(usage)") }
            i += 1
            return args[i]
        }
        func number(_ flag: String, _ range: ClosedRange<Double>) throws(Problem) -> Double {
            let text = try value(flag)
            guard let v = Double(text), range.contains(v) else {
                throw Problem(description: "\(flag) \(text): expected a number from \(range.lowerBound) to \(range.upperBound)")
            }
            return v
        }
        while i < args.count {
            switch args[i] {
            case "--dashboard-port": o.dashboardPort = Int(try number("--dashboard-port", 0...65535))
            case "--source": o.source = try value("--source")
            case "--rate": o.rate = try number("--rate", 1...2000)
            case "--duration": o.duration = try number("--duration", 0.1...3600)
            case "--port-file": o.portFile = try value("--port-file")
            case "--linger": o.linger = try number("--linger", 0...3600)
            case "--wait": o.waitBeforeStart = try number("--wait", 0...3600)
            default: throw Problem(description: "unknown argument \(args[i]); \(usage)")
            }
            i += 1
        }
        return o
    }

    func loadSource() throws -> any MotionSource {
        switch try SourceSpec.parse(source) {
        case let .synthetic(shape, noise, seed):
            return SyntheticMotion(shape: shape, noise: noise, seed: seed)
        case let .replay(path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw Problem(description: "--source replay:\(path): cannot read the file")
            }
            return try ReplayTrace(csv: String(decoding: data, as: UTF8.self))
        }
    }
}
