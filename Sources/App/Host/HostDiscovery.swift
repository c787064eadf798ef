import NIOCore
import Synchronization
import RemotionHostLogic
import RemotionProtocol
import RemotionNetwork
#if os(Linux)
import RemotionSystem
#elseif canImport(dnssd)
#endif

/// The platform's DNS-SD backend: Avahi on Linux, Bonjour on Apple platforms.
package enum DiscoveryBackend {
    package static func make() -> (any ServiceBrowser & ServicePublisher)? {
        #if os(Linux)
        AvahiDiscovery()
        #elseif canImport(dnssd)
        BonjourDiscovery()
        #else
        nil
        #endif
    }

    package static func defaultInstanceName(hostName: String) -> InstanceName {
        InstanceName.defaultName(hostName: hostName)
    }
}

/// One host as the client sees it on the network.
package struct FoundHost: Sendable {
    package var name: String
    package var addresses: [SocketAddress]
    package var txt: [String: String]
}

/// Finds a host with discovery, following the seed's client states: browsing →
/// selecting (more than one host) → resolving → connecting, or no service after the
/// browse timeout. The connecting part (trying each address in order) is the caller's.
package struct HostFinder: Sendable {
    package enum Failure: Error, CustomStringConvertible, Sendable {
        case noService(timeout: Duration)
        case several([String])
        case notFound(String, seen: [String])
        case daemon(String)

        package var description: String {
            switch self {
            case .noService(let t):
                "no Remotion host found on the network within \(t.secondsDouble) s: start `remotion host`, or connect by address with --host ADDR:PORT"
            case .several(let names):
                "several hosts found (\(names.map { "\"\($0)\"" }.joined(separator: ", "))): pick one with --host-name NAME"
            case let .notFound(name, seen):
                "no host named \"\(name)\" found (seen: \(seen.isEmpty ? "none" : seen.joined(separator: ", "))); `remotion hosts` lists them"
            case .daemon(let message):
                "\(message)"
            }
        }
    }

    package let browser: any ServiceBrowser
    package var timeout: Duration

    package init(browser: any ServiceBrowser, timeout: Duration = .seconds(5)) {
        self.browser = browser
        self.timeout = timeout
    }

    /// Browses until a single host (or the named one) is resolved.
    package func find(named preferred: String?) async throws(Failure) -> FoundHost {
        var start = ClientAppStateMachine<SocketAddress>(preferredHost: preferred)
        _ = start.handle(.start)
        let machine = start
        let seen = SeenNames()
        let result = await withTaskGroup(of: Result<FoundHost, Failure>?.self) { group in
            group.addTask {
                var list = HostList()
                var resolved: [String: ResolvedService] = [:]
                var m = machine
                for await event in browser.browse(type: .remotion) {
                    if case .daemonUnavailable = event {
                        return .failure(.daemon("avahi-daemon is not running: discovery is off, connect by address with --host ADDR:PORT"))
                    }
                    if case let .resolved(r) = event { resolved[r.name] = r }
                    guard list.apply(event) != nil else { continue }
                    let names = Array(Set(list.selectable.map(\.name))).sorted()
                    seen.names.withLock { $0 = names }
                    for action in m.handle(.hostsChanged(names)) {
                        guard case let .resolve(name) = action, let r = resolved[name] else { continue }
                        let addresses = r.addresses.compactMap {
                            try? SocketAddress.resolved(address: $0.address, port: Int(r.port), scopeInterfaceIndex: $0.scopeInterfaceIndex)
                        }
                        guard !addresses.isEmpty else { continue }
                        return .success(FoundHost(name: name, addresses: addresses, txt: r.txt.dictionary))
                    }
                    if m.state == .selecting && preferred == nil {
                        // A command line cannot ask which one: let a moment pass for the
                        // list to settle, then say what was found.
                        try? await Task.sleep(for: .milliseconds(300))
                        return .failure(.several(names))
                    }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        switch result {
        case .success(let host)?: return host
        case .failure(let failure)?: throw failure
        case nil:
            if let preferred { throw .notFound(preferred, seen: seen.names.withLock { $0 }) }
            throw .noService(timeout: timeout)
        }
    }

    /// Every host seen within `duration`, resolved.
    package func resolvedHosts(for duration: Duration) async -> [ResolvedService] {
        await withTaskGroup(of: [ResolvedService].self) { group in
            group.addTask {
                var list = HostList()
                for await event in browser.browse(type: .remotion) {
                    _ = list.apply(event)
                    if Task.isCancelled { break }
                }
                return list.selectable
            }
            try? await Task.sleep(for: duration)
            group.cancelAll()
            return await group.next() ?? []
        }
    }
}

/// Names the browser saw, readable after a timeout.
final class SeenNames: Sendable {
    let names = Mutex<[String]>([])
}
