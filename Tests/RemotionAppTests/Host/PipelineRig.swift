import Logging
import NIOCore
import RemotionApp
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// A real host loop with a `HostPipeline` (virtual screen, publisher), started by the host's
/// composition root (`HostRoot`: outputs, driver, socket), driven by handing the pipeline
/// actions on its loop, as the protocol engine would.
struct PipelineRig {
    let host: HostService<PlainFraming, HostDriver>
    let publisher: SnapshotPublisher

    /// `maximum`: controllers at once, of every transport (`--max-controllers`).
    /// `backend`: the injector's (a 1920x1080 virtual screen unless told).
    static func start(name: String = "rig", maximum: Int = 16,
                      backend: @escaping @Sendable () -> any InjectorBackend = {
                          VirtualScreenBackend(geometry: ScreenGeometry(width: 1920, height: 1080))
                      },
                      configure: @escaping @Sendable (HostPipeline) -> Void = { _ in }) async throws -> PipelineRig {
        let publisher = SnapshotPublisher()
        let host = try await HostRoot.start(
            bind: "127.0.0.1", port: 0, maximumControllers: maximum, makeFraming: { PlainFraming() },
            makeOutputs: { _ in
                let pipeline = HostPipeline(
                    injector: Injector(backend: backend()),
                    buttonMap: .seedDefault, settings: MappingSettings(), logger: Logger(label: "rig"),
                    injectorReason: "virtual screen", publisher: publisher)
                configure(pipeline)
                return pipeline
            })
        return PipelineRig(host: host, publisher: publisher)
    }

    static let address = try! SocketAddress(ipAddress: "127.0.0.1", port: 50_000)

    /// Hands `actions` to the pipeline on the loop, then returns its snapshot; `later`: the
    /// pipeline is handed a time that far after now (it takes the time as an argument), so a
    /// test sees time pass without waiting for it.
    func drive(_ actions: [HostAction<SocketAddress>], later: Duration = .zero) async throws -> HostSnapshot {
        try await host.onLoop { handler -> HostSnapshot in
            for action in actions { handler.sink.handle(action, now: MonotonicClock.now() + later) }
            // The snapshot the builder would publish, built here so the test need not wait
            // for the builder's queue.
            return handler.sink.snapshot(handler.report(), now: MonotonicClock.now() + later)
        }
    }

    func stop() async { await host.shutdown() }
}
