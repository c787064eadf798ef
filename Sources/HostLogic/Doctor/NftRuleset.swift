import Foundation

/// `nft -j list ruleset` read into a `FirewallRuleset`. The common shapes are understood
/// (`udp dport 7474 drop`, `th dport`, anonymous and named sets, ranges, `ip saddr/daddr`
/// with prefixes, `meta l4proto`, `iifname`, `ct state`, `pkttype`, jump/goto/return,
/// accept/drop/reject); anything else becomes an `.unknown` match or verdict, which the
/// evaluator reports as "cannot tell".
package enum NftRuleset {
    package struct ParseError: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    package static func parse(_ json: String) throws(ParseError) -> FirewallRuleset {
        guard let data = json.data(using: .utf8),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let items = root["nftables"] as? [[String: Any]]
        else { throw ParseError(description: "the nftables ruleset is not the JSON `nft -j list ruleset` prints") }
        var sets: [String: [Any]] = [:]
        var chains: [FirewallChain] = []
        for item in items {
            if let set = item["set"] as? [String: Any], let family = set["family"] as? String,
               let table = set["table"] as? String, let name = set["name"] as? String {
                sets["\(family) \(table) \(name)"] = set["elem"] as? [Any] ?? []
            }
            if let c = item["chain"] as? [String: Any], let family = c["family"] as? String,
               let table = c["table"] as? String, let name = c["name"] as? String {
                let devices = (c["dev"] as? String).map { [$0] } ?? (c["dev"] as? [String] ?? [])
                chains.append(FirewallChain(family: family, table: table, name: name, hook: c["hook"] as? String,
                                            type: c["type"] as? String, priority: c["prio"] as? Int ?? 0,
                                            policy: c["policy"] as? String ?? "accept", devices: devices))
            }
        }
        for item in items {
            guard let r = item["rule"] as? [String: Any], let family = r["family"] as? String,
                  let table = r["table"] as? String, let chain = r["chain"] as? String,
                  let index = chains.firstIndex(where: { $0.family == family && $0.table == table && $0.name == chain })
            else { continue }
            let reader = NftExpressionReader(sets: sets, family: family, table: table)
            chains[index].rules.append(reader.rule(r["expr"] as? [Any] ?? [], handle: r["handle"] as? Int ?? 0))
        }
        return FirewallRuleset(chains: chains, source: .nftables)
    }
}

/// One rule's expressions → matches, a verdict and the rule's text.
struct NftExpressionReader {
    var sets: [String: [Any]]
    var family: String
    var table: String

    func rule(_ expressions: [Any], handle: Int) -> FirewallRule {
        var matches: [FirewallMatch] = []
        var verdict: FirewallVerdict?
        var words: [String] = []
        for case let e as [String: Any] in expressions {
            guard let (kind, body) = e.first else { continue }
            switch kind {
            case "match":
                guard let m = body as? [String: Any] else { matches.append(.unknown("match")); continue }
                let (found, text) = match(m)
                matches += found
                words.append(text)
            case "counter", "log", "comment", "mangle", "notrack", "meter", "set", "nftrace":
                if kind == "counter" || kind == "log" { words.append(kind) }
            case "accept", "drop", "return", "continue":
                verdict = ["accept": FirewallVerdict.accept, "drop": .drop, "return": .return][kind]
                words.append(kind)
            case "reject":
                verdict = .reject
                words.append(kind)
            case "jump", "goto":
                let target = (body as? [String: Any])?["target"] as? String ?? "?"
                verdict = kind == "jump" ? .jump(target) : .goto(target)
                words.append("\(kind) \(target)")
            case "queue", "vmap":
                verdict = .unknown("a \(kind) the doctor cannot follow")
                words.append(kind)
            case "xt":
                matches.append(.unknown("an iptables match inside nftables (xt)"))
                words.append("xt …")
            default:
                matches.append(.unknown(kind))
                words.append(kind)
            }
        }
        return FirewallRule(matches: matches, verdict: verdict, handle: handle, text: words.joined(separator: " "))
    }

    /// A `{"match": …}`: what it asks, and its nft text.
    func match(_ m: [String: Any]) -> ([FirewallMatch], String) {
        let op = m["op"] as? String ?? "=="
        let left = m["left"] as? [String: Any] ?? [:]
        let right = m["right"] as Any
        let negated = op == "!="
        let leftText = describe(left)
        let text = leftText + (op == "==" || op == "in" ? " " : " \(op) ") + value(right, quoted: leftText.hasPrefix("iif"))
        let unknown: ([FirewallMatch], String) = ([.unknown(text)], text)
        guard ["==", "!=", "in", "<", ">", "<=", ">="].contains(op) else { return unknown }
        if let payload = left["payload"] as? [String: Any],
           let proto = payload["protocol"] as? String, let field = payload["field"] as? String {
            switch (proto, field) {
            case ("udp", "dport"), ("tcp", "dport"), ("th", "dport"):
                guard var ranges = ports(right) else { return unknown }
                var neg = negated
                if let bound = ranges.first, ranges.count == 1, ["<", ">", "<=", ">="].contains(op) {
                    let p = bound.lowerBound
                    ranges = [op == "<" ? 0...max(0, p - 1) : op == "<=" ? 0...p : op == ">" ? min(65535, p + 1)...65535 : p...65535]
                    neg = false
                }
                return ([.destinationPort(ranges, proto: PortProtocol(rawValue: proto), negated: neg)], text)
            case ("ip", "saddr"), ("ip", "daddr"):
                guard op == "==" || op == "!=", let prefixes = addresses(right) else { return ([.family(.ipv4), .unknown(text)], text) }
                return ([field == "saddr" ? .sourceAddress(prefixes, negated: negated)
                         : .destinationAddress(prefixes, negated: negated)], text)
            case ("ip", "protocol"), ("ip6", "nexthdr"):
                guard let protos = protocols(right) else { return unknown }
                return ([.family(proto == "ip" ? .ipv4 : .ipv6), .proto(protos, negated: negated)], text)
            case ("ip6", _):
                return ([.family(.ipv6), .unknown(text)], text)
            case ("ip", _):
                return ([.family(.ipv4), .unknown(text)], text)
            default:
                return unknown
            }
        }
        if let meta = left["meta"] as? [String: Any], let key = meta["key"] as? String {
            switch key {
            case "l4proto":
                guard let protos = protocols(right) else { return unknown }
                return ([.proto(protos, negated: negated)], text)
            case "iifname", "iif":
                guard op == "==" || op == "!=", let names = strings(right) else { return unknown }
                return ([.inputInterface(names, negated: negated)], text)
            case "nfproto":
                guard let name = (right as? String), let f = ["ipv4": IPFamily.ipv4, "ipv6": .ipv6][name] else { return unknown }
                return (negated ? [.family(f == .ipv4 ? .ipv6 : .ipv4)] : [.family(f)], text)
            case "pkttype":
                guard let names = strings(right) else { return unknown }
                return ([.packetType(Set(names), negated: negated)], text)
            default:
                return unknown
            }
        }
        if let ct = left["ct"] as? [String: Any], let key = ct["key"] as? String, let values = strings(right) {
            if key == "state" { return ([.connectionState(Set(values), negated: negated)], text) }
            if key == "status" { return ([.connectionStatus(Set(values), negated: negated)], text) }
        }
        return unknown
    }

    /// The elements of a right-hand side: a value, `{"set": […]}` or `"@name"`.
    func elements(_ right: Any) -> [Any] {
        if let name = right as? String, name.hasPrefix("@") {
            return sets["\(family) \(table) \(name.dropFirst())"] ?? [NSNull()]
        }
        if let object = right as? [String: Any], let set = object["set"] as? [Any] { return set }
        return [right]
    }

    /// A named set's element may be wrapped: {"elem": {"val": 22, "timeout": …}}.
    func unwrap(_ e: Any) -> Any {
        if let o = e as? [String: Any], let inner = o["elem"] as? [String: Any], let v = inner["val"] { return v }
        return e
    }

    func ports(_ right: Any) -> [ClosedRange<Int>]? {
        var out: [ClosedRange<Int>] = []
        for raw in elements(right) {
            let e = unwrap(raw)
            if let n = e as? Int { out.append(n...n); continue }
            if let s = e as? String, let n = Int(s) ?? Self.services[s] { out.append(n...n); continue }
            if let o = e as? [String: Any], let r = o["range"] as? [Any], r.count == 2,
               let a = port(r[0]), let b = port(r[1]), a <= b { out.append(a...b); continue }
            return nil
        }
        return out
    }

    func port(_ v: Any) -> Int? { (v as? Int) ?? (v as? String).flatMap { Int($0) ?? Self.services[$0] } }

    static let services = ["ssh": 22, "domain": 53, "http": 80, "https": 443, "mdns": 5353]

    func addresses(_ right: Any) -> [IPv4Prefix]? {
        var out: [IPv4Prefix] = []
        for raw in elements(right) {
            let e = unwrap(raw)
            if let s = e as? String, let p = IPv4Prefix(s) { out.append(p); continue }
            if let o = e as? [String: Any], let p = o["prefix"] as? [String: Any], let a = p["addr"] as? String,
               let l = p["len"] as? Int, let prefix = IPv4Prefix("\(a)/\(l)") { out.append(prefix); continue }
            return nil
        }
        return out
    }

    func protocols(_ right: Any) -> Set<PortProtocol>? {
        var out = Set<PortProtocol>()
        for raw in elements(right) {
            let e = unwrap(raw)
            if let s = e as? String {
                if let p = PortProtocol(rawValue: s) { out.insert(p) } else if Int(s) == nil { continue } else { return nil }
            } else if let n = e as? Int {
                if n == 17 { out.insert(.udp) } else if n == 6 { out.insert(.tcp) }
            } else { return nil }
        }
        return out
    }

    func strings(_ right: Any) -> [String]? {
        var out: [String] = []
        for raw in elements(right) {
            if let s = unwrap(raw) as? String { out.append(s) } else if let a = unwrap(raw) as? [String] { out += a } else { return nil }
        }
        return out
    }

    func describe(_ left: [String: Any]) -> String {
        if let p = left["payload"] as? [String: Any] { return "\(p["protocol"] ?? "?") \(p["field"] ?? "?")" }
        if let m = left["meta"] as? [String: Any], let key = m["key"] as? String {
            return ["iif", "iifname", "oif", "oifname"].contains(key) ? key : "meta \(key)"
        }
        if let c = left["ct"] as? [String: Any] { return "ct \(c["key"] ?? "?")" }
        return left.keys.sorted().joined(separator: " ")
    }

    func value(_ right: Any, quoted: Bool = false) -> String {
        if let s = right as? String {
            let bare = s.hasPrefix("@") || s.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || ".:/-_".contains($0)) }
            return bare && !quoted ? s : "\"\(s)\""
        }
        if let n = right as? Int { return String(n) }
        if let a = right as? [Any] { return a.map { value($0, quoted: quoted) }.joined(separator: ",") }
        if let o = right as? [String: Any] {
            if let set = o["set"] as? [Any] { return "{ " + set.map { value($0, quoted: quoted) }.joined(separator: ", ") + " }" }
            if let r = o["range"] as? [Any], r.count == 2 { return "\(value(r[0]))-\(value(r[1]))" }
            if let p = o["prefix"] as? [String: Any] { return "\(p["addr"] ?? "?")/\(p["len"] ?? "?")" }
        }
        return "…"
    }
}
