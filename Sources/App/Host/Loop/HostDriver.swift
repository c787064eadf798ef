import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// The driver as the pipeline sees it (on the loop): after work that did not come from a
/// datagram (a controller on another transport came, went or sent something) the driver
/// counts the slots, reports if due and re-arms its one timer.
package protocol HostSinkDriver: AnyObject {
    /// `membership`: a controller opened or closed (its slot, its id, a report at once).
    func sinkChanged(now: Instant, membership: Bool)
    /// The pipeline has a deadline that may come before the one the timer waits for (a
    /// game's rumble held back by its pacer): the timer wakes at `deadline` at the latest.
    func sinkWakes(at deadline: Instant)
    /// Rumble and light to a datagram session's controller, sent at once; false when `id`
    /// is not one.
    func sendFeedback(_ id: SessionID, _ feedback: ControllerFeedback) -> Bool
    /// The protocol's numbers now (what `report(_:now:)` gets every report tick).
    func report() -> HostReport
    /// The static key a datagram session's controller authenticated with (nil: plain, or
    /// not a datagram session).
    func peerKey(of id: SessionID) -> [UInt8]?
}

/// The host's loop driver (quinn's `EndpointDriver`): made on the host's loop before any
/// socket, around the engine's adapter (`HostPipeline`, whose outputs exist already), it owns
/// the host's one timer (armed for the earliest of the engine's `nextDeadline`, the datagram
/// peer's and the report cadence), the one clock (`now`, the loop's time, handed to every
/// call), the status cadence (`reportInterval`) and the slot count (`--max-controllers`, given
/// here once: the engine's and the wire machine's limit). Every transport is its peer: the UDP
/// handler hands it its wire machine's actions (`received`); the page's sessions, DSU slots and
/// local pads reach the pipeline's verbs on this loop with this clock (`HostLoop`), and the
/// pipeline tells the driver (`HostSinkDriver`). On the host's loop only.
package final class HostDriver: HostDatagramDriver, HostSinkDriver, HostSinkHolding {
    package let pipeline: HostPipeline
    package let loop: any EventLoop
    private var timer: DeadlineTimer!
    private weak var peer: (any HostDatagramPeer)?
    private var cadence = ReportCadence()
    private var stopped = false
    /// Controllers at once, of every transport (`--max-controllers`).
    package let slots: Int
    /// Times the one timer fired (what a test reads to see who woke the host).
    package private(set) var wakeUps = 0
    /// How often the status is handed a report while controllers are connected.
    package static var reportInterval: Duration { ReportCadence.interval }

    /// On `loop`, after the outputs (`pipeline` and what it performs into) exist.
    package init(loop: any EventLoop, pipeline: HostPipeline, maximumControllers: Int) {
        self.loop = loop
        self.pipeline = pipeline
        self.slots = maximumControllers
        pipeline.maximumControllers = maximumControllers
        timer = DeadlineTimer(loop: loop) { [weak self] in self?.tick() }
        pipeline.attached(to: self)
    }

    package var sink: HostPipeline { pipeline }
    package var now: Instant { Instant(loop.now) }
    package var maximumControllers: Int? { slots }
    /// The deadline the one timer is armed for (nil: none).
    package var armedDeadline: Instant? { timer.deadline }

    // The UDP socket's side (`HostDatagramDriver`).

    package func attach(_ peer: any HostDatagramPeer, loop: any EventLoop) {
        self.peer = peer
        peer.admit(elsewhere: pipeline.sessionsElsewhere)
        timer.armIfIdle(nextWakeUp)
    }

    package func received(_ action: HostAction<SocketAddress>, now: Instant) {
        switch action {
        case .motion: break
        case .sessionOpened, .sessionClosed: cadence.membershipDidChange()
        default: break
        }
        pipeline.handle(action, now: now)
    }

    package func peerRead(now: Instant) {
        reportIfDue(now: now)
        timer.armIfIdle(nextWakeUp)
    }

    // The pipeline's side (`HostSinkDriver`).

    package func sinkChanged(now: Instant, membership: Bool) {
        if membership {
            peer?.admit(elsewhere: pipeline.sessionsElsewhere)
            cadence.membershipDidChange()
        }
        reportIfDue(now: now)
        timer.armIfIdle(nextWakeUp)
    }

    package func sinkWakes(at deadline: Instant) { timer.armIfEarlier(deadline) }

    package func sendFeedback(_ id: SessionID, _ feedback: ControllerFeedback) -> Bool {
        peer?.sendFeedback(id, feedback) ?? false
    }

    package func report() -> HostReport { peer?.report() ?? .empty }

    package func peerKey(of id: SessionID) -> [UInt8]? { peer?.peerKey(of: id) }

    /// The host stops: the datagram peer says goodbye (each session's release handed to the
    /// engine), the pipeline releases and stops its outputs, the timer stops.
    package func shutdown() {
        guard !stopped else { return }
        stopped = true
        let now = self.now
        peer?.sayGoodbye(now: now)
        pipeline.shutdown(now: now)
        timer.cancel()
    }

    /// The earliest of every origin's deadline, and a report tick while any controller is open.
    private var nextWakeUp: Instant? {
        cadence.nextWakeUp(peer: peer?.nextDeadline, engine: pipeline.nextDeadline,
                           open: (peer?.sessionCount ?? pipeline.sessionsElsewhere.count) > 0)
    }

    private func tick() {
        wakeUps += 1
        let now = self.now
        peer?.tick(now: now)
        pipeline.tick(now: now)
        reportIfDue(now: now)
        timer.arm(nextWakeUp)
    }

    private func reportIfDue(now: Instant) {
        guard cadence.takeReport(now: now) else { return }
        peer?.reportTick()
        guard pipeline.wantsReport else { return }
        pipeline.report(report(), now: now)
    }
}

/// The driver before the sockets, for the outputs made before it (a virtual pad's feedback
/// hops here from the pad's thread): work runs on the host's loop with the pipeline and the
/// driver's clock, once the driver exists (nothing before: no controller can exist then).
package struct HostDriverHandle: Sendable {
    package let eventLoop: any EventLoop
    let box: NIOLoopBoundBox<HostDriver?>

    /// Runs `body` on the host's loop without waiting; calls from one thread run in order.
    package func execute(_ body: @escaping @Sendable (HostPipeline, Instant) -> Void) {
        let box = self.box
        eventLoop.execute { if let driver = box.value { body(driver.pipeline, driver.now) } }
    }
}
