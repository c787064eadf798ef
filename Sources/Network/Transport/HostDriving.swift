import NIOCore
import RemotionProtocol

/// The host's loop driver as a transport sees it (quinn's `EndpointDriver`): it owns the one
/// timer, the one clock, the status cadence and the slot count, and lives on the host's loop
/// before any socket is bound. A transport is its peer: the UDP handler hands it what its wire
/// machine made of a read (`received`) and writes what it is asked to send; it knows nothing of
/// what the driver does with the actions (the host's engine, or a `HostEventSink` of one's own
/// through `SinkDriver`). On the loop only.
public protocol HostDatagramDriver: AnyObject, SendableMetatype {
    /// The one clock: the loop's time (virtual on an EmbeddedEventLoop), handed to every call.
    var now: Instant { get }
    /// Controllers at once, of every transport, when the driver decides it (nil: the wire
    /// machine's configuration does). Read once, before the socket is bound.
    var maximumControllers: Int? { get }
    /// The datagram peer is in its channel on `loop`: its deadlines join the driver's timer.
    func attach(_ peer: any HostDatagramPeer, loop: any EventLoop)
    /// One action of the peer's wire machine (a session opened, a sample, an edge, a close).
    func received(_ action: HostAction<SocketAddress>, now: Instant)
    /// The peer finished a read (one wake-up's batch): a report if due, the timer armed.
    func peerRead(now: Instant)
    /// The host stops: the peer says goodbye, everything held is released, the timer stops.
    func shutdown()
}

/// The UDP handler as the driver sees it: its wire machine's deadlines and housekeeping, its
/// numbers, and the few things the engine asks of a datagram session (rumble, the peer's key).
public protocol HostDatagramPeer: AnyObject {
    /// The wire machine's next deadline (a session's timeout, a retransmission).
    var nextDeadline: Instant? { get }
    /// Sessions that hold a slot (the datagram sessions and the driver's others).
    var sessionCount: Int { get }
    /// The driver's timer: the wire machine's timeouts, the framing's housekeeping.
    func tick(now: Instant)
    /// The controllers on other transports: their slots and ids, never given to a datagram session.
    func admit(elsewhere: Set<SessionID>)
    /// A report tick (the driver's cadence): the peer may resize its read vector.
    func reportTick()
    /// The protocol's numbers now.
    func report() -> HostReport
    /// Rumble and light to a datagram session's controller, sent at once; false when `id` is not one.
    func sendFeedback(_ id: SessionID, _ feedback: ControllerFeedback) -> Bool
    /// The static key a datagram session's controller authenticated with (nil: plain, or none).
    func peerKey(of id: SessionID) -> [UInt8]?
    /// The host stops: a goodbye to every client, each session's release handed to the driver.
    func sayGoodbye(now: Instant)
}

/// A driver that hands the actions to a sink it holds (read by tests and tools through the handler).
public protocol HostSinkHolding {
    associatedtype Sink
    var sink: Sink { get }
}

/// What a host of one's own (`HostService` with `SinkDriver`) does with the wire machine's
/// actions: a pairing listener discards them, a test records them. Runs on the host's loop,
/// synchronously. Its metatype is Sendable (`SendableMetatype`).
public protocol HostEventSink: AnyObject, SendableMetatype {
    func handle(_ action: HostAction<SocketAddress>, now: Instant)
    /// The host is stopping: release everything still held.
    func shutdown(now: Instant)
    /// The protocol's numbers, at most every `ReportCadence.interval`, when the sink wants them then.
    func report(_ report: HostReport, now: Instant)
    /// Whether the sink wants this report tick's `report(_:now:)`.
    var wantsReport: Bool { get }
    /// When the sink wants `tick(now:)` next (nil: never).
    var nextDeadline: Instant? { get }
    /// The sink's own timers, on the driver's timer.
    func tick(now: Instant)
}

extension HostEventSink {
    public func report(_ report: HostReport, now: Instant) {}
    public var wantsReport: Bool { true }
    public var nextDeadline: Instant? { nil }
    public func tick(now: Instant) {}
}

/// A point-in-time view of the host's protocol engine, for status displays and summaries.
public struct HostReport: Sendable {
    public var sessions: [SessionID: HostSession<SocketAddress>]
    public var drops: DropCounters
    public var datagramsReceived: Int
    public var datagramsSent: Int
    /// Datagrams the kernel discarded before the host could read them (receive buffer
    /// full), since the host started; 0 where the counter cannot be read.
    public var kernelDrops = 0

    public init(sessions: [SessionID: HostSession<SocketAddress>], drops: DropCounters, datagramsReceived: Int,
                datagramsSent: Int, kernelDrops: Int = 0) {
        self.sessions = sessions
        self.drops = drops
        self.datagramsReceived = datagramsReceived
        self.datagramsSent = datagramsSent
        self.kernelDrops = kernelDrops
    }

    /// No datagram socket (yet): nothing received, nothing sent.
    public static var empty: HostReport { HostReport(sessions: [:], drops: DropCounters(), datagramsReceived: 0, datagramsSent: 0) }
}
