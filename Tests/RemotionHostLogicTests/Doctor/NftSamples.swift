/// Real `nft -j list ruleset` output (nftables 1.0.6, Debian 12): each ruleset in the comment
/// above it was loaded with `nft -f` into a scratch network namespace and listed.
enum NftSamples {
    // table inet filter {
    //   chain input {
    //     type filter hook input priority 0; policy accept;
    //     ct state established,related accept
    //     udp dport 7474 drop
    //   }
    // }
    static let dropcontroller = #"""
        {"nftables": [{"metainfo": {"version": "1.0.6", "release_name": "Lester Gooch #5", "json_schema_version": 1}}, {"table": {"family": "inet", "name": "filter", "handle": 1}}, {"chain": {"family": "inet", "table": "filter", "name": "input", "handle": 1, "type": "filter", "hook": "input", "prio": 0, "policy": "accept"}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 2, "expr": [{"match": {"op": "in", "left": {"ct": {"key": "state"}}, "right": ["established", "related"]}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 3, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 7474}}, {"drop": null}]}}]}
        """#
    // table inet filter {
    //   set allowed { type inet_service; elements = { 22, 80 } }
    //   chain input {
    //     type filter hook input priority 0; policy drop;
    //     ct state established,related accept
    //     iif "lo" accept
    //     iifname "wlan*" udp dport { 5353, 7474 } accept
    //     tcp dport 7476 counter accept
    //     udp dport 7477-7486 accept
    //     ip saddr 10.0.0.0/8 udp dport 9000 drop
    //     ip saddr 192.168.0.0/16 udp dport 9000 accept
    //     tcp dport @allowed accept
    //     meta l4proto udp udp dport 7000 reject
    //     jump extra
    //   }
    //   chain extra {
    //     udp dport 8000 drop
    //     return
    //   }
    // }
    static let policydrop = #"""
        {"nftables": [{"metainfo": {"version": "1.0.6", "release_name": "Lester Gooch #5", "json_schema_version": 1}}, {"table": {"family": "inet", "name": "filter", "handle": 2}}, {"set": {"family": "inet", "name": "allowed", "table": "filter", "type": "inet_service", "handle": 3, "elem": [22, 80]}}, {"chain": {"family": "inet", "table": "filter", "name": "input", "handle": 1, "type": "filter", "hook": "input", "prio": 0, "policy": "drop"}}, {"chain": {"family": "inet", "table": "filter", "name": "extra", "handle": 2}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 4, "expr": [{"match": {"op": "in", "left": {"ct": {"key": "state"}}, "right": ["established", "related"]}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 5, "expr": [{"match": {"op": "==", "left": {"meta": {"key": "iif"}}, "right": "lo"}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 7, "expr": [{"match": {"op": "==", "left": {"meta": {"key": "iifname"}}, "right": "wlan*"}}, {"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": {"set": [5353, 7474]}}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 8, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "tcp", "field": "dport"}}, "right": 7476}}, {"counter": {"packets": 0, "bytes": 0}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 9, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": {"range": [7477, 7486]}}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 10, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "ip", "field": "saddr"}}, "right": {"prefix": {"addr": "10.0.0.0", "len": 8}}}}, {"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 9000}}, {"drop": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 11, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "ip", "field": "saddr"}}, "right": {"prefix": {"addr": "192.168.0.0", "len": 16}}}}, {"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 9000}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 12, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "tcp", "field": "dport"}}, "right": "@allowed"}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 13, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 7000}}, {"reject": {"type": "icmpx", "expr": "port-unreachable"}}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 14, "expr": [{"jump": {"target": "extra"}}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "extra", "handle": 15, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 8000}}, {"drop": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "extra", "handle": 16, "expr": [{"return": null}]}}]}
        """#
    // table inet filter {
    //   chain input {
    //     type filter hook input priority 0; policy drop;
    //     udp dport 7474 limit rate 5/second accept
    //     meta mark 0x1 tcp dport 7476 drop
    //     tcp dport 7476 accept
    //     udp dport 5353 accept
    //   }
    // }
    static let unknown = #"""
        {"nftables": [{"metainfo": {"version": "1.0.6", "release_name": "Lester Gooch #5", "json_schema_version": 1}}, {"table": {"family": "inet", "name": "filter", "handle": 3}}, {"chain": {"family": "inet", "table": "filter", "name": "input", "handle": 1, "type": "filter", "hook": "input", "prio": 0, "policy": "drop"}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 2, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 7474}}, {"limit": {"rate": 5, "burst": 5, "per": "second"}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 3, "expr": [{"match": {"op": "==", "left": {"meta": {"key": "mark"}}, "right": 1}}, {"match": {"op": "==", "left": {"payload": {"protocol": "tcp", "field": "dport"}}, "right": 7476}}, {"drop": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 4, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "tcp", "field": "dport"}}, "right": 7476}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 5, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 5353}}, {"accept": null}]}}]}
        """#
    // table ip open {
    //   chain input {
    //     type filter hook input priority -10; policy accept;
    //     udp dport 7474 accept
    //   }
    // }
    // table inet strict {
    //   chain input {
    //     type filter hook input priority 0; policy accept;
    //     meta l4proto { tcp, udp } th dport 7474 drop
    //   }
    // }
    // table ip6 six {
    //   chain input {
    //     type filter hook input priority 0; policy drop;
    //   }
    // }
    static let twotables = #"""
        {"nftables": [{"metainfo": {"version": "1.0.6", "release_name": "Lester Gooch #5", "json_schema_version": 1}}, {"table": {"family": "ip", "name": "open", "handle": 4}}, {"chain": {"family": "ip", "table": "open", "name": "input", "handle": 1, "type": "filter", "hook": "input", "prio": -10, "policy": "accept"}}, {"rule": {"family": "ip", "table": "open", "chain": "input", "handle": 2, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 7474}}, {"accept": null}]}}, {"table": {"family": "inet", "name": "strict", "handle": 5}}, {"chain": {"family": "inet", "table": "strict", "name": "input", "handle": 1, "type": "filter", "hook": "input", "prio": 0, "policy": "accept"}}, {"rule": {"family": "inet", "table": "strict", "chain": "input", "handle": 3, "expr": [{"match": {"op": "==", "left": {"meta": {"key": "l4proto"}}, "right": {"set": ["tcp", "udp"]}}}, {"match": {"op": "==", "left": {"payload": {"protocol": "th", "field": "dport"}}, "right": 7474}}, {"drop": null}]}}, {"table": {"family": "ip6", "name": "six", "handle": 6}}, {"chain": {"family": "ip6", "table": "six", "name": "input", "handle": 1, "type": "filter", "hook": "input", "prio": 0, "policy": "drop"}}]}
        """#
    // table inet filter {
    //   chain input {
    //     type filter hook input priority 0; policy drop;
    //     ip daddr 224.0.0.251 udp dport 5353 accept
    //     meta pkttype multicast drop
    //     udp dport != 7474 drop
    //     udp dport 7474 ct state new accept
    //   }
    // }
    static let mdns = #"""
        {"nftables": [{"metainfo": {"version": "1.0.6", "release_name": "Lester Gooch #5", "json_schema_version": 1}}, {"table": {"family": "inet", "name": "filter", "handle": 7}}, {"chain": {"family": "inet", "table": "filter", "name": "input", "handle": 1, "type": "filter", "hook": "input", "prio": 0, "policy": "drop"}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 2, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "ip", "field": "daddr"}}, "right": "224.0.0.251"}}, {"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 5353}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 3, "expr": [{"match": {"op": "==", "left": {"meta": {"key": "pkttype"}}, "right": "multicast"}}, {"drop": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 4, "expr": [{"match": {"op": "!=", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 7474}}, {"drop": null}]}}, {"rule": {"family": "inet", "table": "filter", "chain": "input", "handle": 5, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 7474}}, {"match": {"op": "in", "left": {"ct": {"key": "state"}}, "right": "new"}}, {"accept": null}]}}]}
        """#
    // table netdev edge {
    //   chain in {
    //     type filter hook ingress device "lo" priority 0; policy accept;
    //     udp dport 7474 drop
    //   }
    // }
    static let ingress = #"""
        {"nftables": [{"metainfo": {"version": "1.0.6", "release_name": "Lester Gooch #5", "json_schema_version": 1}}, {"table": {"family": "netdev", "name": "edge", "handle": 8}}, {"chain": {"family": "netdev", "table": "edge", "name": "in", "handle": 1, "type": "filter", "hook": "ingress", "prio": 0, "policy": "accept"}}, {"rule": {"family": "netdev", "table": "edge", "chain": "in", "handle": 2, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 7474}}, {"drop": null}]}}]}
        """#
    // firewalld 1.x's shape (the chains and rules of its public zone, trimmed to IPv4 and ssh/mDNS):
    // table inet firewalld {
    //   chain filter_INPUT {
    //     type filter hook input priority filter + 10; policy accept;
    //     ct state { established, related } accept
    //     ct status dnat accept
    //     iifname "lo" accept
    //     ct state invalid drop
    //     jump filter_INPUT_ZONES
    //     reject with icmpx admin-prohibited
    //   }
    //   chain filter_INPUT_ZONES {
    //     iifname "wlan0" goto filter_IN_public
    //     goto filter_IN_public
    //   }
    //   chain filter_IN_public {
    //     jump filter_IN_public_pre
    //     jump filter_IN_public_log
    //     jump filter_IN_public_deny
    //     jump filter_IN_public_allow
    //     jump filter_IN_public_post
    //     meta l4proto { icmp, ipv6-icmp } accept
    //   }
    //   chain filter_IN_public_pre {
    //   }
    //   chain filter_IN_public_log {
    //   }
    //   chain filter_IN_public_deny {
    //   }
    //   chain filter_IN_public_allow {
    //     tcp dport 22 accept
    //     ip6 daddr fe80::/64 udp dport 546 accept
    //     udp dport 5353 ip daddr 224.0.0.251 accept
    //   }
    //   chain filter_IN_public_post {
    //   }
    // }
    static let firewalld = #"""
        {"nftables": [{"metainfo": {"version": "1.0.6", "release_name": "Lester Gooch #5", "json_schema_version": 1}}, {"table": {"family": "inet", "name": "firewalld", "handle": 1}}, {"chain": {"family": "inet", "table": "firewalld", "name": "filter_INPUT", "handle": 1, "type": "filter", "hook": "input", "prio": 10, "policy": "accept"}}, {"chain": {"family": "inet", "table": "firewalld", "name": "filter_INPUT_ZONES", "handle": 2}}, {"chain": {"family": "inet", "table": "firewalld", "name": "filter_IN_public", "handle": 3}}, {"chain": {"family": "inet", "table": "firewalld", "name": "filter_IN_public_pre", "handle": 4}}, {"chain": {"family": "inet", "table": "firewalld", "name": "filter_IN_public_log", "handle": 5}}, {"chain": {"family": "inet", "table": "firewalld", "name": "filter_IN_public_deny", "handle": 6}}, {"chain": {"family": "inet", "table": "firewalld", "name": "filter_IN_public_allow", "handle": 7}}, {"chain": {"family": "inet", "table": "firewalld", "name": "filter_IN_public_post", "handle": 8}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_INPUT", "handle": 10, "expr": [{"match": {"op": "==", "left": {"ct": {"key": "state"}}, "right": {"set": ["established", "related"]}}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_INPUT", "handle": 11, "expr": [{"match": {"op": "in", "left": {"ct": {"key": "status"}}, "right": "dnat"}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_INPUT", "handle": 12, "expr": [{"match": {"op": "==", "left": {"meta": {"key": "iifname"}}, "right": "lo"}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_INPUT", "handle": 13, "expr": [{"match": {"op": "in", "left": {"ct": {"key": "state"}}, "right": "invalid"}}, {"drop": null}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_INPUT", "handle": 14, "expr": [{"jump": {"target": "filter_INPUT_ZONES"}}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_INPUT", "handle": 15, "expr": [{"reject": {"type": "icmpx", "expr": "admin-prohibited"}}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_INPUT_ZONES", "handle": 16, "expr": [{"match": {"op": "==", "left": {"meta": {"key": "iifname"}}, "right": "wlan0"}}, {"goto": {"target": "filter_IN_public"}}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_INPUT_ZONES", "handle": 17, "expr": [{"goto": {"target": "filter_IN_public"}}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_IN_public", "handle": 18, "expr": [{"jump": {"target": "filter_IN_public_pre"}}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_IN_public", "handle": 19, "expr": [{"jump": {"target": "filter_IN_public_log"}}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_IN_public", "handle": 20, "expr": [{"jump": {"target": "filter_IN_public_deny"}}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_IN_public", "handle": 21, "expr": [{"jump": {"target": "filter_IN_public_allow"}}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_IN_public", "handle": 22, "expr": [{"jump": {"target": "filter_IN_public_post"}}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_IN_public", "handle": 24, "expr": [{"match": {"op": "==", "left": {"meta": {"key": "l4proto"}}, "right": {"set": ["icmp", "ipv6-icmp"]}}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_IN_public_allow", "handle": 25, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "tcp", "field": "dport"}}, "right": 22}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_IN_public_allow", "handle": 26, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "ip6", "field": "daddr"}}, "right": {"prefix": {"addr": "fe80::", "len": 64}}}}, {"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 546}}, {"accept": null}]}}, {"rule": {"family": "inet", "table": "firewalld", "chain": "filter_IN_public_allow", "handle": 27, "expr": [{"match": {"op": "==", "left": {"payload": {"protocol": "udp", "field": "dport"}}, "right": 5353}}, {"match": {"op": "==", "left": {"payload": {"protocol": "ip", "field": "daddr"}}, "right": "224.0.0.251"}}, {"accept": null}]}}]}
        """#
}
