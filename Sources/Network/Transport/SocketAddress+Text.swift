import NIOCore

/// Parses "HOST:PORT", "[V6]:PORT" or "V6%scope" forms into a socket address.
public enum AddressParser {
    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Splits "host:port" / "[v6]:port" into its parts without resolving names.
    public static func split(_ text: String) throws(ParseError) -> (host: String, port: Int) {
        var host: Substring
        var portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else {
                throw ParseError(description: "'\(text)': missing ']' after the IPv6 address; use [ADDR]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else {
                throw ParseError(description: "'\(text)': missing port; use [ADDR]:PORT")
            }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon else {
                throw ParseError(description: "'\(text)': expected HOST:PORT (IPv6 as [ADDR]:PORT)")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty else { throw ParseError(description: "'\(text)': the host part is empty") }
        guard let port = Int(portText), (1...65535).contains(port) else {
            throw ParseError(description: "'\(text)': port must be a number from 1 to 65535")
        }
        return (String(host), port)
    }

    /// A numeric address and port (no DNS).
    public static func parse(_ text: String) throws(ParseError) -> SocketAddress {
        let (host, port) = try split(text)
        do {
            return try SocketAddress(ipAddress: host, port: port)
        } catch {
            throw ParseError(description: "'\(text)': '\(host)' is not an IPv4 or IPv6 address")
        }
    }
}

extension SocketAddress {
    /// "127.0.0.1:7474" or "[::1]:7474".
    public var displayText: String {
        guard let ip = ipAddress, let port else { return "\(self)" }
        return self.protocol == .inet6 ? "[\(ip)]:\(port)" : "\(ip):\(port)"
    }
}

extension SocketAddress {
    /// A numeric address from discovery, with the interface scope an IPv6 link-local
    /// address needs (`fe80::1` on interface 3 is unusable without it).
    public static func resolved(address: String, port: Int, scopeInterfaceIndex: Int32?) throws -> SocketAddress {
        var plain = try SocketAddress(ipAddress: address, port: port)
        guard case .v6(let v6) = plain, let scope = scopeInterfaceIndex, scope > 0 else { return plain }
        var raw = v6.address
        raw.sin6_scope_id = UInt32(scope)
        plain = SocketAddress(raw, host: address)
        return plain
    }
}

extension SocketAddress {
    /// The addresses a controller can reach this socket at: the bound one, or every
    /// interface's non-loopback, non-link-local address when bound to the wildcard
    /// (IPv4 first); loopback when there is nothing else.
    public static func reachableAddresses(for local: SocketAddress) -> [String] {
        guard let ip = local.ipAddress, ip == "::" || ip == "0.0.0.0" else { return [local.ipAddress ?? "\(local)"] }
        let devices = (try? System.enumerateDevices()) ?? []
        let found = Set(devices.compactMap { d -> String? in
            guard let a = d.address?.ipAddress, a != "::1", a != "127.0.0.1", !a.hasPrefix("fe80") else { return nil }
            return a
        })
        let sorted = found.sorted { ($0.contains(":") ? 1 : 0, $0) < ($1.contains(":") ? 1 : 0, $1) }
        return sorted.isEmpty ? ["127.0.0.1"] : sorted
    }
}
