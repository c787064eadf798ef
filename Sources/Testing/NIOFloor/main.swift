// What SwiftNIO alone costs a UDP receiver (docs/BENCHMARKS.md, "The host against the floor"):
// a DatagramChannel read the way the host's is (vector reads of 64 into one fixed receive
// buffer, one recvmmsg per wake-up, the receive buffer the host asks for), with a handler that
// only counts. Between the C floor (e2e/bench/floor-recv.c) and the host, it says how much of
// the host's cost per packet is NIO's read path and how much is the host's own.
//
//   usage: remotion-nio-floor PORTFILE RCVBUF SECONDS
// Binds 127.0.0.1:0, writes the port to PORTFILE, counts until SIGINT/SIGTERM or SECONDS have
// passed (a bound: it always stops by itself), then prints "packets N bytes B" (the sender reads
// the kernel's drops for its socket from /proc).
import Dispatch
import Foundation
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// The counts, owned by the channel's loop: written in `channelRead`, read there at the end.
final class Counter: ChannelInboundHandler {
    typealias InboundIn = AddressedEnvelope<ByteBuffer>
    var packets = 0
    var bytes = 0

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        packets += 1
        bytes += unwrapInboundIn(data).data.readableBytes
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 4, let rcvbuf = Int32(arguments[2]), let seconds = Double(arguments[3]) else {
    failure("usage: remotion-nio-floor PORTFILE RCVBUF SECONDS")
    exit(2)
}
let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
let loop = group.next()
let counter = try loop.submit { NIOLoopBound(Counter(), eventLoop: loop) }.wait()
let channel = try DatagramBootstrap(group: loop)
    .channelOption(.socketOption(.so_rcvbuf), value: SocketOptionValue(rcvbuf))
    .channelOption(.datagramVectorReadMessageCount, value: 64)
    .channelOption(.maxMessagesPerRead, value: 1)
    .channelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: 64 * 2048))
    .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(counter.value) }
    }
    .bind(host: "127.0.0.1", port: 0).wait()
guard let port = channel.localAddress?.port, let file = fopen(arguments[1], "w") else {
    failure("remotion-nio-floor: cannot write the port file \(arguments[1])")
    exit(1)
}
fputs("\(port)\n", file)
fclose(file)

waitForSignal(orSeconds: seconds)
let (packets, bytes) = try loop.submit { (counter.value.packets, counter.value.bytes) }.wait()
try channel.close().wait()
print("packets \(packets) bytes \(bytes)")

/// Until SIGINT or SIGTERM, or `seconds` have passed. The handlers run on a dispatch queue, not
/// on the main actor (a function of its own, so they are not inferred to be the main actor's).
nonisolated func waitForSignal(orSeconds seconds: Double) {
    let stop = DispatchSemaphore(value: 0)
    signal(SIGINT, SIG_IGN)
    signal(SIGTERM, SIG_IGN)
    let sources = [SIGINT, SIGTERM].map { DispatchSource.makeSignalSource(signal: $0) }
    for source in sources {
        source.setEventHandler { @Sendable in stop.signal() }
        source.resume()
    }
    _ = stop.wait(timeout: .now() + seconds)
}

func failure(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
