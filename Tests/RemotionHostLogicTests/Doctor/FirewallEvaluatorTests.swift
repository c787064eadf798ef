import RemotionHostLogic
import Testing

/// The nftables evaluator on real `nft -j` output (NftSamples): which packet a phone sends
/// is dropped, by which table, chain and rule, and where the doctor cannot tell.
@Suite struct FirewallEvaluatorTests {
    func outcome(_ json: String, _ proto: PortProtocol, _ port: Int, on iface: String? = "wlan0",
                 from source: String? = "192.168.1.0/24", to destination: String? = "192.168.1.10",
                 multicast: Bool = false, family: IPFamily = .ipv4) throws -> FirewallOutcome {
        let ruleset = try NftRuleset.parse(json)
        let packet = FirewallPacket(proto: proto, port: port, interface: iface, family: family,
                                    source: source.flatMap { IPv4Prefix($0) },
                                    destination: destination.flatMap { IPv4Prefix($0) }, multicast: multicast)
        return FirewallEvaluator(ruleset).evaluate(packet)
    }

    func droppedBy(_ o: FirewallOutcome) -> (table: String, chain: String, rule: String?, rejected: Bool)? {
        guard case .dropped(let p, let rejected) = o else { return nil }
        return ("\(p.family) \(p.table)", p.chain, p.rule?.text, rejected)
    }

    @Test func aDropRuleForTheControllerPortIsNamed() throws {
        let d = try #require(droppedBy(try outcome(NftSamples.dropcontroller, .udp, 7474)))
        #expect(d.table == "inet filter" && d.chain == "input" && d.rule == "udp dport 7474 drop" && !d.rejected)
        // Other ports and TCP on the same number pass; `ct state established` does not match a first packet.
        #expect(try outcome(NftSamples.dropcontroller, .udp, 7475) == .accepted)
        #expect(try outcome(NftSamples.dropcontroller, .tcp, 7474) == .accepted)
    }

    @Test func policyDropWithAcceptsBeforeIt() throws {
        let s = NftSamples.policydrop
        // iifname "wlan*" udp dport { 5353, 7474 } accept: only on a wlan interface.
        #expect(try outcome(s, .udp, 7474, on: "wlan0") == .accepted)
        #expect(try outcome(s, .udp, 5353, on: "wlan1") == .accepted)
        #expect(droppedBy(try outcome(s, .udp, 5353, on: "wlp3s0")) != nil)   // not a "wlan" name
        let wired = try #require(droppedBy(try outcome(s, .udp, 7474, on: "eth0")))
        #expect(wired.chain == "input" && wired.rule == nil)   // the policy
        #expect(try outcome(s, .tcp, 7476) == .accepted)                 // with a counter
        #expect(try outcome(s, .udp, 7477, on: "eth0") == .accepted)     // a range
        #expect(try outcome(s, .udp, 7486, on: "eth0") == .accepted)
        #expect(droppedBy(try outcome(s, .udp, 7487, on: "eth0")) != nil)
        #expect(try outcome(s, .tcp, 22) == .accepted)                   // a named set
        #expect(try outcome(s, .tcp, 80) == .accepted)
        // ip saddr: a phone on 10.1.2.0/24 is inside 10.0.0.0/8; one on 192.168.1.0/24 is not.
        let ten = try #require(droppedBy(try outcome(s, .udp, 9000, from: "10.1.2.0/24")))
        #expect(ten.rule == "ip saddr 10.0.0.0/8 udp dport 9000 drop")
        #expect(try outcome(s, .udp, 9000, from: "192.168.1.0/24") == .accepted)
        // A network straddling the prefix: cannot tell.
        guard case .cannotTell(let place, _) = try outcome(s, .udp, 9000, from: "0.0.0.0/0") else {
            Issue.record("expected cannot tell"); return
        }
        #expect(place.rule?.text == "ip saddr 10.0.0.0/8 udp dport 9000 drop")
        // reject, and a drop in a chain the base chain jumps to.
        #expect(try droppedBy(outcome(s, .udp, 7000))?.rejected == true)
        let extra = try #require(droppedBy(try outcome(s, .udp, 8000)))
        #expect(extra.chain == "extra" && extra.rule == "udp dport 8000 drop")
    }

    @Test func whatItCannotReadIsCannotTellNotAGuess() throws {
        let s = NftSamples.unknown
        // limit … accept under policy drop: some packets in, some not.
        guard case .cannotTell(let limit, _) = try outcome(s, .udp, 7474) else { Issue.record("limit: expected cannot tell"); return }
        #expect(limit.rule?.handle == 2)
        // meta mark … drop, then an accept: depends on the mark.
        guard case .cannotTell(let mark, _) = try outcome(s, .tcp, 7476) else { Issue.record("mark: expected cannot tell"); return }
        #expect(mark.rule?.text.contains("meta mark") == true)
        // A rule it cannot read that does not change the end: still certain.
        #expect(try outcome(s, .udp, 5353) == .accepted)
        #expect(droppedBy(try outcome(s, .udp, 9999)) != nil)
    }

    @Test func aDropInAnyBaseChainWinsAndFamiliesApartDoNotMeet() throws {
        let s = NftSamples.twotables
        // ip open accepts (priority -10), inet strict drops later: dropped.
        let d = try #require(droppedBy(try outcome(s, .udp, 7474)))
        #expect(d.table == "inet strict" && d.rule?.contains("th dport 7474 drop") == true)
        #expect(droppedBy(try outcome(s, .tcp, 7474)) != nil)          // meta l4proto { tcp, udp }
        // The ip6 table's policy drop does not touch IPv4; it drops IPv6.
        #expect(try outcome(s, .udp, 7475) == .accepted)
        let six = try #require(droppedBy(try outcome(s, .udp, 7475, from: nil, to: nil, family: .ipv6)))
        #expect(six.table == "ip6 six")
    }

    @Test func multicastMDNSAndNegatedPorts() throws {
        let s = NftSamples.mdns
        #expect(try outcome(s, .udp, 5353, to: "224.0.0.251", multicast: true) == .accepted)
        // Another multicast group: meta pkttype multicast drop.
        #expect(try droppedBy(outcome(s, .udp, 5353, to: "239.255.255.250", multicast: true))?.rule == "meta pkttype multicast drop")
        #expect(try outcome(s, .udp, 7474) == .accepted)                // ct state new accept
        #expect(try droppedBy(outcome(s, .udp, 7476))?.rule == "udp dport != 7474 drop")
    }

    @Test func anIngressChainWhoseDeviceNftDoesNotNameIsCannotTell() throws {
        guard case .cannotTell(let place, _) = try outcome(NftSamples.ingress, .udp, 7474) else {
            Issue.record("expected cannot tell"); return
        }
        #expect(place.family == "netdev" && place.chain == "in")
        #expect(try outcome(NftSamples.ingress, .udp, 7475) == .accepted)
    }

    @Test func anEmptyRulesetAcceptsAndBrokenJSONIsOneLine() throws {
        #expect(try outcome(#"{"nftables": [{"metainfo": {"version": "1.0.6"}}]}"#, .udp, 7474) == .accepted)
        #expect(throws: NftRuleset.ParseError.self) { try NftRuleset.parse("Error: Operation not permitted") }
    }

    @Test func theFixNamesTheChainAndPositionForTheToolThatOwnsIt() throws {
        let ruleset = try NftRuleset.parse(NftSamples.dropcontroller)
        let check = FirewallCheck(rulesets: [ruleset])
        let packet = FirewallPacket(proto: .udp, port: 7474, interface: "wlan0")
        let line = check.line(id: "firewall.controller", what: "controller port", ports: 7474...7474, packet: packet)
        #expect(line.status == .fail)
        #expect(line.message.contains("7474/udp") && line.message.contains("inet filter") && line.message.contains("chain input"))
        #expect(line.fix?.hasPrefix("sudo nft insert rule inet filter input position 3 udp dport 7474 accept") == true)
        #expect(line.details["table"] == "inet filter" && line.details["chain"] == "input")
        // ufw on: the fix is ufw's.
        let ufw = FirewallCheck(rulesets: [ruleset], ufwActive: true)
            .line(id: "f", what: "controller port", ports: 7474...7474, packet: packet)
        #expect(ufw.fix == "sudo ufw allow 7474/udp")
        // A range: the first dropped port is named, the fix covers the range.
        let rtc = try FirewallCheck(rulesets: [NftRuleset.parse(NftSamples.policydrop)])
            .line(id: "f", what: "data-channel ports", ports: 7480...7490, packet: FirewallPacket(proto: .udp, port: 0, interface: "eth0"))
        #expect(rtc.status == .fail && rtc.details["blockedPort"] == "7487")
        #expect(rtc.fix?.contains("udp dport 7480-7490 accept") == true)
    }
}

/// firewalld's chains: zones reached by goto, an allow chain, a final reject.
@Suite struct FirewalldShapeTests {
    let ruleset = try! NftRuleset.parse(NftSamples.firewalld)

    func evaluate(_ proto: PortProtocol, _ port: Int, to destination: String = "192.168.1.10", multicast: Bool = false) -> FirewallOutcome {
        FirewallEvaluator(ruleset).evaluate(FirewallPacket(proto: proto, port: port, interface: "wlan0",
                                                           source: IPv4Prefix("192.168.1.0/24"),
                                                           destination: IPv4Prefix(destination), multicast: multicast))
    }

    @Test func theZoneAllowsSshAndMDNSAndRejectsTheRest() {
        #expect(evaluate(.tcp, 22) == .accepted)
        #expect(evaluate(.udp, 5353, to: "224.0.0.251", multicast: true) == .accepted)
        // `ct status dnat accept` does not match a phone's packet; the final reject does.
        guard case .dropped(let place, let rejected) = evaluate(.udp, 7474) else { Issue.record("expected rejected"); return }
        #expect(rejected && place.table == "firewalld" && place.chain == "filter_INPUT" && place.rule?.text == "reject")
    }

    @Test func theFixIsFirewallCmd() {
        let line = FirewallCheck(rulesets: [ruleset]).line(id: "f", what: "page port", ports: 7476...7476,
                                                           packet: FirewallPacket(proto: .tcp, port: 0, interface: "wlan0"))
        #expect(line.status == .fail && line.message.contains("is rejected by nftables table inet firewalld, chain filter_INPUT"))
        #expect(line.fix == "sudo firewall-cmd --add-port=7476/tcp && sudo firewall-cmd --runtime-to-permanent")
    }
}
