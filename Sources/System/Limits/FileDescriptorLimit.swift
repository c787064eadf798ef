#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit (RLIMIT_NOFILE). A systemd unit starts with a soft limit
/// of 1024, which a neighbour's idle connections to the web controller's port could take
/// (docs/SECURITY.md §9); the hard limit is usually 524288. The host raises the soft limit
/// to the hard one at start (Go's runtime and systemd's own advice do the same).
package enum FileDescriptorLimit {
    package struct Result: Sendable, Equatable, CustomStringConvertible {
        package var before: UInt64
        package var after: UInt64
        package var failure: String?

        /// The one line the host writes at start.
        package var description: String {
            if let failure { return "open-file limit \(before) (could not raise it: \(failure))" }
            return after > before ? "open-file limit raised from \(before) to \(after)" : "open-file limit \(after)"
        }
    }

    /// The current soft limit.
    package static var current: UInt64 {
        var limit = rlimit()
        guard getrlimit(resourceNumber, &limit) == 0 else { return 0 }
        return UInt64(limit.rlim_cur)
    }

    /// Raises the soft limit to the hard one (on macOS at most OPEN_MAX, which setrlimit
    /// demands there); never lowers it.
    package static func raiseToHard() -> Result {
        var limit = rlimit()
        guard getrlimit(resourceNumber, &limit) == 0 else {
            return Result(before: 0, after: 0, failure: String(cString: strerror(errno)))
        }
        let before = UInt64(limit.rlim_cur)
        var target = limit.rlim_max
        #if canImport(Darwin)
        target = min(target, rlim_t(OPEN_MAX))
        #endif
        guard target > limit.rlim_cur else { return Result(before: before, after: before) }
        limit.rlim_cur = target
        guard setrlimit(resourceNumber, &limit) == 0 else {
            return Result(before: before, after: before, failure: String(cString: strerror(errno)))
        }
        return Result(before: before, after: current)
    }

    #if canImport(Glibc)
    private static let resourceNumber = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resourceNumber = RLIMIT_NOFILE
    #endif
}
