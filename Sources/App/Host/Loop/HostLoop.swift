import NIOCore
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// The host's service without its framing type (`HostService` is generic over it): what
/// `HostLoop` holds. Generic methods on an existential keep each result's own type.
protocol HostLoopBackend: Sendable {
    var localAddress: SocketAddress { get }
    var eventLoop: any EventLoop { get }
    func executeOnPipeline(_ body: @escaping @Sendable (HostPipeline, Instant) -> Void)
    func onPipeline<T: Sendable>(_ body: @escaping @Sendable (HostPipeline, Instant) throws -> T) async throws -> T
    func report() async throws -> HostReport
    func shutdown() async
}

/// Work for the pipeline goes to the loop driver directly (its pipeline, its clock), never
/// through the UDP socket's code; the socket is asked only for its numbers and its close.
extension HostService: HostLoopBackend where Driver == HostDriver {
    var eventLoop: any EventLoop { driver.eventLoop }
    func executeOnPipeline(_ body: @escaping @Sendable (HostPipeline, Instant) -> Void) {
        let driver = self.driver
        driver.eventLoop.execute { body(driver.value.pipeline, driver.value.now) }
    }
    func onPipeline<T: Sendable>(_ body: @escaping @Sendable (HostPipeline, Instant) throws -> T) async throws -> T {
        let driver = self.driver
        return try await driver.eventLoop.submit { try body(driver.value.pipeline, driver.value.now) }.get()
    }
}

/// A handle to the running host's loop, without the framing type: what the web page, the
/// dashboard, the DSU and local-pad bridges and the daemon hold. The work runs on the loop
/// with the pipeline and the loop's time (the one clock on the way from a source to an
/// output: the driver's, `HostDriver.now`). `execute` runs without waiting (calls from one thread run in order), `onLoop`
/// waits for a result.
package struct HostLoop: Sendable {
    private let backend: any HostLoopBackend
    package var localAddress: SocketAddress { backend.localAddress }
    package var eventLoop: any EventLoop { backend.eventLoop }

    package init<Framing: HostFraming>(_ service: HostService<Framing, HostDriver>) {
        backend = service
    }

    /// Runs `body` on the host's loop without waiting; calls from one thread run in order.
    package func execute(_ body: @escaping @Sendable (HostPipeline, Instant) -> Void) { backend.executeOnPipeline(body) }

    /// Runs `body` on the host's loop and returns its result.
    package func onLoop<T: Sendable>(_ body: @escaping @Sendable (HostPipeline, Instant) throws -> T) async throws -> T {
        try await backend.onPipeline(body)
    }

    /// The pipeline as a value bound to the loop, for adapters that live on the same loop
    /// and call it synchronously (the DSU source handlers).
    package func boundPipeline() async throws -> NIOLoopBound<HostPipeline> {
        let loop = eventLoop
        return try await onLoop { pipeline, _ in NIOLoopBound(pipeline, eventLoop: loop) }
    }

    /// The UDP protocol's numbers (datagram sessions, drops, datagrams).
    package func report() async throws -> HostReport { try await backend.report() }

    /// Tells every controller, releases every held input, closes the socket.
    package func shutdown() async { await backend.shutdown() }
}
