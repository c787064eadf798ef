import Dispatch
import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork
import Synchronization

/// What the host's loop hands over every 100 ms for a status snapshot: copies of its
/// own values (copy-on-write: a few retains, no per-controller work on the loop).
/// `HostSnapshot(_:)` turns them into the snapshot off the loop.
package struct SnapshotInputs: Sendable {
    var hostName: String
    var listen: String
    var injector: String
    var settings: MappingSettings
    var uptime: Double
    var drops: DropCounters
    var kernelDrops: Int
    var sessions: [SessionID: HostSession<SocketAddress>]
    var telemetry: [SessionID: SessionTelemetry]
    var held: [SessionID: Set<HeldInput>]
    var trails: [SessionID: PointerTrail]
    /// Drops counted by the adapters (DSU sources and server), by "label reason".
    var adapterDrops: [String: Int] = [:]
    /// Each controller's gyro calibration, rest and clutch (small values, copied on the loop).
    var gyro: [SessionID: GyroStatus] = [:]
}

/// Builds and publishes snapshots on its own serial queue, so percentiles, histograms,
/// trails and strings for many controllers never stall the loop that injects (issue 14:
/// 8–15 ms per snapshot with 64 sessions, on the loop, before). If the queue falls
/// behind, only the newest inputs are built.
package final class SnapshotBuilder: Sendable {
    private let publisher: SnapshotPublisher
    private let queue = DispatchQueue(label: "remotion.snapshot")
    private let pending = Mutex<SnapshotInputs?>(nil)

    package init(publisher: SnapshotPublisher) { self.publisher = publisher }

    /// Called on the host's loop: hands the inputs over and returns at once.
    package func submit(_ inputs: SnapshotInputs) {
        let wasIdle = pending.withLock { slot in
            defer { slot = inputs }
            return slot == nil
        }
        guard wasIdle else { return }
        queue.async { [self] in
            guard let newest = pending.withLock({ slot in defer { slot = nil }; return slot }) else { return }
            publisher.publish(HostSnapshot(newest))
        }
    }

    /// Waits until everything submitted so far is published (tests, shutdown).
    package func drain() { queue.sync {} }
}

extension HostSnapshot {
    package init(_ inputs: SnapshotInputs) {
        self.init()
        hostName = inputs.hostName
        listen = inputs.listen
        injector = inputs.injector
        settings = inputs.settings
        uptime = inputs.uptime
        drops = Dictionary(uniqueKeysWithValues: inputs.drops.counts.map { ("\($0.key)", $0.value) })
        // Datagrams the kernel discarded (receive buffer full) never reached the protocol.
        if inputs.kernelDrops > 0 { drops["kernel-receive-buffer"] = inputs.kernelDrops }
        for (reason, n) in inputs.adapterDrops { drops[reason, default: 0] += n }
        controllers = inputs.telemetry.keys.sorted().compactMap { id in
            guard let t = inputs.telemetry[id] else { return nil }
            let stats = inputs.sessions[id]?.stats
            let received = stats?.motionPackets ?? 0
            let lost = stats?.motionGaps ?? 0
            return ControllerSnapshot(
                session: "\(id)", name: t.name, address: t.address, state: "connected",
                attitude: t.attitude.map { [$0.roll, $0.pitch, $0.yaw] },
                pointer: t.pointer.map { [$0.x, $0.y] },
                buttons: t.buttons.buttons.map(\.letter).joined(),
                held: (inputs.held[id] ?? []).sorted().map(\.label),
                packetRate: t.packetRate,
                lossPercent: received + lost == 0 ? 0 : 100 * Double(lost) / Double(received + lost),
                latencyP50Ms: Double(t.latencyP50Micros) / 1000, latencyP99Ms: Double(t.latencyP99Micros) / 1000,
                latencyHistogram: HostPipeline.buckets(t),
                motionPackets: t.motionPackets, buttonEdges: t.buttonEdges,
                trail: inputs.trails[id]?.points ?? [], note: t.note, gyro: inputs.gyro[id])
        }
    }
}
