import NIOCore
import NIOPosix

/// Runs an impairment relay as the body of a process (for a `remotion relay` subcommand).
///
/// Listens on `listenHost:listenPort`, forwards to `upstreamHost:upstreamPort` (loopback
/// only), and returns the final counters after `duration` has elapsed, or, with
/// `duration: nil`, once the calling task is cancelled (e.g. on SIGINT by the caller).
/// `onReady` receives the running relay once it is bound (read `port` from it).
@discardableResult
package func runRelay(
    listenHost: String = "127.0.0.1",
    listenPort: Int,
    upstreamHost: String = "127.0.0.1",
    upstreamPort: Int,
    profileUp: ImpairmentProfile,
    profileDown: ImpairmentProfile,
    seed: UInt64,
    duration: Duration?,
    maxQueued: Int = 4096,
    maxClients: Int = 64,
    onReady: @Sendable (ImpairmentRelay) -> Void = { _ in }
) async throws -> ImpairmentRelaySnapshot {
    let relay = try await ImpairmentRelay.start(
        listenHost: listenHost, listenPort: listenPort,
        upstreamHost: upstreamHost, upstreamPort: upstreamPort,
        clientToHost: profileUp, hostToClient: profileDown, seed: seed,
        maxQueued: maxQueued, maxClients: maxClients)
    onReady(relay)
    if let duration {
        try? await Task.sleep(for: duration)
    } else {
        while !Task.isCancelled {
            try? await Task.sleep(for: .seconds(3600))
        }
    }
    await relay.shutdown()
    return try await relay.snapshot()
}
