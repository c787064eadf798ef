import RemotionProtocol
import RemotionHostLogic
import Synchronization

/// What the host shows about itself and its controllers: read by the terminal status
/// view and the web dashboard, written by the host's loop. Off the injection path:
/// readers copy a value, they never wait for or call into the loop.
package struct HostSnapshot: Sendable, Codable, Equatable {
    package var hostName: String = ""
    package var listen: String = ""
    package var injector: String = ""
    package var settings = MappingSettings()
    package var controllers: [ControllerSnapshot] = []
    package var drops: [String: Int] = [:]
    /// Seconds since the host started.
    package var uptime: Double = 0
    /// Dashboard requests refused (wrong Host or Origin, not JSON), by reason.
    package var dashboardRefusals: [String: Int] = [:]
    package init() {}
}

package struct ControllerSnapshot: Sendable, Codable, Equatable {
    package var session: String
    /// The name the controller paired under ("" when unknown, e.g. a plain session).
    package var name: String = ""
    package var address: String
    package var state: String
    package var attitude: [Double]?          // roll, pitch, yaw (radians)
    package var pointer: [Int]?              // x, y
    package var buttons: String              // letters held, e.g. "AB"
    package var held: [String]               // OS inputs held for this controller ("mouse:left", "key:Left", ...)
    package var packetRate: Double
    package var lossPercent: Double
    package var latencyP50Ms: Double
    package var latencyP99Ms: Double
    /// Counts per latency bucket; bucket i covers [edges[i], edges[i+1]) milliseconds.
    package var latencyHistogram: [Int]
    package var motionPackets: Int
    package var buttonEdges: Int
    /// The most recent pointer positions, oldest first.
    package var trail: [[Int]]
    /// Something the user should know, e.g. that pointer mode needs an attitude this
    /// controller does not send.
    package var note: String? = nil
    /// Gyro calibration, rest and clutch; nil until the controller sent gyro rates.
    package var gyro: GyroStatus? = nil

    package static let histogramEdgesMs: [Double] = [0, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64]
}

/// The one place a snapshot lives between the host's loop and its readers.
package final class SnapshotPublisher: Sendable {
    private let state = Mutex(HostSnapshot())
    private let version = Atomic<Int>(0)

    package init() {}

    package func publish(_ snapshot: HostSnapshot) {
        state.withLock { $0 = snapshot }
        version.add(1, ordering: .releasing)
    }

    package func current() -> HostSnapshot { state.withLock { $0 } }

    /// Increases with every publish: readers compare it to skip unchanged snapshots.
    package var generation: Int { version.load(ordering: .acquiring) }
}
