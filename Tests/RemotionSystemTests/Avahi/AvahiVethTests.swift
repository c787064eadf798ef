#if os(Linux)
import Foundation
import Testing
import RemotionSystem
import RemotionHostLogic

extension AvahiLabTests {
    /// Two hosts over a real veth link (scripts/netns-lab.sh): A = avahi tools in namespace
    /// remotion-a-ID (10.77.0.1), B = this process through B's daemon (10.77.0.2, link rmbID).
    @Suite(.netnsLab, .timeLimit(.minutes(1)))
    struct AvahiVethTests {
        @Test func browserOnBResolvesHostAWithIPv4AndScopedLinkLocal() async throws {
            let name = Lab.name("veth host A")
            let publisher = try Spawn.start(NetnsLabTrait.inA + ["avahi-publish", "-s", name, "_remotion._udp", "47100",
                                                                 "v=1", "id=host-a", "caps=attitude"])
            defer { Spawn.stop(publisher) }

            let discovery = AvahiDiscovery()
            let watch = BrowseWatch(discovery.browse(type: .remotion))
            defer { watch.stop() }
            // Wait until both address families have been merged into one .resolved event.
            let hit = try #require(await watch.log.wait {
                guard case let .resolved(r) = $0, r.name == name else { return false }
                return r.addresses.contains { $0.family == .ipv6 } && r.addresses.contains { $0.family == .ipv4 }
            })
            guard case let .resolved(resolved) = hit.event else { return }
            print("[timing] veth: avahi-publish in A -> resolved in B \((hit.at - watch.started).ms); addresses \(resolved.addresses)")
            #expect(resolved.port == 47100)
            #expect(resolved.addresses.first == ResolvedAddress(address: "10.77.0.1", family: .ipv4))
            let v6 = try #require(resolved.addresses.first { $0.family == .ipv6 })
            #expect(ResolvedAddress.isLinkLocalIPv6(v6.address))
            #expect(v6.scopeInterfaceIndex == resolved.service.interfaceIndex && v6.scopeInterfaceIndex ?? -1 > 0)
            let host = try HostTXT(record: resolved.txt)
            #expect(host == HostTXT(protocolVersion: 1, hostID: "host-a", capabilities: ["attitude"]))

            // The one-shot resolve returns both families as well.
            let start = ContinuousClock.now
            let once = try await discovery.resolve(resolved.service)
            print("[timing] veth: resolve() \((ContinuousClock.now - start).ms)")
            #expect(Set(once.addresses) == Set(resolved.addresses))

            // A second browser on B sees the already-published service quickly.
            let second = BrowseWatch(discovery.browse(type: .remotion))
            defer { second.stop() }
            let again = try #require(await second.log.wait(resolvedName(name)))
            print("[timing] veth: browse start -> resolved (already published) \((again.at - second.started).ms)")
        }

        @Test func serviceOnBIsSeenFromA() async throws {
            let discovery = AvahiDiscovery()
            let name = Lab.name("veth host B")
            let published = try await discovery.publish(
                name: try InstanceName(name), port: 47101, host: HostTXT(protocolVersion: 1, hostID: "host-b"))
            // avahi-browse in A: first until its "all for now" (-t, about a second), then, if
            // B's announcement had not reached A yet on a loaded machine, watching for 8 s (its
            // lines are flushed as they come); up to four times, until B's service resolves.
            let escaped = name.replacingOccurrences(of: " ", with: "\\032")
            var output = ""
            for attempt in 0..<4 {
                output = try await Spawn.offPool {
                    try Spawn.run(NetnsLabTrait.inA + ["timeout", "8", "avahi-browse", attempt == 0 ? "-rtp" : "-rp",
                                                       "_remotion._udp"], accepting: [0, 124])
                }
                if output.contains(";\(escaped);") && output.contains(";10.77.0.2;47101;") { break }
            }
            let lines = output.split(separator: "\n").filter { $0.hasPrefix("=;") && $0.contains(";\(escaped);") }
            #expect(lines.contains { $0.contains(";10.77.0.2;47101;") && $0.contains("\"v=1\" \"id=host-b\"") },
                    "avahi-browse in A:\n\(output)")
            await discovery.unpublish(published)
        }
    }
}
#endif
