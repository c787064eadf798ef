/// Yes, no, or cannot tell: whether a rule's match holds for a packet.
package enum Tri: Sendable, Hashable {
    case yes, no, unknown

    static func from(_ value: Bool, negated: Bool) -> Tri { value != negated ? .yes : .no }

    var inverted: Tri {
        switch self {
        case .yes: .no
        case .no: .yes
        case .unknown: .unknown
        }
    }
}

/// Whether each kind of `FirewallMatch` holds for a `FirewallPacket`.
enum FirewallMatching {
    /// All matches must hold: one `no` decides; otherwise any `unknown` leaves it open.
    static func rule(_ rule: FirewallRule, _ packet: FirewallPacket) -> Tri {
        var result = Tri.yes
        for m in rule.matches {
            switch match(m, packet) {
            case .no: return .no
            case .unknown: result = .unknown
            case .yes: break
            }
        }
        return result
    }

    static func match(_ m: FirewallMatch, _ p: FirewallPacket) -> Tri {
        switch m {
        case .proto(let set, let negated):
            return .from(set.contains(p.proto), negated: negated)
        case .destinationPort(let ranges, let proto, let negated):
            // `udp dport != 53` still needs a UDP packet.
            if let proto, proto != p.proto { return .no }
            return .from(ranges.contains { $0.contains(p.port) }, negated: negated)
        case .inputInterface(let names, let negated):
            guard let iface = p.interface else { return .unknown }
            return .from(names.contains { interface(iface, matches: $0) }, negated: negated)
        case .family(let family):
            return family == p.family ? .yes : .no
        case .sourceAddress(let prefixes, let negated):
            guard p.family == .ipv4 else { return .no }
            return address(p.source, in: prefixes, negated: negated)
        case .destinationAddress(let prefixes, let negated):
            guard p.family == .ipv4 else { return .no }
            return address(p.destination, in: prefixes, negated: negated)
        case .connectionState(let states, let negated):
            // The first packet of a phone's flow is NEW; the doctor asks about that one.
            return .from(states.contains("new"), negated: negated)
        case .connectionStatus(_, let negated):
            return .from(false, negated: negated)
        case .packetType(let types, let negated):
            return .from(types.contains(p.multicast ? "multicast" : "host"), negated: negated)
        case .unknown:
            return .unknown
        }
    }

    /// nftables' `wlan*` and iptables' `wlan+` are prefixes.
    static func interface(_ name: String, matches pattern: String) -> Bool {
        if pattern.hasSuffix("*") || pattern.hasSuffix("+") { return name.hasPrefix(String(pattern.dropLast())) }
        return name == pattern
    }

    /// A network is inside one of the prefixes (yes), outside all (no), or straddles one.
    static func address(_ network: IPv4Prefix?, in prefixes: [IPv4Prefix], negated: Bool) -> Tri {
        guard let network else { return .unknown }
        if prefixes.contains(where: { $0.contains(network) }) { return .from(true, negated: negated) }
        if prefixes.allSatisfy({ !$0.overlaps(network) }) { return .from(false, negated: negated) }
        return .unknown
    }
}
