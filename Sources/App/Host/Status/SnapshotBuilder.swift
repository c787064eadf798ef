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
    /// The protocol's sessions (loss counts) and the pipeline's records (copy-on-write).
    var protocolSessions: [SessionID: HostSession<SocketAddress>]
    var sessions: [SessionID: PipelineSession]
    var held: [SessionID: Set<HeldInput>]
    /// When these inputs were taken (the host's clock).
    var now: Instant
    /// Drops counted by the adapters (DSU sources and server, local and virtual pads, the slots).
    var adapterDrops: [HostDrop: Int] = [:]
    /// The host makes virtual pads (`--gamepad`): each controller says whether it has one.
    var padsAvailable = false
    /// What `--local-pads` reads and skips (nil: not asked for).
    var localPads: LocalPadInventory?
    /// The focused application and the `[[profile]]`s (`HostEngine.focused`, `profiles`).
    var focused: FocusedApp?
    var profiles = FocusProfiles()
    /// The outputs the injector knows and the one the pointer covers (nil: the injector has none).
    var outputs: PointerOutputs?
}

/// Builds and publishes snapshots on its own serial queue, so percentiles, histograms,
/// trails and strings for many controllers never stall the loop that injects (on that
/// loop, building them took 8–15 ms per snapshot with 64 sessions). If the queue falls
/// behind, only the newest inputs are built.
package final class SnapshotBuilder: Sendable {
    private let publisher: SnapshotPublisher
    private let queue = DispatchQueue(label: "remotion.snapshot")
    private let pending = Mutex<SnapshotInputs?>(nil)
    private let submitted = Atomic<Int>(0)

    package init(publisher: SnapshotPublisher) { self.publisher = publisher }

    /// How many inputs were handed over so far (each one built, unless a newer replaced it).
    package var submissions: Int { submitted.load(ordering: .relaxed) }

    /// Called on the host's loop: hands the inputs over and returns at once.
    package func submit(_ inputs: SnapshotInputs) {
        submitted.add(1, ordering: .relaxed)
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

    /// Returns once everything submitted before the call is published, without holding a
    /// thread (a reader that arrived waits for its snapshot so): the queue is serial, and
    /// the inputs submitted last are built by a block queued before this one.
    package func published() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in queue.async { done.resume() } }
    }
}

extension HostSnapshot {
    package init(_ inputs: SnapshotInputs) {
        self.init()
        hostName = inputs.hostName
        listen = inputs.listen
        injector = inputs.injector
        settings = inputs.settings
        uptime = inputs.uptime
        drops = [:]
        drops.add(inputs.drops.counts, as: HostDrop.wire)
        // Datagrams the kernel discarded (receive buffer full) never reached the protocol.
        if inputs.kernelDrops > 0 { drops[.kernelReceiveBuffer] = inputs.kernelDrops }
        drops.add(inputs.adapterDrops) { $0 }
        localPads = inputs.localPads
        focusedApp = inputs.focused?.instance
        profiles = inputs.profiles.list.map(ProfileSummary.init)
        outputs = inputs.outputs
        controllers = inputs.sessions.keys.sorted().compactMap { id in
            guard let s = inputs.sessions[id] else { return nil }
            let t = s.telemetry
            let stats = inputs.protocolSessions[id]?.stats
            let received = stats?.motionPackets ?? 0
            let lost = stats?.motionGaps ?? 0
            var c = ControllerSnapshot(session: id, address: t.address)
            c.name = t.name
            c.attitude = t.attitude
            c.pointer = t.pointer.map { ScreenPoint(x: $0.x, y: $0.y) }
            c.buttons = t.buttons
            c.held = (inputs.held[id] ?? []).sorted()
            c.packetRate = t.packetRate
            c.lossPercent = received + lost == 0 ? 0 : 100 * Double(lost) / Double(received + lost)
            c.latencyP50Ms = t.latencyP50Micros.map { Double($0) / 1000 }
            c.latencyP99Ms = t.latencyP99Micros.map { Double($0) / 1000 }
            c.latencyHistogram = HostPipeline.buckets(t)
            c.motionPackets = t.motionPackets
            c.buttonEdges = t.buttonEdges
            c.trail = s.trail?.points ?? []
            c.note = t.note
            c.gyro = s.mapper.gyroStatus
            c.gyro?.calibrationAgeSeconds = s.calibrationAge(now: inputs.now)
            c.mode = s.mapper.settings.mode
            c.pad = inputs.padsAvailable ? s.pad != nil : nil
            c.profile = s.focusProfile.flatMap { inputs.profiles.list.indices.contains($0) ? inputs.profiles.list[$0].app : nil }
            c.sampleTimestampMicros = t.lastSampleMicros
            c.sampleHostMicros = t.lastSampleHostMicros
            c.sampleAgeMs = t.lastMotion.map { (inputs.now - $0).secondsDouble * 1000 }
            return c
        }
    }
}
