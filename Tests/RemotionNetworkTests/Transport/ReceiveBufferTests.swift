import Testing
import Foundation
import NIOCore
import NIOPosix
import RemotionProtocol
@testable import RemotionNetwork

/// The host socket's receive buffer sizing and the kernel drop counter.
@Suite struct ReceiveBufferTests {
    @Test func sizeGrowsWithTheControllerBudgetWithinBounds() {
        #expect(ReceiveBuffer.bytes(forSessions: 1) == 212_992)
        #expect(ReceiveBuffer.bytes(forSessions: 16) > 212_992)
        #expect(ReceiveBuffer.bytes(forSessions: 64) == 4 * ReceiveBuffer.bytes(forSessions: 16))
        #expect(ReceiveBuffer.bytes(forSessions: 100_000) == 32 << 20)
    }

    #if os(Linux)
    @Test func theHostSeesTheKernelDropsOfItsSocket() async throws {
        // A host whose loop is kept busy while a burst arrives: the kernel drops what
        // does not fit in the receive buffer, and the host's report counts exactly what
        // /proc/net/udp says for its socket.
        let host = try await startRecordingHost()
        defer { Task { await host.shutdown() } }
        let port = host.localAddress.port!
        let before = try await host.report().kernelDrops
        #expect(before == 0)
        let sender = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let payload = [UInt8](repeating: 0xAB, count: 1200)
        // Block the host's loop so nothing is read while the burst arrives.
        let blocked = host.channel.eventLoop.submit { usleepForTest(300_000) }
        for _ in 0..<8_000 {
            let buffer = sender.allocator.buffer(bytes: payload)
            sender.write(AddressedEnvelope(remoteAddress: host.localAddress, data: buffer), promise: nil)
        }
        try await sender.writeAndFlush(AddressedEnvelope(remoteAddress: host.localAddress, data: sender.allocator.buffer(bytes: payload))).get()
        try await blocked.get()
        try await sender.close()
        let report = try await host.report()
        let proc = procDrops(port: port)
        #expect(report.kernelDrops > 0)
        #expect(report.kernelDrops == proc)
        await host.shutdown()
    }
    #endif
}

#if os(Linux)
import Glibc
func usleepForTest(_ micros: UInt32) { usleep(micros) }

/// The drops column of /proc/net/udp for the socket bound to `port`.
func procDrops(port: Int) -> Int {
    // Read to the end: procfs files have no size, and a size-based read stops at one page.
    guard let data = FileHandle(forReadingAtPath: "/proc/net/udp")?.readDataToEndOfFile(),
          let text = String(data: data, encoding: .utf8) else { return -1 }
    let hex = ":" + String(port, radix: 16, uppercase: true).leftPadded(to: 4)
    for line in text.split(separator: "\n").dropFirst() {
        let f = line.split(separator: " ")
        if f.count > 2, f[1].hasSuffix(hex), let d = Int(f.last!) { return d }
    }
    return -1
}

extension String {
    func leftPadded(to n: Int) -> String { String(repeating: "0", count: max(0, n - count)) + self }
}
#endif
