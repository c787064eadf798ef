import Testing
@testable import RemotionHostLogic

private func service(_ name: String, interface: Int32 = 1) -> DiscoveredService {
    DiscoveredService(name: name, type: .remotion, domain: "local", interfaceIndex: interface)
}

private func resolved(_ s: DiscoveredService, _ addresses: [ResolvedAddress], port: UInt16 = 4000,
                      txt: [String] = ["v=1"]) -> ResolvedService {
    ResolvedService(service: s, hostName: "desk.local", port: port, addresses: addresses,
                    txt: TXTRecord(decoding: txt))
}

@Suite struct HostListTests {
    @Test func keepsLiveListFromEvents() {
        var list = HostList()
        let a = service("A"), b = service("B"), a2 = service("A", interface: 2)
        #expect(list.apply(.added(b)) == .appeared(b.key))
        #expect(list.apply(.added(a)) == .appeared(a.key))
        #expect(list.apply(.added(a2)) == .appeared(a2.key))
        #expect(list.apply(.added(a)) == nil)
        #expect(list.entries.map(\.service) == [a, a2, b])
        let r = resolved(a, [ResolvedAddress(address: "10.77.0.1", family: .ipv4)])
        #expect(list.apply(.resolved(r)) == .updated(a.key))
        #expect(list.apply(.resolved(r)) == nil)
        #expect(list[a.key]?.hostTXT?.protocolVersion == 1)
        #expect(list.selectable == [r])
        #expect(list.apply(.removed(a)) == .disappeared(a.key))
        #expect(list.apply(.removed(a)) == nil)
        #expect(list.count == 2)
        #expect(list.apply(.failure("x")) == nil)
        #expect(list.apply(.daemonUnavailable) == .cleared)
        #expect(list.isEmpty)
    }

    @Test func resolveWithoutAddShowsHost() {
        var list = HostList()
        let r = resolved(service("C"), [])
        #expect(list.apply(.resolved(r)) == .appeared(r.key))
        #expect(list.entries.first?.resolved == r)
    }
}

@Suite struct BrowseTrackerTests {
    @Test func oneAddAndRemovePerKeyAcrossTransports() {
        var tracker = BrowseTracker()
        let a = service("A")
        #expect(tracker.sighted(a, over: .ipv4) == .added(a))
        #expect(tracker.sighted(a, over: .ipv6) == nil)
        #expect(tracker.lost(a.key, over: .ipv4) == nil)
        #expect(tracker.lost(a.key, over: .ipv6) == .removed(a))
        #expect(tracker.lost(a.key, over: .ipv6) == nil)
    }

    @Test func mergesAddressFamiliesIPv4First() {
        var tracker = BrowseTracker()
        let a = service("A", interface: 3)
        _ = tracker.sighted(a, over: .ipv4)
        let v6 = ResolvedAddress(address: "fe80::1", family: .ipv6, interfaceIndex: 3)
        #expect(v6.scopeInterfaceIndex == 3 && v6.description == "fe80::1%3")
        #expect(ResolvedAddress(address: "2001:db8::1", family: .ipv6, interfaceIndex: 3).scopeInterfaceIndex == nil)
        let v4 = ResolvedAddress(address: "10.77.0.1", family: .ipv4, interfaceIndex: 3)
        #expect(tracker.resolved(resolved(a, [v6]), family: .ipv6) == .resolved(resolved(a, [v6])))
        #expect(tracker.resolved(resolved(a, [v4]), family: .ipv4) == .resolved(resolved(a, [v4, v6])))
        #expect(tracker.resolved(resolved(a, [v4]), family: .ipv4) == nil)
        #expect(tracker.resolved(resolved(service("unknown"), [v4]), family: .ipv4) == nil)
        #expect(tracker.removeAll() == [.removed(a)])
        #expect(tracker.keys.isEmpty)
    }
}
