// remotion-dashboard-demo: a loopback host with its web dashboard and one synthetic or
// replayed controller feeding it. Used by scripts/browser-test.sh (inside a network
// namespace with only lo) and to measure injection latency with and without dashboard
// clients (docs/DASHBOARD.md). Prints "dashboard http://127.0.0.1:PORT/" when ready and
// one JSON line of latency numbers when the controller has finished.
import Foundation
import Logging
import NIOCore
import RemotionApp
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("remotion-dashboard-demo: \(message)\n".utf8))
    exit(2)
}

let options: DemoOptions
do { options = try DemoOptions.parse(Array(CommandLine.arguments.dropFirst())) } catch { fail("\(error)") }
let source: any MotionSource
do { source = try options.loadSource() } catch { fail("\(error)") }

var logger = Logger(label: "remotion.dashboard-demo")
logger.logLevel = .warning
let hostLogger = logger
let publisher = SnapshotPublisher()
let screen = ScreenGeometry(width: 1920, height: 1080)

let host = try await HostService<PlainFraming, HostPipeline>.start(
    host: "127.0.0.1", port: 0, makeFraming: { PlainFraming() },
    makeSink: {
        let pipeline = HostPipeline(injector: Injector(backend: VirtualScreenBackend(geometry: screen)),
                                    buttonMap: .seedDefault, settings: MappingSettings(), logger: hostLogger,
                                    injectorReason: "virtual screen", publisher: publisher)
        pipeline.identity = (name: "dashboard-demo", listen: "")
        return pipeline
    })
let listen = host.localAddress.displayText
try await host.onLoop { $0.sink.identity.listen = listen }

let dashboard = DashboardServer(logger: logger)
let dashboardPort: Int
do {
    dashboardPort = try await dashboard.start(host: "127.0.0.1", port: options.dashboardPort, publisher: publisher,
                                              settings: HostLoopSettingsControl(host: host))
} catch { fail("\(error)") }
say("dashboard http://127.0.0.1:\(dashboardPort)/")
if let path = options.portFile {
    _ = FileManager.default.createFile(atPath: path, contents: Data("\(dashboardPort)\n".utf8))
}

if options.waitBeforeStart > 0 { try await Task.sleep(for: .seconds(options.waitBeforeStart)) }
let plan = StreamPlan(source: source, rate: options.rate, duration: options.duration, presses: PressScript(presses: []))
let client = try await ClientService<PlainClientFraming>.start(
    host: host.localAddress, sessionID: SessionID(UInt32.random(in: 1...UInt32.max)), plan: plan,
    makeFraming: { PlainClientFraming() })
var connected = false
var sent = 0
for await event in client.events {
    switch event {
    case .connected: connected = true
    case .finished(let stats): sent = stats.motionSent
    case .timedOut, .disconnected: break
    }
}
await client.close()
try await Task.sleep(for: .milliseconds(100))
let numbers = try await host.onLoop { handler -> [String: Double] in
    guard let t = handler.sink.closed.last?.1 else { return [:] }
    return ["p50_us": Double(t.latencyP50Micros), "p99_us": Double(t.latencyP99Micros),
            "p999_us": Double(t.latency.valueAtPercentile(99.9)), "max_us": Double(t.latency.max),
            "motion": Double(t.motionPackets)]
}
var summary = numbers
summary["sent"] = Double(sent)
summary["connected"] = connected ? 1 : 0
let json = (try? JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])) ?? Data("{}".utf8)
say(String(decoding: json, as: UTF8.self))
if options.linger > 0 { try await Task.sleep(for: .seconds(options.linger)) }
await dashboard.shutdown()
await host.shutdown()
exit(connected ? 0 : 1)
