import Foundation
import NIOCore
import RemotionProtocol

extension SocketAddress: SourceAddress {
    /// IPv4 (4) or IPv6 (16) address bytes followed by the port, big-endian (docs/NOISE.md §5).
    public var cookieBytes: [UInt8] {
        var out: [UInt8] = []
        switch self {
        case let .v4(a):
            withUnsafeBytes(of: a.address.sin_addr) { out.append(contentsOf: $0) }
        case let .v6(a):
            withUnsafeBytes(of: a.address.sin6_addr) { out.append(contentsOf: $0) }
        case .unixDomainSocket:
            return []
        }
        let port = UInt16(truncatingIfNeeded: self.port ?? 0)
        out.append(UInt8(port >> 8)); out.append(UInt8(port & 0xff))
        return out
    }
}

/// The wall clock as TAI64N, for IK initiations (the only place the wall clock is read).
public enum WallClock {
    public static func now() -> TAI64N {
        let t = Date().timeIntervalSince1970
        let seconds = t.rounded(.down)
        return TAI64N(unixSeconds: Int64(seconds), nanoseconds: UInt32(min(999_999_999, max(0, (t - seconds) * 1e9))))
    }
}
