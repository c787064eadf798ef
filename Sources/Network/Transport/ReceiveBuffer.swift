import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// The host socket's receive buffer: sized for the controller budget, and the kernel's
/// count of datagrams it discarded because the buffer was full (which the host cannot
/// otherwise see: they never reach `recvmmsg`).
public enum ReceiveBuffer {
    /// The fastest controller the host plans for (datagrams per second).
    public static let plannedRatePerController = 2_000
    /// How long the loop may be away (a slow injector call, a GC-like pause of the OS)
    /// before the kernel starts dropping at the full budget.
    public static let plannedStallMilliseconds = 50
    /// What the kernel charges for one small datagram on the queue (skb truesize, about
    /// 1 KiB for a motion packet on Linux; measured on loopback).
    public static let bytesPerQueuedDatagram = 1_024

    /// SO_RCVBUF for `maximumSessions` controllers at the planned rate through the
    /// planned stall; at least Linux's default (208 KiB), at most 32 MiB. The kernel
    /// caps it at net.core.rmem_max (`HostService.receiveBufferBytes` says what it got).
    public static func bytes(forSessions maximumSessions: Int) -> Int {
        let datagrams = maximumSessions * plannedRatePerController * plannedStallMilliseconds / 1000
        // Linux doubles the value it is given (the other half is its bookkeeping).
        return min(32 << 20, max(212_992, datagrams * bytesPerQueuedDatagram / 2))
    }

    #if os(Linux)
    /// SO_MEMINFO (include/uapi/asm-generic/socket.h) fills `sk_meminfo`; index 8 is
    /// SK_MEMINFO_DROPS, the counter /proc/net/udp shows in its last column.
    private typealias MemInfo = (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
    private static let soMemInfo: SocketOptionName = 55
    #endif

    /// The kernel's drop counter for the channel's socket (nil where it cannot be read:
    /// other systems, embedded channels in tests). Call on the channel's event loop: the
    /// read is one getsockopt, done synchronously there.
    public static func kernelDrops(of channel: any Channel) -> Int? {
        #if os(Linux)
        guard let provider = channel as? any SocketOptionProvider, channel.eventLoop.inEventLoop else { return nil }
        let future: EventLoopFuture<MemInfo> = provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: soMemInfo)
        var drops: Int?
        future.assumeIsolated().whenSuccess { info in drops = Int(info.8) }
        return drops
        #else
        return nil
        #endif
    }
}
