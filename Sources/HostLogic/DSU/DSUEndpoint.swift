/// A DSU address as the user writes it, checked for form only (no DNS: the adapter
/// turns `host` into a socket address and says so if it is not an IP address).
///
/// - a source (`--dsu`, `[[dsu]] address`): `ADDR[:PORT]`, e.g. `192.168.1.20`,
///   `192.168.1.20:26760`, `[fe80::1%wlan0]:26760`, `::1`; the port defaults to 26760;
/// - the server (`--dsu-serve`): `[ADDR:]PORT`, e.g. `26760`, `0.0.0.0:26760`,
///   `[::1]:26760`; the address defaults to 127.0.0.1 (DSU has no authentication).
package struct DSUEndpoint: Hashable, Sendable, CustomStringConvertible {
    package var host: String
    package var port: Int

    package init(host: String, port: Int) { self.host = host; self.port = port }

    /// Why a DSU address was not accepted; `message` says what to write instead.
    package struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
    }

    /// "127.0.0.1:26760", "[::1]:26760".
    package var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// 127.0.0.0/8 or ::1 (also written in full, or IPv4-mapped).
    package var isLoopback: Bool {
        let h = host.lowercased()
        if h.hasPrefix("127.") { return true }
        if h.hasPrefix("::ffff:127.") { return true }
        let groups = h.split(separator: ":", omittingEmptySubsequences: false)
        guard h.contains("::") || groups.count == 8 else { return false }
        let nonZero = groups.filter { !$0.isEmpty && !$0.allSatisfy { $0 == "0" } }
        return nonZero.count == 1 && nonZero[0].drop { $0 == "0" } == "1" && groups.last.map { !$0.isEmpty } == true
    }

    /// A DSU server to read from: `ADDR[:PORT]` (IPv6 with a port in brackets).
    package static func source(_ text: String) throws(ParseError) -> DSUEndpoint {
        let t = text.trimmingWhitespace
        guard !t.isEmpty else { throw ParseError(message: "empty address; use ADDR[:PORT], e.g. 192.168.1.20:26760") }
        if t.hasPrefix("[") {
            let (host, rest) = try bracketed(t)
            if rest.isEmpty { return DSUEndpoint(host: host, port: Int(DSU.defaultPort)) }
            guard rest.hasPrefix(":") else { throw ParseError(message: "'\(t)': expected [ADDR]:PORT") }
            return DSUEndpoint(host: host, port: try port(String(rest.dropFirst()), in: t))
        }
        let colons = t.filter { $0 == ":" }.count
        if colons == 0 { return DSUEndpoint(host: t, port: Int(DSU.defaultPort)) }
        if colons > 1 { return DSUEndpoint(host: t, port: Int(DSU.defaultPort)) }   // a bare IPv6 address
        let colon = t.firstIndex(of: ":")!
        let host = String(t[..<colon])
        guard !host.isEmpty else { throw ParseError(message: "'\(t)': the address is missing; use ADDR[:PORT]") }
        return DSUEndpoint(host: host, port: try port(String(t[t.index(after: colon)...]), in: t))
    }

    /// Where to serve: `[ADDR:]PORT`; 127.0.0.1 when only a port is given.
    package static func server(_ text: String) throws(ParseError) -> DSUEndpoint {
        let t = text.trimmingWhitespace
        if t.allSatisfy(\.isNumber), !t.isEmpty { return DSUEndpoint(host: "127.0.0.1", port: try port(t, in: t, allowZero: true)) }
        if t.hasPrefix("[") {
            let (host, rest) = try bracketed(t)
            guard rest.hasPrefix(":") else { throw ParseError(message: "'\(t)': expected [ADDR]:PORT") }
            return DSUEndpoint(host: host, port: try port(String(rest.dropFirst()), in: t, allowZero: true))
        }
        guard let colon = t.lastIndex(of: ":"), t.firstIndex(of: ":") == colon, colon != t.startIndex else {
            throw ParseError(message: "'\(t)': expected [ADDR:]PORT, e.g. 26760 or 127.0.0.1:26760 ([ADDR]:PORT for IPv6)")
        }
        return DSUEndpoint(host: String(t[..<colon]), port: try port(String(t[t.index(after: colon)...]), in: t, allowZero: true))
    }

    private static func bracketed(_ t: String) throws(ParseError) -> (String, Substring) {
        guard let close = t.firstIndex(of: "]") else {
            throw ParseError(message: "'\(t)': missing ']' after the IPv6 address; use [ADDR]:PORT")
        }
        let host = String(t[t.index(after: t.startIndex)..<close])
        guard !host.isEmpty else { throw ParseError(message: "'\(t)': the address in brackets is empty") }
        return (host, t[t.index(after: close)...])
    }

    private static func port(_ s: String, in t: String, allowZero: Bool = false) throws(ParseError) -> Int {
        guard let p = Int(s), (allowZero ? 0 : 1)...65535 ~= p else {
            throw ParseError(message: "'\(t)': the port must be a number from \(allowZero ? 0 : 1) to 65535")
        }
        return p
    }
}

extension String {
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
