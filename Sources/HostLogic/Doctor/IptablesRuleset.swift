/// `iptables-save` text (its filter table) read into a `FirewallRuleset`: the INPUT chain
/// and the chains it jumps to. Understood: -p, -i, -s, -d, --dport(s) (multiport too),
/// -m state/conntrack, -m pkttype, -m comment and the protocol's own -m udp/-m tcp, and the
/// targets ACCEPT, DROP, REJECT, RETURN, LOG, a user chain (-j, -g). Anything else is an
/// unknown match: the evaluator then says "cannot tell". ufw's chains are plain iptables.
package enum IptablesRuleset {
    package static func parse(_ text: String) -> FirewallRuleset {
        var chains: [FirewallChain] = []
        var inFilter = false
        var line = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            line += 1
            let l = raw.trimmingCharacters(in: .whitespaces)
            if l.hasPrefix("*") { inFilter = l == "*filter"; continue }
            guard inFilter else { continue }
            if l.hasPrefix(":") {
                let parts = l.dropFirst().split(separator: " ")
                guard let name = parts.first else { continue }
                let builtIn = parts.count > 1 && parts[1] != "-"
                chains.append(FirewallChain(family: "ip", table: "filter", name: String(name),
                                            hook: name == "INPUT" ? "input" : nil, type: "filter",
                                            policy: builtIn && parts[1] == "DROP" ? "drop" : "accept"))
            } else if l.hasPrefix("-A ") {
                let words = tokens(String(l.dropFirst(3)))
                guard let chain = words.first, let index = chains.firstIndex(where: { $0.name == chain }) else { continue }
                chains[index].rules.append(rule(Array(words.dropFirst()), handle: line, text: l,
                                                chainNames: Set(chains.map(\.name))))
            }
        }
        return FirewallRuleset(chains: chains, source: .iptables)
    }

    static func rule(_ words: [String], handle: Int, text: String, chainNames: Set<String>) -> FirewallRule {
        var matches: [FirewallMatch] = []
        var verdict: FirewallVerdict?
        var proto: PortProtocol?
        var negate = false
        var i = 0
        func next() -> String? { i += 1; return i < words.count ? words[i] : nil }
        while i < words.count {
            let w = words[i]
            if w == "!" { negate = true; i += 1; continue }
            let neg = negate
            negate = false
            switch w {
            case "-p", "--protocol":
                let v = next() ?? ""
                if let p = PortProtocol(rawValue: v) {
                    proto = p
                    matches.append(.proto([p], negated: neg))
                } else if v == "all" {
                    break
                } else {
                    matches.append(.proto([], negated: neg))  // icmp, …: never UDP or TCP
                }
            case "-i", "--in-interface":
                matches.append(.inputInterface([next() ?? ""], negated: neg))
            case "-s", "--source", "-d", "--destination":
                let v = next() ?? ""
                let prefixes = v.split(separator: ",").compactMap { IPv4Prefix(String($0)) }
                if prefixes.isEmpty { matches.append(.unknown("\(w) \(v)")); break }
                matches.append(w.hasPrefix("-s") || w == "--source" ? .sourceAddress(prefixes, negated: neg)
                               : .destinationAddress(prefixes, negated: neg))
            case "--dport", "--destination-port", "--dports", "--destination-ports":
                let v = next() ?? ""
                var ranges: [ClosedRange<Int>] = []
                for part in v.split(separator: ",") {
                    let ends = part.split(separator: ":").compactMap { Int($0) }
                    if ends.count == 1 { ranges.append(ends[0]...ends[0]) }
                    else if ends.count == 2, ends[0] <= ends[1] { ranges.append(ends[0]...ends[1]) }
                }
                matches.append(ranges.isEmpty ? .unknown("\(w) \(v)") : .destinationPort(ranges, proto: proto, negated: neg))
            case "--state", "--ctstate":
                let states = (next() ?? "").lowercased().split(separator: ",").map(String.init)
                matches.append(.connectionState(Set(states), negated: neg))
            case "--pkt-type":
                matches.append(.packetType([(next() ?? "").lowercased()], negated: neg))
            case "-m", "--match":
                let module = next() ?? ""
                if !["udp", "tcp", "multiport", "state", "conntrack", "comment", "pkttype"].contains(module) {
                    matches.append(.unknown("-m \(module)"))
                }
            case "--comment":
                _ = next()
            case "-j", "--jump", "-g", "--goto":
                let target = next() ?? ""
                switch target {
                case "ACCEPT": verdict = .accept
                case "DROP": verdict = .drop
                case "REJECT": verdict = .reject
                case "RETURN": verdict = .return
                case "LOG", "NFLOG", "ULOG": verdict = nil
                default:
                    verdict = !chainNames.contains(target) ? .unknown("the target \(target)")
                        : (w == "-g" || w == "--goto" ? .goto(target) : .jump(target))
                }
                // A target's own options (--reject-with …, --log-prefix "…") follow; skip them.
                while i + 1 < words.count, words[i + 1].hasPrefix("--") { i += 2 }
            default:
                if w.hasPrefix("-") { matches.append(.unknown(w)); if i + 1 < words.count, !words[i + 1].hasPrefix("-") { i += 1 } }
            }
            i += 1
        }
        return FirewallRule(matches: matches, verdict: verdict, handle: handle, text: text)
    }

    /// Words, with "double quoted" parts kept together.
    static func tokens(_ line: String) -> [String] {
        var out: [String] = []
        var word = ""
        var quoted = false
        var any = false
        for ch in line {
            if ch == "\"" { quoted.toggle(); any = true; continue }
            if ch == " " && !quoted {
                if any { out.append(word) }
                word = ""; any = false
                continue
            }
            word.append(ch); any = true
        }
        if any { out.append(word) }
        return out
    }
}
