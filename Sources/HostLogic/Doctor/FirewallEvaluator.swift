/// A packet a phone would send to the host: what the firewall's input path sees of it.
package struct FirewallPacket: Sendable, Hashable, CustomStringConvertible {
    package var proto: PortProtocol
    package var port: Int
    /// The interface it arrives on (the one the QR code points at); nil when not known.
    package var interface: String?
    package var family: IPFamily
    /// Where the phone may be: the interface's network (nil: anywhere).
    package var source: IPv4Prefix?
    /// The address it is sent to: the host's (unicast) or a multicast group (mDNS).
    package var destination: IPv4Prefix?
    package var multicast: Bool

    package init(proto: PortProtocol, port: Int, interface: String?, family: IPFamily = .ipv4,
                 source: IPv4Prefix? = nil, destination: IPv4Prefix? = nil, multicast: Bool = false) {
        self.proto = proto
        self.port = port
        self.interface = interface
        self.family = family
        self.source = source
        self.destination = destination
        self.multicast = multicast
    }

    package var description: String { "\(port)/\(proto.rawValue)" + (interface.map { " on \($0)" } ?? "") }
}

/// Where a verdict came from: a rule, or a base chain's policy (`rule` nil).
package struct FirewallPlace: Sendable, Hashable {
    package var source: FirewallSource
    package var family: String
    package var table: String
    package var chain: String
    package var rule: FirewallRule?
}

/// What the input path does with a packet.
package enum FirewallOutcome: Sendable, Hashable {
    case accepted
    case dropped(FirewallPlace, rejected: Bool)
    /// A rule the model cannot read decides it (`place.rule`), or the path branches on it.
    case cannotTell(FirewallPlace, why: String)
}

/// Runs a packet through the input path of a ruleset: the filter base chains on the
/// ingress, prerouting and input hooks of the packet's family, in hook then priority order.
/// An accept ends one base chain; a drop or reject ends them all. A match it cannot
/// decide splits the path: when both branches end the same way the answer stands,
/// otherwise it is "cannot tell", naming the rule. Pure; linear in the rules (each chain
/// position is evaluated once).
package struct FirewallEvaluator {
    package let ruleset: FirewallRuleset

    package init(_ ruleset: FirewallRuleset) { self.ruleset = ruleset }

    enum Step: Hashable {
        case accept
        case drop(FirewallPlace, rejected: Bool)
        case passThrough
        case unknown(FirewallPlace, String)
    }

    private struct Key: Hashable { var chain: Int; var index: Int }

    private final class Run {
        var memo: [Key: Set<Step>] = [:]
        var firstUnknown: FirewallPlace?
        var budget = 100_000
    }

    package func evaluate(_ packet: FirewallPacket) -> FirewallOutcome {
        let hookOrder = ["ingress": 0, "prerouting": 1, "input": 2]
        let bases = ruleset.chains.indices.filter { i in
            let c = ruleset.chains[i]
            guard let hook = c.hook, hookOrder[hook] != nil, c.type == nil || c.type == "filter" else { return false }
            guard applies(family: c.family, to: packet) else { return false }
            if hook == "ingress", !c.devices.isEmpty, let iface = packet.interface {
                return c.devices.contains(iface)
            }
            return true
        }.sorted {
            let a = ruleset.chains[$0], b = ruleset.chains[$1]
            return (hookOrder[a.hook!]!, a.priority) < (hookOrder[b.hook!]!, b.priority)
        }
        let run = Run()
        var unknown: (FirewallPlace, String)?
        for i in bases {
            let chain = ruleset.chains[i]
            let steps = rules(i, 0, packet, run, depth: 0)
            var ends = Set<Step>()
            for step in steps {
                if step == .passThrough {
                    let place = FirewallPlace(source: ruleset.source, family: chain.family, table: chain.table,
                                              chain: chain.name, rule: nil)
                    ends.insert(chain.policy == "drop" ? .drop(place, rejected: false) : .accept)
                } else if case .drop(let place, _) = step, chain.hook == "ingress", chain.devices.isEmpty {
                    // nft 1.0.6's JSON leaves out an ingress chain's device: it may be another interface.
                    ends.insert(.unknown(place, "the ingress chain's device is not in nft's JSON"))
                } else {
                    ends.insert(step)
                }
            }
            if ends == [.accept] { continue }
            let drops = ends.compactMap { step -> (FirewallPlace, Bool)? in
                if case .drop(let p, let r) = step { return (p, r) } else { return nil }
            }.sorted { ($0.0.rule?.handle ?? Int.max) < ($1.0.rule?.handle ?? Int.max) }
            if drops.count == ends.count, let (place, rejected) = drops.first {
                return .dropped(place, rejected: rejected)
            }
            // Some paths accept and some drop, or one ends where the doctor cannot see: a later
            // chain may still drop for certain, so go on, but "accepted" is no longer the answer.
            if unknown == nil {
                for step in ends { if case .unknown(let p, let why) = step { unknown = (p, why) } }
            }
            if unknown == nil, let place = run.firstUnknown ?? drops.first?.0 {
                let what = place.rule.map { "whether \"\($0.text)\" matches depends on what the doctor cannot see" }
                unknown = (place, what ?? "a rule the doctor cannot read decides it")
            }
        }
        if let (place, why) = unknown { return .cannotTell(place, why: why) }
        return .accepted
    }

    private func applies(family: String, to packet: FirewallPacket) -> Bool {
        switch family {
        case "ip": packet.family == .ipv4
        case "ip6": packet.family == .ipv6
        case "inet", "netdev": true
        default: false
        }
    }

    /// The possible ends of running chain `chain` from rule `index`.
    private func rules(_ chain: Int, _ index: Int, _ packet: FirewallPacket, _ run: Run, depth: Int) -> Set<Step> {
        let key = Key(chain: chain, index: index)
        if let known = run.memo[key] { return known }
        let c = ruleset.chains[chain]
        run.budget -= 1
        guard index < c.rules.count else { return [.passThrough] }
        let rule = c.rules[index]
        let place = FirewallPlace(source: ruleset.source, family: c.family, table: c.table, chain: c.name, rule: rule)
        guard run.budget > 0, depth < 16 else { return [.unknown(place, "the ruleset is too deep to follow")] }
        var result: Set<Step>
        switch FirewallMatching.rule(rule, packet) {
        case .no:
            result = rules(chain, index + 1, packet, run, depth: depth)
        case .yes:
            result = verdict(rule, place, chain, index, packet, run, depth: depth)
        case .unknown:
            run.firstUnknown = run.firstUnknown ?? place
            result = verdict(rule, place, chain, index, packet, run, depth: depth)
                .union(rules(chain, index + 1, packet, run, depth: depth))
        }
        run.memo[key] = result
        return result
    }

    private func verdict(_ rule: FirewallRule, _ place: FirewallPlace, _ chain: Int, _ index: Int,
                         _ packet: FirewallPacket, _ run: Run, depth: Int) -> Set<Step> {
        let next = { rules(chain, index + 1, packet, run, depth: depth) }
        guard let verdict = rule.verdict else { return next() }
        switch verdict {
        case .accept: return [.accept]
        case .drop: return [.drop(place, rejected: false)]
        case .reject: return [.drop(place, rejected: true)]
        case .return: return [.passThrough]
        case .unknown(let what): return [.unknown(place, what)]
        case .jump(let target), .goto(let target):
            let c = ruleset.chains[chain]
            guard let sub = ruleset.chains.firstIndex(where: {
                $0.family == c.family && $0.table == c.table && $0.name == target
            }) else { return [.unknown(place, "it jumps to a chain \(target) that is not in the ruleset")] }
            let inner = rules(sub, 0, packet, run, depth: depth + 1)
            guard inner.contains(.passThrough), case .jump = verdict else { return inner }
            return inner.subtracting([.passThrough]).union(next())
        }
    }
}
