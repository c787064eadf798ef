import NIOCore
import NIOPosix
import Synchronization
import RemotionProtocol
import RemotionTestSupport

/// A datagram a test peer received, with where it came from and when.
struct Received: Sendable {
    var bytes: [UInt8]
    var from: SocketAddress
    var at: ContinuousClock.Instant
}

/// Records every datagram; optionally echoes it back to its sender.
final class RecordingHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    typealias OutboundOut = AddressedEnvelope<ByteBuffer>

    let echo: Bool
    let log = Mutex<[Received]>([])

    init(echo: Bool) { self.echo = echo }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let envelope = unwrapInboundIn(data)
        let bytes = Array(envelope.data.readableBytesView)
        log.withLock { $0.append(Received(bytes: bytes, from: envelope.remoteAddress, at: .now)) }
        if echo {
            context.writeAndFlush(wrapOutboundOut(envelope), promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {}

    var received: [Received] { log.withLock { $0 } }
}

/// A real UDP socket on 127.0.0.1 with a recording (and maybe echoing) handler.
struct UDPPeer: Sendable {
    let channel: Channel
    let recorder: RecordingHandler

    var address: SocketAddress { channel.localAddress! }

    static func start(echo: Bool) async throws -> UDPPeer {
        let recorder = RecordingHandler(echo: echo)
        let channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelOption(.socketOption(.so_rcvbuf), value: 1 << 20)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(recorder) }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        return UDPPeer(channel: channel, recorder: recorder)
    }

    func send(_ bytes: [UInt8], to address: SocketAddress) async throws {
        try await channel.writeAndFlush(AddressedEnvelope(remoteAddress: address, data: ByteBuffer(bytes: bytes))).get()
    }

    /// Sends the datagrams in small bursts so no socket buffer on loopback overflows.
    func send(_ datagrams: [[UInt8]], to address: SocketAddress) async throws {
        for (i, bytes) in datagrams.enumerated() {
            try await send(bytes, to: address)
            if i % 25 == 24 { try await Task.sleep(for: .milliseconds(2)) }
        }
    }

    /// Sends datagrams 0..<count in bursts of 20 and waits for the relay to have read each
    /// burst, so none is lost in a socket buffer before the relay on a busy machine (these
    /// tests are about the relay's decisions, not the kernel's).
    func sendPaced(count: Int, through relay: ImpairmentRelay) async throws {
        for start in stride(from: 0, to: count, by: 20) {
            let end = min(count, start + 20)
            for i in start..<end { try await send(indexBytes(i), to: relay.localAddress) }
            let deadline = ContinuousClock.now + .seconds(2)
            while try await relay.stats().clientToHost.received < end, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(1))
            }
        }
    }

    /// Waits until at least `count` datagrams arrived or `timeout` passed; then waits
    /// `settle` more so late extras would be seen too. The timeout is for datagrams that never
    /// come (a loaded machine's test task may wait its turn on the pool for seconds).
    func waitFor(_ count: Int, timeout: Duration = .seconds(30), settle: Duration = .milliseconds(30)) async throws -> [Received] {
        let deadline = ContinuousClock.now + timeout
        while recorder.received.count < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        try await Task.sleep(for: settle)
        return recorder.received
    }

    func close() async {
        try? await channel.close()
    }
}

func indexBytes(_ i: Int, tag: UInt8 = 0) -> [UInt8] {
    [tag, UInt8(i >> 16 & 0xFF), UInt8(i >> 8 & 0xFF), UInt8(i & 0xFF)]
}

func indexValue(_ b: [UInt8]) -> Int { b.dropFirst().reduce(0) { $0 << 8 | Int($1) } }
