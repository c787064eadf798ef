import RemotionCore
import RemotionMotion
import Synchronization

/// What the host shows about itself and its controllers: read by the terminal status
/// view and the web dashboard, written by the host's loop. Off the injection path:
/// readers copy a value, they never wait for or call into the loop.
public struct HostSnapshot: Sendable, Codable, Equatable {
    public var hostName: String = ""
    public var listen: String = ""
    public var injector: String = ""
    public var settings = MappingSettings()
    public var controllers: [ControllerSnapshot] = []
    public var drops: [String: Int] = [:]
    /// Seconds since the host started.
    public var uptime: Double = 0
    public init() {}
}

public struct ControllerSnapshot: Sendable, Codable, Equatable {
    public var session: String
    public var address: String
    public var state: String
    public var attitude: [Double]?          // roll, pitch, yaw (radians)
    public var pointer: [Int]?              // x, y
    public var buttons: String              // letters held, e.g. "AB"
    public var held: [String]               // OS inputs held for this controller ("left", "Up", ...)
    public var packetRate: Double
    public var lossPercent: Double
    public var latencyP50Ms: Double
    public var latencyP99Ms: Double
    /// Counts per latency bucket; bucket i covers [edges[i], edges[i+1]) milliseconds.
    public var latencyHistogram: [Int]
    public var motionPackets: Int
    public var buttonEdges: Int
    /// The most recent pointer positions, oldest first.
    public var trail: [[Int]]

    public static let histogramEdgesMs: [Double] = [0, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]
}

/// The one place a snapshot lives between the host's loop and its readers.
public final class SnapshotPublisher: Sendable {
    private let state = Mutex(HostSnapshot())
    private let version = Atomic<Int>(0)

    public init() {}

    public func publish(_ snapshot: HostSnapshot) {
        state.withLock { $0 = snapshot }
        version.add(1, ordering: .releasing)
    }

    public func current() -> HostSnapshot { state.withLock { $0 } }

    /// Increases with every publish: readers compare it to skip unchanged snapshots.
    public var generation: Int { version.load(ordering: .acquiring) }
}
