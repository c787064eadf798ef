#if canImport(Glibc)
import Glibc
import Foundation
import RemotionProtocol
import RemotionNetwork
import CLoadSend

// The benchmark's load (scripts/bench.sh, docs/BENCHMARKS.md): N controllers, each with
// its own socket and a real session (plain ping/pong, or a Noise IK handshake with the
// keys `remotion pair` stored), pacing motion datagrams at R Hz with sendmmsg; R = 0
// sends flat out (saturation). Loopback only; it stops by itself after SECONDS.
//
//   remotion-load --port P --sessions N --rate R --seconds S [--mode plain|noise|raw] [--data-dir D]
//                 [--receiver-pid PID]
// With --receiver-pid it reads that process's CPU time and its socket's kernel drops
// from /proc when streaming starts and ends (after the sessions opened).
//
// raw: no session, plain motion datagrams for the floor receiver (which answers nothing).

struct Options {
    var port: UInt16 = 0
    var sessions = 4
    var rate = 250.0
    var seconds = 3.0
    var mode = "plain"
    var dataDir = ""
    /// The receiver to measure (host or floor): its CPU and its socket's kernel drops.
    var receiverPid: Int32 = 0

    init(_ args: [String]) throws(LoadError) {
        var i = 1
        func value() throws(LoadError) -> String {
            i += 1
            guard i < args.count else { throw LoadError("\(args[i - 1]) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--port": port = UInt16(try value()) ?? 0
            case "--sessions": sessions = Int(try value()) ?? 0
            case "--rate": rate = Double(try value()) ?? -1
            case "--seconds": seconds = Double(try value()) ?? 0
            case "--mode": mode = try value()
            case "--data-dir": dataDir = try value()
            case "--receiver-pid": receiverPid = Int32(try value()) ?? 0
            default: throw LoadError("unknown argument \(args[i])")
            }
            i += 1
        }
        guard port != 0, (1...1024).contains(sessions), rate >= 0, seconds > 0, seconds <= 120,
              ["plain", "noise", "raw"].contains(mode) else {
            throw LoadError("usage: remotion-load --port P --sessions 1-1024 --rate HZ(0=flat out) --seconds 0-120 [--mode plain|noise|raw] [--data-dir D]")
        }
    }
}

func makeFraming(_ o: Options) throws -> () -> LoadController.Framing {
    switch o.mode {
    case "plain": return { .plain(PlainClientFraming()) }
    case "raw": return { .raw }
    default:
        let store = KeyStore(directory: URL(fileURLWithPath: o.dataDir))
        let key = try store.clientKey()
        guard let host = try store.knownHosts().first, let hostStatic = host.key else {
            throw LoadError("no paired host in \(o.dataDir)")
        }
        return { .noise(NoiseClientFraming(staticKey: key, hostStatic: hostStatic)) }
    }
}

/// Opens every session (retrying pings and handshakes, 15 s at most).
func open(_ controllers: inout [LoadController], raw: Bool) {
    guard !raw else { return }
    for i in controllers.indices { controllers[i].start() }
    let deadline = LoadController.monotonicNanos() + 15_000_000_000
    var lastRetry = LoadController.monotonicNanos()
    while LoadController.monotonicNanos() < deadline, controllers.contains(where: { !$0.opened }) {
        usleep(2_000)
        for i in controllers.indices where !controllers[i].opened { controllers[i].drain() }
        if LoadController.monotonicNanos() - lastRetry > 500_000_000 {
            lastRetry = LoadController.monotonicNanos()
            for i in controllers.indices where !controllers[i].opened { controllers[i].sendPing() }
        }
    }
}

/// Sends up to 64 datagrams on one socket with one sendmmsg.
struct Batch {
    static let capacity = 64
    static let stride = 2048
    let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * stride)
    var lengths = [Int](repeating: 0, count: capacity)
    var count = 0

    mutating func add(_ bytes: [UInt8]) {
        let n = min(bytes.count, Self.stride)
        bytes.withUnsafeBufferPointer { (storage + count * Self.stride).update(from: $0.baseAddress!, count: n) }
        lengths[count] = n
        count += 1
    }

    /// Returns how many the kernel took.
    mutating func flush(_ fd: Int32) -> Int {
        guard count > 0 else { return 0 }
        defer { count = 0 }
        return Int(max(0, lengths.withUnsafeBufferPointer {
            remotion_sendmmsg(fd, storage, Self.stride, $0.baseAddress, UInt32(count))
        }))
    }
}

func run() throws {
    let o = try Options(CommandLine.arguments)
    let make = try makeFraming(o)
    let start = LoadController.monotonicNanos()
    let period = o.rate > 0 ? Int64(1e9 / o.rate) : 0
    var controllers: [LoadController] = []
    var rng = SecureRandom()
    for i in 0..<o.sessions {
        controllers.append(try LoadController(host: o.port, session: SessionID(UInt32.random(in: 1...UInt32.max, using: &rng)),
                                              framing: make(), due: start + Int64(i) * period / Int64(o.sessions)))
    }
    open(&controllers, raw: o.mode == "raw")
    let opened = o.mode == "raw" ? o.sessions : controllers.filter(\.opened).count
    var batch = Batch()
    let probe = ReceiverProbe(pid: o.receiverPid, port: o.port)
    let before = probe.read()
    let t0 = LoadController.monotonicNanos()
    let end = t0 + Int64(o.seconds * 1e9)
    for i in controllers.indices { controllers[i].due = t0 + Int64(i) * period / Int64(o.sessions) }
    var lastDrain = t0
    var now = t0
    while now < end {
        var nextDue = end
        for i in controllers.indices {
            var c = controllers[i]
            if period == 0 {
                for _ in 0..<16 { if let b = c.nextMotion(nowNanos: now) { batch.add(b) } }
            } else {
                while c.due <= now, batch.count < Batch.capacity {
                    if let b = c.nextMotion(nowNanos: now) { batch.add(b) }
                    c.due += period
                }
                nextDue = min(nextDue, c.due)
            }
            let wanted = batch.count
            let took = batch.flush(c.fd)
            c.sent += took
            c.sendErrors += wanted - took
            controllers[i] = c
        }
        now = LoadController.monotonicNanos()
        if now - lastDrain > 100_000_000 {
            lastDrain = now
            for i in controllers.indices { controllers[i].drain() }
        }
        if period > 0, nextDue > now {
            var ts = timespec(tv_sec: Int(nextDue / 1_000_000_000), tv_nsec: Int(nextDue % 1_000_000_000))
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil)
            now = LoadController.monotonicNanos()
        }
    }
    let elapsed = Double(LoadController.monotonicNanos() - t0) / 1e9
    // Let the receiver finish what is queued before reading its CPU (its queue empties
    // in far less than this at every rate measured).
    usleep(150_000)
    let after = probe.read()
    for i in controllers.indices { controllers[i].drain() }
    let sent = controllers.reduce(0) { $0 + $1.sent }
    let errors = controllers.reduce(0) { $0 + $1.sendErrors }
    let disconnects = controllers.reduce(0) { $0 + $1.disconnectsReceived }
    for i in controllers.indices { controllers[i].close() }
    print("opened \(opened) of \(o.sessions) sent \(sent) seconds \(String(format: "%.3f", elapsed)) send_errors \(errors) disconnects \(disconnects) receiver_cpu_ns \(after.cpuNanos - before.cpuNanos) kernel_drops \(after.kernelDrops - before.kernelDrops)")
}

do {
    try run()
} catch {
    FileHandle.standardError.write(Data("remotion-load: \(error)\n".utf8))
    exit(1)
}
#endif
