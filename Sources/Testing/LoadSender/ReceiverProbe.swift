#if canImport(Glibc)
import Foundation

/// What the load sender reads about the receiver (the host or the floor) from /proc,
/// exactly at the start and the end of streaming, so session set-up is not counted.
struct ReceiverProbe {
    let pid: Int32
    let port: UInt16

    struct Reading {
        /// CPU time of every thread of the receiver (schedstat, nanoseconds).
        var cpuNanos: Int64
        /// The kernel's drop counter of the receiver's UDP socket(s) on `port`.
        var kernelDrops: Int64
    }

    func read() -> Reading {
        Reading(cpuNanos: cpuNanos(), kernelDrops: Self.udpDrops(port: port))
    }

    private func cpuNanos() -> Int64 {
        let dir = "/proc/\(pid)/task"
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return 0 }
        var total: Int64 = 0
        for task in tasks {
            guard let text = try? String(contentsOfFile: "\(dir)/\(task)/schedstat", encoding: .utf8),
                  let first = text.split(separator: " ").first, let ns = Int64(first) else { continue }
            total += ns
        }
        return total
    }

    /// /proc/net/udp and udp6: the last column of the socket bound to `port` is its drop count.
    static func udpDrops(port: UInt16) -> Int64 {
        let hexPort = String(format: "%04X", port)
        var total: Int64 = 0
        for file in ["/proc/net/udp", "/proc/net/udp6"] {
            // Read to the end: procfs files have no size, and a size-based read stops at one page.
            guard let data = FileHandle(forReadingAtPath: file)?.readDataToEndOfFile(),
                  let text = String(data: data, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                guard fields.count > 2, fields[1].hasSuffix(":" + hexPort), let drops = Int64(fields.last!) else { continue }
                total += drops
            }
        }
        return total
    }
}
#endif
