import RemotionHostLogic
import ServiceLifecycle

/// Publishes the host as `_remotion._udp` while it runs. With no DNS-SD daemon the host
/// still runs and says, once, that discovery is off and why.
package struct HostAnnouncer: Service {
    let name: InstanceName
    let port: UInt16
    let txt: HostTXT
    let console: HostConsole

    package func run() async throws {
        guard let backend = DiscoveryBackend.make() else {
            console.note(.discovery, "discovery off: not available on this platform; controllers connect by address")
            try? await gracefulShutdown()
            return
        }
        let published: PublishedService
        do {
            published = try await backend.publish(name: name, type: .remotion, port: port, txt: txt.record())
        } catch {
            console.note(.discovery, "discovery off: \(Self.reason(error)); controllers connect by address")
            try? await gracefulShutdown()
            return
        }
        console.note(.discovery, "announced as \"\(published.name)\" (_remotion._udp, port \(port))")
        try? await gracefulShutdown()
        await backend.unpublish(published)
    }
}

extension HostAnnouncer {
    /// Why publishing failed, said once: "avahi-daemon is not running" (the daemon's
    /// message already adds "discovery is off, connect by address", which the caller says).
    static func reason(_ error: any Error) -> String {
        guard case .daemonUnavailable(let message)? = error as? DiscoveryError else { return "\(error)" }
        return message.split(separator: ":").first.map(String.init) ?? message
    }
}
