import NIOCore
import NIOPosix

/// What the relay has done so far.
package struct ImpairmentRelaySnapshot: Sendable, Hashable, CustomStringConvertible {
    /// Counters the relay keeps beside the scheduler's.
    package struct RelayCounters: Sendable, Hashable {
        /// Datagrams from new clients refused because `maxClients` was reached.
        package var rejectedClientDatagrams = 0
        /// Datagrams reaching an upstream-facing socket from anyone but the upstream.
        package var strayDatagrams = 0
        /// Datagrams refused while a client's upstream socket was still being bound.
        package var pendingOverflow = 0
        /// Socket errors reported by NIO (e.g. ICMP port unreachable); the relay keeps going.
        package var socketErrors = 0
        /// Copies still queued when the relay shut down.
        package var discardedOnShutdown = 0
    }

    package var stats: ImpairmentStats
    /// Distinct client source addresses seen (each has its own upstream-facing socket).
    package var clients: Int
    /// Copies waiting for their delivery instant.
    package var queued: Int
    package var relay: RelayCounters

    package var description: String {
        "\(stats); clients=\(clients) queued=\(queued) rejected=\(relay.rejectedClientDatagrams) "
            + "stray=\(relay.strayDatagrams) pendingOverflow=\(relay.pendingOverflow) "
            + "socketErrors=\(relay.socketErrors) discarded=\(relay.discardedOnShutdown)"
    }
}

/// A user-space UDP impairment relay on loopback (a stand-in for netem).
///
/// Clients send to `localAddress`; each distinct client source address gets its own
/// upstream-facing socket, so the upstream sees one source per client (as behind a NAT).
/// Datagrams are impaired by an `ImpairmentScheduler` in both directions. All state is owned
/// by one event loop. The relay binds and sends only to loopback addresses.
package final class ImpairmentRelay: Sendable {
    /// The address clients send to.
    package let localAddress: SocketAddress
    /// The address datagrams are forwarded to.
    package let upstream: SocketAddress
    private let core: NIOLoopBound<RelayCore>

    /// The bound listening port (useful with `listenPort: 0`).
    package var port: Int { localAddress.port ?? 0 }

    private init(localAddress: SocketAddress, upstream: SocketAddress, core: NIOLoopBound<RelayCore>) {
        self.localAddress = localAddress
        self.upstream = upstream
        self.core = core
    }

    /// Binds the listening socket and starts relaying.
    ///
    /// - Parameters:
    ///   - listenHost: a loopback address to listen on.
    ///   - listenPort: 0 picks an ephemeral port (read it back from `port`).
    ///   - upstream: where client datagrams go; must be loopback.
    ///   - maxQueued: most datagram copies held at once (both directions).
    ///   - maxClients: most distinct client addresses (each costs one socket).
    /// - Throws: `ImpairmentRelayError` for non-loopback addresses, `ImpairmentProfileError`
    ///   for out-of-range profiles, NIO's errors when binding fails.
    package static func start(
        listenHost: String = "127.0.0.1",
        listenPort: Int = 0,
        upstream: SocketAddress,
        clientToHost: ImpairmentProfile,
        hostToClient: ImpairmentProfile,
        seed: UInt64,
        maxQueued: Int = 4096,
        maxClients: Int = 64,
        group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> ImpairmentRelay {
        guard LoopbackAddress.isLoopback(upstream) else {
            throw ImpairmentRelayError.nonLoopbackAddress(upstream.description)
        }
        let listenAddress = try LoopbackAddress.make(host: listenHost, port: listenPort)
        let scheduler = ImpairmentScheduler(
            clientToHost: try clientToHost.validated(), hostToClient: try hostToClient.validated(),
            seed: seed, maxQueued: maxQueued)
        let eventLoop = group.next()
        let maxClients = max(1, maxClients)
        let core = try await eventLoop.submit {
            NIOLoopBound(
                RelayCore(eventLoop: eventLoop, upstream: upstream, scheduler: scheduler, maxClients: maxClients),
                eventLoop: eventLoop)
        }.get()
        let channel: Channel
        do {
            channel = try await DatagramBootstrap(group: eventLoop)
                .channelOption(.socketOption(.so_rcvbuf), value: RelayCore.receiveBufferBytes)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ClientSideHandler(core: core))
                    }
                }
                .bind(to: listenAddress).get()
        } catch {
            _ = try? await eventLoop.flatSubmit { core.value.shutdown() }.get()
            throw error
        }
        return ImpairmentRelay(localAddress: channel.localAddress ?? listenAddress, upstream: upstream, core: core)
    }

    /// Like `start(…upstream: SocketAddress…)` with the upstream as host and port.
    package static func start(
        listenHost: String = "127.0.0.1",
        listenPort: Int = 0,
        upstreamHost: String,
        upstreamPort: Int,
        clientToHost: ImpairmentProfile,
        hostToClient: ImpairmentProfile,
        seed: UInt64,
        maxQueued: Int = 4096,
        maxClients: Int = 64,
        group: EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async throws -> ImpairmentRelay {
        try await start(
            listenHost: listenHost, listenPort: listenPort,
            upstream: try LoopbackAddress.make(host: upstreamHost, port: upstreamPort),
            clientToHost: clientToHost, hostToClient: hostToClient, seed: seed,
            maxQueued: maxQueued, maxClients: maxClients, group: group)
    }

    /// Counters and sizes, read on the relay's event loop.
    package func snapshot() async throws -> ImpairmentRelaySnapshot {
        let core = self.core
        return try await core.eventLoop.submit { core.value.snapshot }.get()
    }

    /// The scheduler's counters for both directions.
    package func stats() async throws -> ImpairmentStats {
        try await snapshot().stats
    }

    /// Stops relaying: closes every socket, drops whatever is still queued, and returns once
    /// all sockets are closed. Safe to call more than once.
    package func shutdown() async {
        let core = self.core
        _ = try? await core.eventLoop.flatSubmit { core.value.shutdown() }.get()
    }
}
