#if canImport(Glibc)
import Glibc

/// The core's packet with the caches cold, as the host meets it at 16 controllers × 250 Hz:
/// there the loop sleeps between two datagrams and the sender runs in between, so each
/// datagram finds the host's code and state out of the caches. Between two packets this writes
/// `evictBytes` (more than a core's L2), then times the one packet alone. The hot figure
/// (`measure`) against this one says how much of the host's own cost per packet at that load is
/// the caches, not the work (docs/BENCHMARKS.md, "The in-process core").
enum ColdBench {
    static let evictBytes = 4 << 20

    static func measure<F>(_ name: String, packets: Int, setup: (Int) -> (CoreHarness<F>, [[UInt8]])) -> Double {
        let (host, datagrams) = setup(packets)
        // libc's memset, not a Swift loop: the CI smoke runs this from the debug build, where a
        // byte loop over 4 MiB costs 20 ms a packet.
        let scratch = UnsafeMutableRawPointer.allocate(byteCount: evictBytes, alignment: 64)
        defer { scratch.deallocate() }
        var times: [Int64] = []
        times.reserveCapacity(datagrams.count)
        var round: UInt8 = 0
        for d in datagrams {
            round &+= 1
            memset(scratch, Int32(round), evictBytes)
            let t0 = nanos()
            host.receive(d)
            times.append(nanos() - t0)
        }
        times.sort()
        let median = Double(times[times.count / 2])
        let p90 = Double(times[times.count * 9 / 10])
        print("core \(name), caches cold (\(evictBytes >> 20) MiB written between packets): "
              + "\(Int(median)) ns per motion packet (median), p90 \(Int(p90)) ns, over \(times.count) packets")
        return median
    }
}
#endif
