import NIOCore

/// Why the relay refused to start or to take an address.
package enum ImpairmentRelayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The relay only ever binds and sends to loopback (127.0.0.0/8, ::1).
    case nonLoopbackAddress(String)
    /// Not a numeric IPv4/IPv6 address (names other than `localhost` are not resolved).
    case invalidAddress(String)
    case invalidPort(Int)
    /// Wrong `host:port` syntax.
    case invalidEndpoint(String)

    package var description: String {
        switch self {
        case .nonLoopbackAddress(let a):
            return "impairment relay: \(a) is not a loopback address; the relay only binds and sends to 127.0.0.0/8 or ::1"
        case .invalidAddress(let a):
            return "impairment relay: '\(a)' is not a numeric IP address (or 'localhost')"
        case .invalidPort(let p):
            return "impairment relay: port \(p) is outside 0...65535"
        case .invalidEndpoint(let e):
            return "impairment relay: '\(e)' is not host:port (write 127.0.0.1:9000 or [::1]:9000)"
        }
    }
}

/// Builds socket addresses that are guaranteed to be loopback.
package enum LoopbackAddress {
    /// True for 127.0.0.0/8, ::1 and IPv4-mapped 127.0.0.0/8.
    package static func isLoopback(_ address: SocketAddress) -> Bool {
        guard let ip = address.ipAddress else { return false }
        switch address {
        case .v4: return ip.hasPrefix("127.")
        case .v6: return ip == "::1" || ip.lowercased().hasPrefix("::ffff:127.")
        default: return false
        }
    }

    /// A loopback socket address from a numeric host (or `localhost`) and a port.
    package static func make(host: String, port: Int) throws(ImpairmentRelayError) -> SocketAddress {
        guard (0...65535).contains(port) else { throw .invalidPort(port) }
        let numeric = host.lowercased() == "localhost" ? "127.0.0.1" : host
        let address: SocketAddress
        do {
            address = try SocketAddress(ipAddress: numeric, port: port)
        } catch {
            throw .invalidAddress(host)
        }
        guard isLoopback(address) else { throw .nonLoopbackAddress(host) }
        return address
    }

    /// Parses `127.0.0.1:9000`, `localhost:9000` or `[::1]:9000`.
    package static func parse(endpoint: String) throws(ImpairmentRelayError) -> SocketAddress {
        let host: Substring, portText: Substring
        if endpoint.hasPrefix("[") {
            guard let close = endpoint.firstIndex(of: "]"),
                  endpoint[endpoint.index(after: close)...].hasPrefix(":") else {
                throw .invalidEndpoint(endpoint)
            }
            host = endpoint[endpoint.index(after: endpoint.startIndex)..<close]
            portText = endpoint[endpoint.index(close, offsetBy: 2)...]
        } else {
            guard let colon = endpoint.lastIndex(of: ":"), !endpoint[..<colon].contains(":") else {
                throw .invalidEndpoint(endpoint)
            }
            host = endpoint[..<colon]
            portText = endpoint[endpoint.index(after: colon)...]
        }
        guard let port = Int(portText) else { throw .invalidEndpoint(endpoint) }
        return try make(host: String(host), port: port)
    }

    /// The loopback address of the same family, used to bind the upstream-facing sockets.
    static func bindHost(sameFamilyAs address: SocketAddress) -> String {
        if case .v6 = address { return "::1" }
        return "127.0.0.1"
    }
}
