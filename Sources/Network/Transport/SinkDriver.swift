import NIOCore
import RemotionProtocol

/// The loop driver of a host of one's own (`HostService.start(…, makeSink:)`: a pairing
/// listener, a tool, a test's recording host): the one timer for the wire machine's deadlines
/// and the sink's, the loop's clock and the report cadence, with the actions handed to a
/// `HostEventSink`. Remotion's host runs its engine behind its own driver (App's `HostDriver`);
/// this one knows no engine. On the host's loop only.
public final class SinkDriver<Sink: HostEventSink>: HostDatagramDriver, HostSinkHolding {
    public let sink: Sink
    private var loop: (any EventLoop)?
    private var timer: DeadlineTimer?
    private weak var peer: (any HostDatagramPeer)?
    private var cadence = ReportCadence()
    private var stopped = false

    public init(sink: Sink) { self.sink = sink }

    public var now: Instant { Instant(loop?.now ?? .now()) }
    public var maximumControllers: Int? { nil }

    public func attach(_ peer: any HostDatagramPeer, loop: any EventLoop) {
        self.peer = peer
        self.loop = loop
        timer = DeadlineTimer(loop: loop) { [weak self] in self?.tick() }
    }

    public func received(_ action: HostAction<SocketAddress>, now: Instant) {
        switch action {
        case .sessionOpened, .sessionClosed: cadence.membershipDidChange()
        default: break
        }
        sink.handle(action, now: now)
    }

    public func peerRead(now: Instant) {
        reportIfDue(now: now)
        timer?.armIfIdle(nextWakeUp)
    }

    public func shutdown() {
        guard !stopped else { return }
        stopped = true
        let now = self.now
        peer?.sayGoodbye(now: now)
        sink.shutdown(now: now)
        timer?.cancel()
    }

    private var nextWakeUp: Instant? {
        cadence.nextWakeUp(peer: peer?.nextDeadline, engine: sink.nextDeadline, open: (peer?.sessionCount ?? 0) > 0)
    }

    private func tick() {
        let now = self.now
        peer?.tick(now: now)
        sink.tick(now: now)
        reportIfDue(now: now)
        timer?.arm(nextWakeUp)
    }

    private func reportIfDue(now: Instant) {
        guard cadence.takeReport(now: now) else { return }
        peer?.reportTick()
        guard sink.wantsReport else { return }
        sink.report(peer?.report() ?? .empty, now: now)
    }
}
