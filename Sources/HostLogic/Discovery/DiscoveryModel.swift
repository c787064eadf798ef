/// Identity of one sighting of a service: the same instance seen on two interfaces is two keys.
package struct ServiceKey: Hashable, Sendable, Comparable {
    package var name: String
    package var type: ServiceType
    package var domain: String
    package var interfaceIndex: Int32

    package init(name: String, type: ServiceType, domain: String, interfaceIndex: Int32) {
        self.name = name
        self.type = type
        self.domain = domain
        self.interfaceIndex = interfaceIndex
    }

    package static func < (a: ServiceKey, b: ServiceKey) -> Bool {
        (a.name, a.type.description, a.domain, a.interfaceIndex)
            < (b.name, b.type.description, b.domain, b.interfaceIndex)
    }
}

/// A service instance seen by a browser (not yet resolved). DNS-SD browsing does not carry the
/// TXT record, so `txt` is empty unless the backend already knows it.
package struct DiscoveredService: Hashable, Sendable {
    package var name: String
    package var type: ServiceType
    package var domain: String
    package var interfaceIndex: Int32
    package var txt: TXTRecord

    package init(name: String, type: ServiceType, domain: String, interfaceIndex: Int32,
                txt: TXTRecord = TXTRecord()) {
        self.name = name
        self.type = type
        self.domain = domain
        self.interfaceIndex = interfaceIndex
        self.txt = txt
    }

    package var key: ServiceKey {
        ServiceKey(name: name, type: type, domain: domain, interfaceIndex: interfaceIndex)
    }
}

package enum AddressFamily: String, Hashable, Sendable {
    case ipv4
    case ipv6
}

/// One address of a resolved service.
package struct ResolvedAddress: Hashable, Sendable, CustomStringConvertible {
    /// Numeric address without scope, e.g. `10.77.0.1` or `fe80::1`.
    package var address: String
    package var family: AddressFamily
    /// Interface index for IPv6 link-local addresses (fe80::/10); nil otherwise.
    package var scopeInterfaceIndex: Int32?

    package init(address: String, family: AddressFamily, scopeInterfaceIndex: Int32? = nil) {
        self.address = address
        self.family = family
        self.scopeInterfaceIndex = scopeInterfaceIndex
    }

    /// Builds an address, attaching `interfaceIndex` as scope only when it is IPv6 link-local.
    package init(address: String, family: AddressFamily, interfaceIndex: Int32) {
        let scoped = family == .ipv6 && Self.isLinkLocalIPv6(address) && interfaceIndex >= 0
        self.init(address: address, family: family, scopeInterfaceIndex: scoped ? interfaceIndex : nil)
    }

    /// `fe80::1%3` for scoped addresses (numeric scope, accepted by getaddrinfo), else the address.
    package var description: String {
        if let scopeInterfaceIndex { return "\(address)%\(scopeInterfaceIndex)" }
        return address
    }

    package static func isLinkLocalIPv6(_ text: String) -> Bool {
        let lower = text.lowercased()
        return ["fe8", "fe9", "fea", "feb"].contains(where: { lower.hasPrefix($0) })
    }
}

/// A resolved service: where to send datagrams.
package struct ResolvedService: Hashable, Sendable {
    package var service: DiscoveredService
    package var hostName: String
    package var port: UInt16
    /// IPv4 addresses first, then IPv6; no duplicates.
    package var addresses: [ResolvedAddress]
    package var txt: TXTRecord

    package init(service: DiscoveredService, hostName: String, port: UInt16,
                addresses: [ResolvedAddress], txt: TXTRecord) {
        self.service = service
        self.hostName = hostName
        self.port = port
        self.addresses = addresses
        self.txt = txt
    }

    package var name: String { service.name }
    package var key: ServiceKey { service.key }
}

/// What a browse stream reports.
package enum DiscoveryEvent: Hashable, Sendable {
    case added(DiscoveredService)
    case removed(DiscoveredService)
    case resolved(ResolvedService)
    /// A browse or resolve error reported by the backend; browsing may continue.
    case failure(String)
    /// The discovery daemon is not running (or went away): the list is empty until it returns.
    case daemonUnavailable
}

/// Handle to a registration; `name` is the final name after conflict renames.
package struct PublishedService: Hashable, Sendable {
    package var id: Int
    package var name: String
    package var type: ServiceType
    package var port: UInt16

    package init(id: Int, name: String, type: ServiceType, port: UInt16) {
        self.id = id
        self.name = name
        self.type = type
        self.port = port
    }
}

package enum DiscoveryError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The daemon is not running; `message` says what the user can do.
    case daemonUnavailable(message: String)
    case publishFailed(String)
    case resolveFailed(name: String, reason: String)
    case invalidTXT(TXTError)

    package var description: String {
        switch self {
        case let .daemonUnavailable(message): return message
        case let .publishFailed(reason): return "could not publish the service: \(reason)"
        case let .resolveFailed(name, reason): return "could not resolve '\(name)': \(reason)"
        case let .invalidTXT(error): return error.description
        }
    }
}

/// Finds services. Streams end when the consumer stops iterating.
package protocol ServiceBrowser: Sendable {
    /// Live events for `type`; the backend resolves each added service and reports `.resolved`.
    func browse(type: ServiceType) -> AsyncStream<DiscoveryEvent>
    /// One-shot resolve of a browsed service, with all its addresses.
    func resolve(_ service: DiscoveredService) async throws -> ResolvedService
}

/// Announces services.
package protocol ServicePublisher: Sendable {
    /// Registers the service and waits until it is announced; returns the final name (the
    /// backend renames on conflicts, e.g. "Remotion on desk #2"). Re-announces by itself when
    /// the daemon restarts.
    func publish(name: InstanceName, type: ServiceType, port: UInt16, txt: TXTRecord) async throws
        -> PublishedService
    /// Withdraws the service (goodbye packets are sent by the daemon).
    func unpublish(_ service: PublishedService) async
}
