import RemotionApp
import RemotionHostLogic
import ServiceLifecycle

/// Publishes the host as `_remotion._udp` while it runs. With no DNS-SD daemon the host
/// still runs and says, in one line, that discovery is off.
struct HostAnnouncer: Service {
    let name: InstanceName
    let port: UInt16
    let txt: HostTXT

    func run() async throws {
        guard let backend = DiscoveryBackend.make() else {
            printErr("remotion host: discovery is not available here; controllers connect by address")
            try? await gracefulShutdown()
            return
        }
        let published: PublishedService
        do {
            published = try await backend.publish(name: name, type: .remotion, port: port, txt: txt.record())
        } catch {
            printErr("remotion host: discovery is off (\(error)); controllers connect by address")
            try? await gracefulShutdown()
            return
        }
        printErr("remotion host: announced as \"\(published.name)\" (_remotion._udp, port \(port))")
        try? await gracefulShutdown()
        await backend.unpublish(published)
    }
}
