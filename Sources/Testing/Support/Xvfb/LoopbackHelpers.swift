import NIOCore
import NIOPosix

/// Test support for loopback tests (linked only into test targets).

/// Polls `condition` every 20 ms until it holds or `limit` passes; returns whether it held.
/// The suite's waits give it 10 s or more: it returns as soon as `condition` holds, and the
/// bound only ends a broken run (a loaded machine holds the pool for seconds).
package func eventually(within limit: Duration, _ condition: () async throws -> Bool) async rethrows -> Bool {
    let clock = ContinuousClock()
    let end = clock.now + limit
    while clock.now < end {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

/// A raw UDP socket on 127.0.0.1 for sending arbitrary bytes at a host.
package func rawSocket() async throws -> Channel {
    try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
}

package func send(_ bytes: [UInt8], on channel: Channel, to address: SocketAddress) async throws {
    try await channel.writeAndFlush(AddressedEnvelope(remoteAddress: address, data: channel.allocator.buffer(bytes: bytes)))
}
