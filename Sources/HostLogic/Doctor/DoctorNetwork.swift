/// A network interface as the doctor sees it (from getifaddrs and /sys/class/net).
package struct DoctorInterface: Sendable, Hashable {
    package var name: String
    /// IPv4 networks of the interface (address with its prefix length).
    package var ipv4: [(address: String, prefix: Int)]
    package var ipv6: [String]
    package var up: Bool
    /// /sys/class/net/IF/wireless or phy80211 exists.
    package var wireless: Bool
    /// No /sys/class/net/IF/device: a bridge, veth, tunnel, docker's …
    package var virtual: Bool
    package var loopback: Bool

    package init(name: String, ipv4: [(address: String, prefix: Int)], ipv6: [String] = [], up: Bool = true,
                 wireless: Bool = false, virtual: Bool = false, loopback: Bool = false) {
        self.name = name
        self.ipv4 = ipv4
        self.ipv6 = ipv6
        self.up = up
        self.wireless = wireless
        self.virtual = virtual
        self.loopback = loopback
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.name == b.name && a.ipv4.map { "\($0.address)/\($0.prefix)" } == b.ipv4.map { "\($0.address)/\($0.prefix)" }
            && a.ipv6 == b.ipv6 && a.up == b.up && a.wireless == b.wireless && a.virtual == b.virtual
            && a.loopback == b.loopback
    }

    package func hash(into h: inout Hasher) { h.combine(name) }

    package func holds(_ address: String) -> Bool {
        ipv4.contains { $0.address == address } || ipv6.contains(address)
    }

    /// The IPv4 network holding `address` (where a phone on this link would be).
    package func network(of address: String) -> IPv4Prefix? {
        guard let entry = ipv4.first(where: { $0.address == address }), let a = IPv4Prefix.parseAddress(address) else { return nil }
        return IPv4Prefix(address: a, length: entry.prefix)
    }

    var kind: String { wireless ? "Wi-Fi" : loopback ? "loopback" : virtual ? "virtual" : "wired" }
}

/// Where the QR code points, and whether another interface looks more like the phone's Wi-Fi.
package enum DoctorNetwork {
    package static func qrLine(address: String, webPort: Int?, controllerPort: Int, bind: String,
                               interfaces: [DoctorInterface]) -> DoctorLine {
        let url = webPort.map { "https://\(address.contains(":") ? "[\(address)]" : address):\($0)" }
            ?? "\(address):\(controllerPort)"
        let holder = interfaces.first { $0.holds(address) }
        var details = ["address": address, "url": url]
        // Every address the host is reachable at, with its interface: "10.0.0.5 (eth0), 172.17.0.1 (docker0)".
        details["addresses"] = interfaces.filter { !$0.loopback }.flatMap { i in i.ipv4.map { "\($0.address) (\(i.name))" } }
            .joined(separator: ", ")
        if let holder { details["interface"] = holder.name; details["kind"] = holder.kind }
        if address == "127.0.0.1" || address == "::1" || holder?.loopback == true {
            return DoctorLine("network.qr", .fail,
                              "the QR code points at \(url): this machine has no address a phone can reach",
                              fix: "connect this machine to the phone's Wi-Fi (or bind a LAN address: `remotion host --bind ADDRESS`)",
                              details: details)
        }
        let on = holder.map { " (\($0.name), \($0.kind))" } ?? ""
        let others = interfaces.filter { $0.name != holder?.name && $0.up && !$0.loopback && !$0.ipv4.isEmpty }
        if holder?.wireless != true, let wifi = others.first(where: \.wireless), let wifiAddress = wifi.ipv4.first?.address {
            details["wifi"] = wifi.name
            return DoctorLine("network.qr", .warn,
                              "the QR code points at \(url)\(on), but \(wifi.name) (\(wifiAddress)) looks like the Wi-Fi",
                              fix: "if the phone is on that Wi-Fi: `remotion host --bind \(wifiAddress)`", details: details)
        }
        if bind == "::" || bind == "0.0.0.0", holder?.virtual == true,
           let physical = others.first(where: { !$0.virtual }), let physicalAddress = physical.ipv4.first?.address {
            details["physical"] = physical.name
            return DoctorLine("network.qr", .warn,
                              "the QR code points at \(url)\(on), a virtual interface; \(physical.name) (\(physicalAddress)) is a real one",
                              fix: "if the phone is on \(physical.name)'s network: `remotion host --bind \(physicalAddress)`",
                              details: details)
        }
        return DoctorLine("network.qr", .pass, "the QR code points at \(url)\(on)", details: details)
    }
}
