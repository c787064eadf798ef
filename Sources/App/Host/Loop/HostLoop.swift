import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// What code on the host's loop reaches: the pipeline, the protocol's report, and the
/// external-session verbs of the state machine. `HostChannelHandler` is it, whatever its
/// framing (plain or Noise), so nothing above the transport needs the framing's type.
package protocol HostLoopContext: AnyObject {
    var pipeline: HostPipeline { get }
    /// The loop's time (the one clock on the way from a source to an output).
    var now: Instant { get }
    /// After work on the loop that did not come from the socket: the host's timer covers
    /// every deadline again (reports, the pipeline's own).
    func afterExternalEvent(now: Instant)
    func report() -> HostReport
    /// A session for a controller on another transport, or nil when the host is full.
    func openExternal(from origin: HostControllerOrigin) -> SessionID?
    func externalMotion(_ id: SessionID, _ sample: MotionSample, latencyMicros: Int64?)
    func externalButton(_ id: SessionID, _ button: Button, isDown: Bool)
    /// A keep-alive from the transport (the state machine's backstop keeps the session).
    func externalHeard(_ id: SessionID)
    /// Releases every button the session held, then closes it.
    func closeExternal(_ id: SessionID, reason: SessionCloseReason)
    /// Rumble and light to a datagram session's controller; false when it is not one.
    @discardableResult
    func sendFeedback(_ id: SessionID, _ feedback: ControllerFeedback) -> Bool
}

extension HostChannelHandler: HostLoopContext where Sink == HostPipeline {
    package var pipeline: HostPipeline { sink }
}

/// The host's service without its framing type (`HostService` is generic over it): what
/// `HostLoop` holds. Generic methods on an existential keep each result's own type.
protocol HostLoopBackend: Sendable {
    var localAddress: SocketAddress { get }
    var eventLoop: any EventLoop { get }
    func executeInContext(_ body: @escaping @Sendable (any HostLoopContext) -> Void)
    func onLoopInContext<T: Sendable>(_ body: @escaping @Sendable (any HostLoopContext) throws -> T) async throws -> T
    func shutdown() async
}

extension HostService: HostLoopBackend where Sink == HostPipeline {
    var eventLoop: any EventLoop { channel.eventLoop }
    func executeInContext(_ body: @escaping @Sendable (any HostLoopContext) -> Void) { execute { body($0) } }
    func onLoopInContext<T: Sendable>(_ body: @escaping @Sendable (any HostLoopContext) throws -> T) async throws -> T {
        try await onLoop { try body($0) }
    }
}

/// A handle to the running host's loop, without the framing type: what the web page,
/// the dashboard, the DSU bridge and the daemon hold. `execute` runs without waiting
/// (calls from one thread run in order), `onLoop` waits for a result.
package struct HostLoop: Sendable {
    private let backend: any HostLoopBackend
    package var localAddress: SocketAddress { backend.localAddress }
    package var eventLoop: any EventLoop { backend.eventLoop }

    package init<Framing: HostFraming>(_ service: HostService<Framing, HostPipeline>) {
        backend = service
    }

    /// Runs `body` on the host's loop without waiting; calls from one thread run in order.
    package func execute(_ body: @escaping @Sendable (any HostLoopContext) -> Void) { backend.executeInContext(body) }

    /// Runs `body` on the host's loop and returns its result.
    package func onLoop<T: Sendable>(_ body: @escaping @Sendable (any HostLoopContext) throws -> T) async throws -> T {
        try await backend.onLoopInContext(body)
    }

    /// The loop's context as a value bound to the loop, for adapters that live on the
    /// same loop and call it synchronously (the DSU handlers).
    package func boundContext() async throws -> NIOLoopBound<any HostLoopContext> {
        let loop = eventLoop
        return try await onLoop { NIOLoopBound($0, eventLoop: loop) }
    }

    /// Tells every controller, releases every held input, closes the socket.
    package func shutdown() async { await backend.shutdown() }
}
