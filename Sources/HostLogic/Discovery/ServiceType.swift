/// Transport protocol label of a DNS-SD service type (RFC 6763 §7: `_udp` or `_tcp`).
package enum TransportProtocol: String, Hashable, Sendable, CaseIterable {
    case udp
    case tcp
}

/// A DNS-SD service type such as `_remotion._udp`.
///
/// The service name follows RFC 6335 §5.1: 1–15 characters, only ASCII letters, digits
/// and hyphens, at least one letter, no hyphen at the start or end, no two hyphens in a row.
package struct ServiceType: Hashable, Sendable, CustomStringConvertible {
    /// The service name without the leading underscore, e.g. `remotion`.
    package let name: String
    package let transport: TransportProtocol

    /// The default Remotion service type, `_remotion._udp`.
    package static let remotion = ServiceType(validated: "remotion", transport: .udp)

    package init(name: String, transport: TransportProtocol) throws(DiscoveryNameError) {
        try Self.validate(serviceName: name)
        self.name = name
        self.transport = transport
    }

    /// Parses `_name._udp` or `_name._tcp` (a trailing dot is accepted).
    package init(parsing text: String) throws(DiscoveryNameError) {
        var rest = Substring(text)
        if rest.hasSuffix(".") { rest = rest.dropLast() }
        let labels = rest.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count == 2 else {
            throw .malformedServiceType(text, hint: "write it as _name._udp or _name._tcp, e.g. _remotion._udp")
        }
        guard labels[0].hasPrefix("_") else {
            throw .malformedServiceType(text, hint: "the service name needs a leading underscore, e.g. _\(labels[0])")
        }
        let transportLabel = labels[1]
        guard transportLabel.hasPrefix("_"),
              let transport = TransportProtocol(rawValue: String(transportLabel.dropFirst()).lowercased())
        else {
            throw .badTransport(String(transportLabel))
        }
        try self.init(name: String(labels[0].dropFirst()), transport: transport)
    }

    private init(validated name: String, transport: TransportProtocol) {
        self.name = name
        self.transport = transport
    }

    /// `_remotion._udp`
    package var description: String { "_\(name)._\(transport.rawValue)" }

    static func validate(serviceName name: String) throws(DiscoveryNameError) {
        let scalars = Array(name.unicodeScalars)
        guard !scalars.isEmpty else { throw .emptyServiceName }
        guard scalars.count <= 15 else { throw .serviceNameTooLong(name, length: scalars.count) }
        for scalar in scalars where !(scalar.isASCIILetter || scalar.isASCIIDigit || scalar == "-") {
            throw .serviceNameCharacter(name, character: Character(scalar))
        }
        guard scalars.contains(where: { $0.isASCIILetter }) else { throw .serviceNameWithoutLetter(name) }
        if scalars.first == "-" || scalars.last == "-" { throw .serviceNameHyphenAtEnd(name) }
        if name.contains("--") { throw .serviceNameDoubleHyphen(name) }
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
