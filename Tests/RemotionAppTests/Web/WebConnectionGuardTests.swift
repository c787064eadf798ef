import NIOCore
import NIOEmbedded
import NIOTLS
import RemotionApp
import Testing

/// The connection guard's caps (docs/SECURITY.md §9) on NIO's embedded channels; the
/// timeouts and the real flood are scripts/web-flood-test.sh's.
@Suite struct WebConnectionGuardTests {
    func makeGuard(perAddress: Int, total: Int) -> (WebConnectionGuard, WebControllerStats) {
        var limits = WebConnectionGuard.Limits()
        limits.perAddress = perAddress
        limits.total = total
        let stats = WebControllerStats()
        return (WebConnectionGuard(limits: limits, stats: stats), stats)
    }

    @Test func oneAddressGetsPerAddressSlotsAndTheNextIsRefusedAndCounted() throws {
        let (guardian, stats) = makeGuard(perAddress: 2, total: 10)
        let channels = (0..<3).map { _ in EmbeddedChannel() }
        for c in channels { try c.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait() }
        #expect(guardian.admit(channels[0], from: "10.0.0.1"))
        #expect(guardian.admit(channels[1], from: "10.0.0.1"))
        #expect(!guardian.admit(channels[2], from: "10.0.0.1"))
        #expect(guardian.admit(EmbeddedChannel(), from: "10.0.0.2"))
        #expect(stats.snapshot.connections == ["per-address-cap": 1])
        #expect(guardian.unauthenticated == 3)
    }

    @Test func whenEverySlotIsTakenTheOldestIsEvicted() throws {
        let (guardian, stats) = makeGuard(perAddress: 16, total: 3)
        let channels = (0..<5).map { _ in EmbeddedChannel() }
        for c in channels { try c.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait() }
        for (i, c) in channels.enumerated() { #expect(guardian.admit(c, from: "10.0.1.\(i)")) }
        #expect(!channels[0].isActive && !channels[1].isActive)       // the two oldest made room
        #expect(channels[2].isActive && channels[3].isActive && channels[4].isActive)
        #expect(guardian.unauthenticated == 3)
        #expect(stats.snapshot.connections == ["evicted": 2])
    }

    @Test func theTotalCapFollowsTheOpenFileLimit() {
        #expect(WebConnectionGuard.Limits.total(openFileLimit: 1024) == 512)
        #expect(WebConnectionGuard.Limits.total(openFileLimit: 64) == 64)
        #expect(WebConnectionGuard.Limits.total(openFileLimit: 524_288) == 4096)
    }

    /// The idle timer reset on any byte, so junk every 4 s kept an
    /// unauthenticated connection open for ever. Now it must authenticate within 20 s.
    @Test func junkEveryFewSecondsDoesNotKeepAnUnauthenticatedConnection() throws {
        let (guardian, stats) = makeGuard(perAddress: 16, total: 16)
        let loop = EmbeddedEventLoop()
        let channel = EmbeddedChannel(loop: loop)
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        #expect(guardian.admit(channel, from: "10.0.0.1"))
        try channel.pipeline.syncOperations.addHandler(WebConnectionGuard.Handler(owner: guardian, admitted: true))
        channel.pipeline.fireUserInboundEventTriggered(TLSUserEvent.handshakeCompleted(negotiatedProtocol: nil))
        for _ in 0..<4 {                              // a byte every 4 s: never idle for 10 s
            loop.advanceTime(by: .seconds(4))
            try channel.writeInbound(ByteBuffer(string: "x"))
            #expect(channel.isActive)
        }
        loop.advanceTime(by: .seconds(4))            // 20 s after the handshake
        #expect(!channel.isActive)
        #expect(stats.snapshot.connections == ["authenticate-timeout": 1])
        #expect(guardian.unauthenticated == 0)
    }

    @Test func anIPv6HostCountsAsItsSlash64() {
        #expect(WebConnectionGuard.addressKey("2001:db8:1:2:aaaa::1") == WebConnectionGuard.addressKey("2001:db8:1:2:bbbb::7"))
        #expect(WebConnectionGuard.addressKey("2001:db8:1:2::1") != WebConnectionGuard.addressKey("2001:db8:1:3::1"))
        #expect(WebConnectionGuard.addressKey("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(WebConnectionGuard.addressKey("::ffff:192.168.1.20") == "192.168.1.20", "an IPv4-mapped peer is its IPv4 address")
        #expect(WebConnectionGuard.addressKey("192.168.1.20") == "192.168.1.20")
    }
}
