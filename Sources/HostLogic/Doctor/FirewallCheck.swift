/// The firewall lines: whether a phone's first packet to one of the host's ports gets in,
/// and if not, which table, chain and rule drop it and the command that lets it in.
package struct FirewallCheck: Sendable {
    /// What the adapters read: each ruleset that could be read, and what could not be.
    package var rulesets: [FirewallRuleset]
    /// "nft -j list ruleset: Operation not permitted", …: a tool that exists but said no.
    package var unreadable: [String]
    /// ufw is enabled (its rules are then iptables or nftables rules; the fix is `ufw allow`).
    package var ufwActive: Bool

    package init(rulesets: [FirewallRuleset], unreadable: [String] = [], ufwActive: Bool = false) {
        self.rulesets = rulesets
        self.unreadable = unreadable
        self.ufwActive = ufwActive
    }

    /// One line for `what` ("controller port", …): every port in `ports` is asked about.
    package func line(id: String, what: String, ports: ClosedRange<Int>, packet base: FirewallPacket) -> DoctorLine {
        let portText = ports.count == 1 ? "\(ports.lowerBound)/\(base.proto.rawValue)"
            : "\(ports.lowerBound)-\(ports.upperBound)/\(base.proto.rawValue)"
        let on = base.interface.map { " on \($0)" } ?? ""
        var details = ["port": portText]
        if let i = base.interface { details["interface"] = i }
        if rulesets.isEmpty {
            if let why = unreadable.first {
                return DoctorLine(id, .warn, "\(what) \(portText)\(on): cannot read the firewall (\(why))",
                                  fix: "run `sudo remotion doctor` to check the firewall", details: details)
            }
            return DoctorLine(id, .pass, "\(what) \(portText)\(on): no firewall rules", details: details)
        }
        var unclear: (Int, FirewallPlace, String)?
        for port in ports {
            var packet = base
            packet.port = port
            for ruleset in rulesets {
                switch FirewallEvaluator(ruleset).evaluate(packet) {
                case .accepted: continue
                case .dropped(let place, let rejected):
                    details.merge(Self.details(place)) { $1 }
                    details["blockedPort"] = String(port)
                    let by = place.rule.map { "rule \"\($0.text)\"" } ?? "the chain's policy (drop)"
                    let verb = rejected ? "rejected" : "dropped"
                    let which = ports.count == 1 ? "" : " (\(port) among them)"
                    return DoctorLine(id, .fail, "\(what) \(portText)\(on) is \(verb)\(which) by \(Self.name(place)), \(by)",
                                      fix: fix(place, proto: base.proto, ports: ports), details: details)
                case .cannotTell(let place, let why):
                    unclear = unclear ?? (port, place, why)
                }
            }
        }
        if let (_, place, why) = unclear {
            details.merge(Self.details(place)) { $1 }
            return DoctorLine(id, .warn, "\(what) \(portText)\(on): cannot tell whether \(Self.name(place)) lets it in: \(why)",
                              fix: fix(place, proto: base.proto, ports: ports), details: details)
        }
        let tools = Set(rulesets.map(\.source.rawValue)).sorted().joined(separator: " and ")
        return DoctorLine(id, .pass, "\(what) \(portText)\(on): the firewall (\(tools)) lets it in", details: details)
    }

    static func name(_ p: FirewallPlace) -> String {
        p.source == .nftables ? "nftables table \(p.family) \(p.table), chain \(p.chain)"
            : "iptables chain \(p.chain)"
    }

    static func details(_ p: FirewallPlace) -> [String: String] {
        var d = ["firewall": p.source.rawValue, "table": "\(p.family) \(p.table)", "chain": p.chain]
        if let rule = p.rule {
            d["rule"] = rule.text
            d["handle"] = String(rule.handle)
        } else {
            d["rule"] = "policy drop"
        }
        return d
    }

    /// The command that lets the ports in, written for the tool that manages the rule.
    func fix(_ p: FirewallPlace, proto: PortProtocol, ports: ClosedRange<Int>) -> String {
        let single = ports.count == 1
        let dash = single ? "\(ports.lowerBound)" : "\(ports.lowerBound)-\(ports.upperBound)"
        let colon = single ? "\(ports.lowerBound)" : "\(ports.lowerBound):\(ports.upperBound)"
        if p.table == "firewalld" {
            return "sudo firewall-cmd --add-port=\(dash)/\(proto.rawValue) && sudo firewall-cmd --runtime-to-permanent"
        }
        if ufwActive || p.chain.hasPrefix("ufw") {
            return "sudo ufw allow \(colon)/\(proto.rawValue)"
        }
        switch p.source {
        case .nftables:
            let position = p.rule.map { " position \($0.handle)" } ?? ""
            let verb = p.rule == nil ? "add" : "insert"
            return "sudo nft \(verb) rule \(p.family) \(p.table) \(p.chain)\(position) \(proto.rawValue) dport \(dash) accept"
                + "; keep it in /etc/nftables.conf"
        case .iptables:
            return "sudo iptables -I \(p.chain) -p \(proto.rawValue) --dport \(colon) -j ACCEPT"
        }
    }
}
