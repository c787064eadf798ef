import Logging
import NIOCore
import NIOPosix
import RemotionHostLogic
import RemotionNetwork
import RemotionProtocol

/// A DSU address that cannot be used as given; the message says what to write.
package struct DSUSetupError: Error, CustomStringConvertible, Sendable {
    package var description: String
}

/// The host's DSU adapters (docs/DSU.md): when asked, the DSU server's channel (an output:
/// bound first, so it sees every controller a source brings) and a connected UDP channel per
/// DSU source — all on the host's event loop, so they reach
/// the host's state machine and pipeline synchronously, with no queue in between. The
/// handlers register with the pipeline as drop reporters (and the server as its
/// observer). Sockets are bound without SO_REUSEADDR.
package final class DSUBridge: Sendable {
    private let channels: [any Channel]
    /// Where the DSU server listens (nil when not serving).
    package let serverAddress: SocketAddress?
    private let removeObservers: @Sendable () async -> Void

    private init(channels: [any Channel], serverAddress: SocketAddress?, removeObservers: @escaping @Sendable () async -> Void) {
        self.channels = channels
        self.serverAddress = serverAddress
        self.removeObservers = removeObservers
    }

    /// Starts a source per entry of `sources` and the server at `serve` (if any).
    package static func start(host: HostLoop, sources: [DSUSourceConfig],
                              serve: DSUEndpoint?, logger: Logger,
                              silenceTimeout: Duration = .milliseconds(2500)) async throws -> DSUBridge {
        let loop = host.eventLoop
        let pipeline = try await host.boundPipeline()
        var channels: [any Channel] = []
        do {
            var serverAddress: SocketAddress?
            // Its drops show after the sources' (the stop line's order); the observer the bridge
            // takes away, by identity, when it stops.
            let serverReporter = try await loop.submit { NIOLoopBoundBox<DSUServerHandler?>(nil, eventLoop: loop) }.get()
            if let serve {
                let address = try socketAddress(serve, what: "--dsu-serve \(serve)")
                let configuration = DSUServerStateMachine<SocketAddress, SessionID>.Configuration(
                    serverID: UInt32.random(in: 1...UInt32.max))
                let bootstrap = datagramBootstrap(loop) { () -> DSUServerHandler in
                    let handler = DSUServerHandler(configuration: configuration, logger: logger)
                    pipeline.value.observers.append(handler)
                    serverReporter.value = handler
                    return handler
                }
                let channel: any Channel
                do { channel = try await bootstrap.bind(to: address).get() } catch {
                    throw DSUSetupError(description: "cannot serve DSU on \(serve): \(error)")
                }
                channels.append(channel)
                serverAddress = channel.localAddress
            }
            // The sources after the server: no DSU controller exists before its outputs.
            for source in sources {
                let what = source.origin == "--dsu" ? "--dsu \(source.endpoint)" : "\(source.origin): [[dsu]] address \(source.endpoint)"
                let address = try socketAddress(source.endpoint, what: what)
                let configuration = DSUSourceStateMachine.Configuration(clientID: UInt32.random(in: 1...UInt32.max),
                                                                         silenceTimeout: silenceTimeout,
                                                                         buttonTable: source.buttonTable)
                let bootstrap = datagramBootstrap(loop) { () -> DSUSourceHandler in
                    let handler = DSUSourceHandler(server: address, pipeline: pipeline.value, configuration: configuration,
                                                   logger: logger)
                    pipeline.value.dropReporters.append(handler)
                    return handler
                }
                // 1 MiB of receive buffer (~1,300 pad packets, ~0.3 s of 4 slots at 1 kHz) so a
                // host briefly off the CPU loses nothing (the kernel caps it at rmem_max).
                channels.append(try await bootstrap.channelOption(.socketOption(.so_rcvbuf), value: 1 << 20)
                    .connect(to: address).get())
            }
            try await loop.submit { if let server = serverReporter.value { pipeline.value.dropReporters.append(server) } }.get()
            return DSUBridge(channels: channels, serverAddress: serverAddress) {
                _ = try? await host.onLoop { pipeline, _ in
                    if let server = serverReporter.value { pipeline.observers.removeAll { $0 === server } }
                }
            }
        } catch {
            for c in channels { try? await c.close() }
            throw error
        }
    }

    /// Closes every DSU channel: each source's slots end (releasing what they held) and
    /// the server stops serving. The pipeline keeps the handlers' counts for the stop line.
    package func stop() async {
        await removeObservers()
        for c in channels { try? await c.close() }
    }

    /// One channel per DSU socket; `makeHandler` runs on the host's loop when the
    /// channel is set up. Vector reads (32 datagrams a call, 2 KB each: a DSU packet
    /// is at most 100 bytes, longer ones are read cut short and dropped by the codec).
    private static func datagramBootstrap<H: ChannelInboundHandler>(
        _ loop: any EventLoop, makeHandler: @escaping @Sendable () -> H
    ) -> DatagramBootstrap {
        DatagramBootstrap(group: loop)
            .channelOption(.datagramVectorReadMessageCount, value: 32)
            .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 32 * 2048))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(makeHandler())
                }
            }
    }

    private static func socketAddress(_ endpoint: DSUEndpoint, what: String) throws -> SocketAddress {
        do { return try SocketAddress(ipAddress: endpoint.host, port: endpoint.port) } catch {
            throw DSUSetupError(description: "\(what): '\(endpoint.host)' is not an IPv4 or IPv6 address")
        }
    }
}
