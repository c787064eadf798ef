import NIOCore
import NIOPosix
import RemotionProtocol
import RemotionHostLogic
import RemotionNetwork

/// The host's one composition root (after Hummingbird's `buildApplication`), in the order the
/// data needs: the outputs first (`makeOutputs`: the injector and the pipeline around it, the
/// virtual pads, the laser — made on the host's loop), then the driver and its engine, then the
/// sources, the controllers' UDP socket first (the page, DSU and local pads follow in
/// `HostDaemon+Wiring` through the `HostLoop` this returns). So no controller exists before its
/// outputs and nothing is patched on afterwards. `remotion host`, `remotion demo` and the
/// tests' rigs all start here.
package enum HostRoot {
    /// `maximumControllers`: `--max-controllers`, given once (the driver's slot count: the
    /// engine's and the wire machine's limit). When the socket cannot be bound the outputs
    /// are stopped again (the injector closed, the pads gone) and the error thrown.
    package static func start<Framing: HostFraming>(
        bind: String, port: Int, configuration: HostStateMachine<SocketAddress>.Configuration = .init(),
        maximumControllers: Int, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        makeFraming: @escaping @Sendable () throws -> Framing,
        makeOutputs: @escaping @Sendable (HostDriverHandle) throws -> HostPipeline
    ) async throws -> HostService<Framing, HostDriver> {
        let driver = try await makeDriver(loop: group.next(), maximumControllers: maximumControllers, makeOutputs: makeOutputs)
        do {
            return try await HostService.start(host: bind, port: port, configuration: configuration, driver: driver,
                                               makeFraming: makeFraming)
        } catch {
            try? await driver.eventLoop.submit { driver.value.shutdown() }.get()
            throw error
        }
    }

    /// The outputs, then the driver around them, on `loop`, before any socket.
    package static func makeDriver(loop: any EventLoop, maximumControllers: Int,
                                   makeOutputs: @escaping @Sendable (HostDriverHandle) throws -> HostPipeline)
        async throws -> NIOLoopBound<HostDriver> {
        try await loop.submit {
            let box = NIOLoopBoundBox<HostDriver?>(nil, eventLoop: loop)
            let pipeline = try makeOutputs(HostDriverHandle(eventLoop: loop, box: box))
            let driver = HostDriver(loop: loop, pipeline: pipeline, maximumControllers: maximumControllers)
            box.value = driver
            return NIOLoopBound(driver, eventLoop: loop)
        }.get()
    }
}
