/// A firewall's input path as the doctor models it (docs/DOCTOR.md): chains of rules, each a
/// list of matches and a verdict, read from `nft -j list ruleset` (`NftRuleset`) or
/// `iptables-save` (`IptablesRuleset`) and asked about one packet by `FirewallEvaluator`.
/// A match the model does not understand is kept as `.unknown`, so the answer becomes
/// "cannot tell" instead of a guess.
package struct FirewallRuleset: Sendable, Hashable {
    package var chains: [FirewallChain]
    /// Which tool the rules came from: fixes are written for it.
    package var source: FirewallSource

    package init(chains: [FirewallChain], source: FirewallSource) {
        self.chains = chains
        self.source = source
    }

    func chain(family: String, table: String, name: String) -> FirewallChain? {
        chains.first { $0.family == family && $0.table == table && $0.name == name }
    }
}

package enum FirewallSource: String, Sendable, Hashable {
    case nftables, iptables
}

package struct FirewallChain: Sendable, Hashable {
    /// nftables: ip, ip6, inet, netdev; iptables: ip.
    package var family: String
    package var table: String
    package var name: String
    /// input, prerouting, ingress; nil for a chain that is only jumped to.
    package var hook: String?
    /// filter, nat, route (nftables); only filter chains decide a packet's fate.
    package var type: String?
    package var priority: Int
    /// The base chain's policy: "accept" or "drop".
    package var policy: String
    /// A netdev ingress chain's devices (empty: not bound to a device).
    package var devices: [String]
    package var rules: [FirewallRule]

    package init(family: String, table: String, name: String, hook: String? = nil, type: String? = nil,
                 priority: Int = 0, policy: String = "accept", devices: [String] = [], rules: [FirewallRule] = []) {
        self.family = family
        self.table = table
        self.name = name
        self.hook = hook
        self.type = type
        self.priority = priority
        self.policy = policy
        self.devices = devices
        self.rules = rules
    }
}

package struct FirewallRule: Sendable, Hashable {
    package var matches: [FirewallMatch]
    /// nil: the rule only counts or logs; the packet goes on to the next rule.
    package var verdict: FirewallVerdict?
    /// nftables' rule handle (`nft … position H`); the line number in iptables.
    package var handle: Int
    /// The rule as its tool writes it, for people ("udp dport 7474 drop").
    package var text: String

    package init(matches: [FirewallMatch], verdict: FirewallVerdict?, handle: Int, text: String) {
        self.matches = matches
        self.verdict = verdict
        self.handle = handle
        self.text = text
    }
}

package enum FirewallVerdict: Sendable, Hashable {
    case accept, drop, reject
    case jump(String), goto(String)
    case `return`
    /// queue, a verdict map the model cannot read: what happens is not known.
    case unknown(String)
}

package enum PortProtocol: String, Sendable, Hashable {
    case udp, tcp
    package var number: Int { self == .udp ? 17 : 6 }
}

/// One condition of a rule. `negated` inverts it (`!=`, iptables' `!`).
package enum FirewallMatch: Sendable, Hashable {
    /// The transport protocol is one of these (l4proto, ip protocol, -p).
    case proto(Set<PortProtocol>, negated: Bool)
    /// The destination port is in these ranges; with a protocol, also that protocol
    /// (`udp dport` matches only UDP; `th dport` any).
    case destinationPort([ClosedRange<Int>], proto: PortProtocol?, negated: Bool)
    /// The input interface's name matches one of these (a trailing `*` or `+` is a wildcard).
    case inputInterface([String], negated: Bool)
    /// ipv4 or ipv6 (nfproto, `ip saddr` implies ipv4).
    case family(IPFamily)
    case sourceAddress([IPv4Prefix], negated: Bool)
    case destinationAddress([IPv4Prefix], negated: Bool)
    /// Connection-tracking states; a phone's first packet is `new`.
    case connectionState(Set<String>, negated: Bool)
    /// Connection-tracking status bits (dnat, snat, …); a phone's packet to the host has none.
    case connectionStatus(Set<String>, negated: Bool)
    /// host, multicast, broadcast.
    case packetType(Set<String>, negated: Bool)
    /// Anything else: the evaluator cannot tell whether it matches.
    case unknown(String)
}

package enum IPFamily: String, Sendable, Hashable {
    case ipv4, ipv6
}

/// An IPv4 network: address and prefix length.
package struct IPv4Prefix: Sendable, Hashable, CustomStringConvertible {
    package var address: UInt32
    package var length: Int

    package init(address: UInt32, length: Int) {
        self.length = max(0, min(32, length))
        self.address = address & Self.mask(self.length)
    }

    /// "10.0.0.0/8", "10.1.2.3" (a /32); nil when it is not IPv4.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard let first = parts.first, let address = Self.parseAddress(String(first)) else { return nil }
        var length = 32
        if parts.count == 2 {
            guard let l = Int(parts[1]), (0...32).contains(l) else { return nil }
            length = l
        }
        self.init(address: address, length: length)
    }

    static func mask(_ length: Int) -> UInt32 { length == 0 ? 0 : UInt32.max << UInt32(32 - length) }

    package static func parseAddress(_ text: String) -> UInt32? {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4 else { return nil }
        var value: UInt32 = 0
        for o in octets {
            guard let b = UInt8(o) else { return nil }
            value = value << 8 | UInt32(b)
        }
        return value
    }

    /// Whether every address of `other` is in this network.
    package func contains(_ other: IPv4Prefix) -> Bool {
        other.length >= length && other.address & Self.mask(length) == address
    }

    /// Whether the two networks share any address.
    package func overlaps(_ other: IPv4Prefix) -> Bool { contains(other) || other.contains(self) }

    package var description: String {
        let a = address
        return "\(a >> 24).\(a >> 16 & 255).\(a >> 8 & 255).\(a & 255)/\(length)"
    }
}
