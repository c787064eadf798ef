#if os(Linux)
import Foundation
import Testing
import RemotionSystem
import RemotionHostLogic

/// Both labs share this process's bus link, so their suites run one after the other; their
/// state folder in /tmp goes after the last.
@Suite(.serialized, .labStateRemoved) struct AvahiLabTests {}

extension AvahiLabTests {
@Suite(.avahiLab, .timeLimit(.minutes(1)))
struct AvahiDiscoveryTests {
    let hostTXT = HostTXT(protocolVersion: 1, hostID: "test-host", capabilities: ["attitude", "gyro", "buttons16"])

    @Test func publishedServiceIsBrowsedAndResolvedWithTXTAndPort() async throws {
        let discovery = AvahiDiscovery()
        let name = Lab.name("Remotion on lab")
        let watch = BrowseWatch(discovery.browse(type: .remotion))
        defer { watch.stop() }
        try await Task.sleep(for: .milliseconds(100)) // let the browser start

        let publishStart = ContinuousClock.now
        let published = try await discovery.publish(name: try InstanceName(name), port: 47001, host: hostTXT)
        let publishReturned = ContinuousClock.now
        #expect(published.name == name)
        #expect(await watch.log.wait({ if case let .added(s) = $0 { s.name == name } else { false } }) != nil)
        // (The AAAA answer may come first: wait for the one with the IPv4 address.)
        let hit = try #require(await watch.log.wait { event in
            guard case let .resolved(r) = event, r.name == name else { return false }
            return r.addresses.contains(ResolvedAddress(address: "127.0.0.1", family: .ipv4))
        })
        guard case let .resolved(resolved) = hit.event else { return }
        #expect(resolved.port == 47001)
        #expect(try HostTXT(record: resolved.txt) == hostTXT)
        #expect(resolved.addresses.contains(ResolvedAddress(address: "127.0.0.1", family: .ipv4)))
        #expect(resolved.service.domain == "local")
        print("[timing] publish() returned after \((publishReturned - publishStart).ms); "
            + "publish -> resolved by running browser \((hit.at - publishStart).ms)")

        // A new browser finds the already-published service.
        let second = BrowseWatch(discovery.browse(type: .remotion))
        defer { second.stop() }
        let again = try #require(await second.log.wait(resolvedName(name)))
        print("[timing] browse start -> resolved (already published) \((again.at - second.started).ms)")

        // One-shot resolve of the browsed service.
        let service = DiscoveredService(name: name, type: .remotion, domain: "local", interfaceIndex: resolved.service.interfaceIndex)
        let resolveStart = ContinuousClock.now
        let once = try await discovery.resolve(service)
        print("[timing] resolve() \((ContinuousClock.now - resolveStart).ms)")
        #expect(once.port == 47001 && once.txt == resolved.txt)
        #expect(once.addresses.first?.family == .ipv4)
        await discovery.unpublish(published)
    }

    /// avahi sends the host's AAAA record (::1 on lo) over IPv4 too (its default
    /// publish-aaaa-on-ipv4, on in the lab): a browse lists it with 127.0.0.1, as
    /// `remotion hosts --json` shows (once it only asked A over IPv4 and omitted ::1).
    @Test func browseListsTheIPv6AddressAnnouncedOverIPv4() async throws {
        let discovery = AvahiDiscovery()
        let name = Lab.name("Remotion v6")
        let watch = BrowseWatch(discovery.browse(type: .remotion))
        defer { watch.stop() }
        let published = try await discovery.publish(name: try InstanceName(name), port: 47003, host: hostTXT)
        let both = await watch.log.wait { event in
            guard case let .resolved(r) = event, r.name == name else { return false }
            return r.addresses.contains(ResolvedAddress(address: "::1", family: .ipv6))
                && r.addresses.contains(ResolvedAddress(address: "127.0.0.1", family: .ipv4))
        }
        let output = try await Lab.run(["/usr/bin/timeout", "30", "avahi-resolve", "-6", "-n", "remotion-lab.local"])
        #expect(output.contains("::1"), "the lab announces ::1: \(output)")
        #expect(both != nil, "the browse never listed ::1 next to 127.0.0.1")
        if case let .resolved(r)? = both?.event { #expect(r.addresses.first?.family == .ipv4, "IPv4 first") }
        await discovery.unpublish(published)
    }

    @Test func avahiBrowseSeesOurService() async throws {
        let discovery = AvahiDiscovery()
        let name = Lab.name("cli-check")
        let published = try await discovery.publish(name: try InstanceName(name), port: 47002, host: hostTXT)
        // Until "all for now" (-t, about a second) and then, if ours is not there yet, watching
        // for 8 s (its lines are flushed as they come), up to four times, as AvahiVethTests does:
        // with -r, -t also waits for every resolver, and the other tests' services coming and
        // going in the same lab held one run past 30 s beside a second load.
        let escaped = name.replacingOccurrences(of: " ", with: "\\032")
        var output = ""
        for attempt in 0..<4 {
            output = try await Spawn.offPool {
                try Spawn.run(["/usr/bin/timeout", "8", "avahi-browse", attempt == 0 ? "-rtp" : "-rp", "_remotion._udp"],
                              accepting: [0, 124])
            }
            if output.split(separator: "\n").contains(where: { $0.hasPrefix("=;") && $0.contains(";\(escaped);") }) { break }
        }
        let line = output.split(separator: "\n").first { $0.hasPrefix("=;") && $0.contains(";\(escaped);") }
        let found = try #require(line, "avahi-browse output:\n\(output)")
        #expect(found.contains(";47002;"))
        #expect(found.contains("\"v=1\" \"id=test-host\" \"caps=attitude,gyro,buttons16\""))
        await discovery.unpublish(published)
    }

    @Test func browserFindsServiceFromAvahiPublish() async throws {
        let name = Lab.name("from-avahi-publish")
        let publisher = try Spawn.start(["avahi-publish", "-s", name, "_remotion._udp", "47003", "v=1"])
        var publisherRunning = true
        defer { if publisherRunning { Spawn.stop(publisher) } }

        let discovery = AvahiDiscovery()
        let watch = BrowseWatch(discovery.browse(type: .remotion))
        defer { watch.stop() }
        let hit = try #require(await watch.log.wait(resolvedName(name)))
        guard case let .resolved(resolved) = hit.event else { return }
        #expect(resolved.port == 47003)
        #expect(resolved.txt.strings == ["v=1"])
        #expect(try HostTXT(record: resolved.txt).protocolVersion == 1)
        print("[timing] avahi-publish start -> resolved \((hit.at - watch.started).ms) (includes probing)")

        Spawn.stop(publisher)
        publisherRunning = false
        #expect(await watch.log.wait(timeout: .seconds(5), removedName(name)) != nil)
    }

    @Test func unpublishedServiceLeavesLiveListWithinSeconds() async throws {
        let discovery = AvahiDiscovery()
        let browser = AvahiDiscovery()
        let name = Lab.name("short-lived")
        let watch = BrowseWatch(browser.browse(type: .remotion))
        defer { watch.stop() }
        let published = try await discovery.publish(name: try InstanceName(name), port: 47004, host: hostTXT)
        #expect(await watch.log.wait(resolvedName(name)) != nil)

        let start = ContinuousClock.now
        await discovery.unpublish(published)
        let gone = try #require(await watch.log.wait(timeout: .seconds(5), removedName(name)))
        print("[timing] unpublish -> removed \((gone.at - start).ms)")

        var list = HostList()
        for (_, event) in await watch.log.events { list.apply(event) }
        #expect(!list.entries.contains { $0.service.name == name })
    }

    @Test func twoPublishersWithTheSameNameBothStayReachable() async throws {
        let first = AvahiDiscovery()
        let second = AvahiDiscovery()
        let name = Lab.name("twin")
        let watch = BrowseWatch(first.browse(type: .remotion))
        defer { watch.stop() }
        let a = try await first.publish(name: try InstanceName(name), port: 47005, host: hostTXT)
        let b = try await second.publish(name: try InstanceName(name), port: 47006, host: hostTXT)
        #expect(a.name == name)
        #expect(b.name == "\(name) #2")
        let ra = try #require(await watch.log.wait(resolvedName(a.name)))
        let rb = try #require(await watch.log.wait(resolvedName(b.name)))
        if case let .resolved(x) = ra.event { #expect(x.port == 47005) }
        if case let .resolved(y) = rb.event { #expect(y.port == 47006) }
        // Same name twice from one publisher is renamed too.
        let c = try await first.publish(name: try InstanceName(name), port: 47007, host: hostTXT)
        #expect(c.name == "\(name) #3")
        for p in [a, c] { await first.unpublish(p) }
        await second.unpublish(b)
    }

    @Test func daemonStopAndRestart() async throws {
        let discovery = AvahiDiscovery()
        let name = Lab.name("survivor")
        let watch = BrowseWatch(discovery.browse(type: .remotion))
        defer { watch.stop() }
        let published = try await discovery.publish(name: try InstanceName(name), port: 47008, host: hostTXT)
        #expect(await watch.log.wait(resolvedName(name)) != nil)

        try await Lab.script("stop-avahi")
        #expect(await watch.log.wait(timeout: .seconds(5), removedName(name)) != nil)
        #expect(await watch.log.wait(timeout: .seconds(5), { $0 == .daemonUnavailable }) != nil)
        #expect(!discovery.isDaemonRunning)

        let expected = DiscoveryError.daemonUnavailable(
            message: "avahi-daemon is not running: discovery is off, connect by address")
        await #expect(throws: expected) {
            _ = try await discovery.publish(name: try InstanceName("x"), type: .remotion, port: 1, txt: TXTRecord())
        }
        let fresh = AvahiDiscovery()
        #expect(!fresh.isDaemonRunning)
        await #expect(throws: expected) {
            _ = try await fresh.resolve(DiscoveredService(name: name, type: .remotion, domain: "local", interfaceIndex: 1))
        }
        let freshWatch = BrowseWatch(fresh.browse(type: .remotion))
        defer { freshWatch.stop() }
        #expect(await freshWatch.log.wait(timeout: .seconds(2), { $0 == .daemonUnavailable }) != nil)
        print("no-daemon error: \(expected)")

        // The daemon comes back: the old publication is re-announced, both browsers see it.
        let restart = ContinuousClock.now
        try await Lab.script("start-avahi")
        let back = try #require(await watch.log.wait(timeout: .seconds(10), after: restart, resolvedName(name)))
        print("[timing] daemon restart -> re-published service resolved \((back.at - restart).ms)")
        #expect(await freshWatch.log.wait(resolvedName(name)) != nil)
        #expect(discovery.isDaemonRunning && fresh.isDaemonRunning)
        #expect(discovery.currentName(of: published) == name)
        await discovery.unpublish(published)
    }
}

}

@Suite struct DefaultNameTests {
    @Test func defaultInstanceNameUsesHostName() {
        let name = AvahiDiscovery.defaultInstanceName()
        #expect(name.value.hasPrefix("Remotion"))
        #expect(name.value.utf8.count <= 63)
    }
}
#endif
