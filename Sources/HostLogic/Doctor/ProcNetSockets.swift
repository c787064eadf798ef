/// /proc/net/{udp,udp6,tcp,tcp6} read for the ports that are taken: the local port and the
/// socket's inode (which /proc/PID/fd links name as `socket:[INODE]`). TCP sockets count only
/// while listening (state 0A); UDP sockets count while bound (any state).
package enum ProcNetSockets {
    package static func bound(_ text: String, tcp: Bool) -> [(port: Int, inode: UInt64)] {
        var out: [(Int, UInt64)] = []
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: " ", omittingEmptySubsequences: true)
            guard f.count > 9, let colon = f[1].lastIndex(of: ":"),
                  let port = Int(f[1][f[1].index(after: colon)...], radix: 16),
                  let inode = UInt64(f[9]) else { continue }
            if tcp && f[3] != "0A" { continue }
            out.append((port, inode))
        }
        return out
    }
}
