#if os(Linux)
import CAvahi
import Glibc
import RemotionHostLogic

/// DNS-SD through the system's avahi-daemon (libavahi-client over D-Bus).
///
/// One instance holds one avahi client on its own event thread. Create it once and share it:
/// it is both the browser and the publisher. It never fails to construct: without a daemon
/// (or without a D-Bus system bus) `browse` reports `.daemonUnavailable`, `publish` and
/// `resolve` throw `DiscoveryError.daemonUnavailable` with the message
/// "avahi-daemon is not running: discovery is off, connect by address", and the client starts
/// working by itself when the daemon appears. Services stay published across daemon restarts.
///
/// The D-Bus system bus is taken from `DBUS_SYSTEM_BUS_ADDRESS` when set (read at init and on
/// each reconnect), else the system default.
package final class AvahiDiscovery: ServiceBrowser, ServicePublisher, Sendable {
    private let loop: AvahiLoop

    package init() {
        loop = AvahiLoop()
    }

    /// True while the client is connected to a running daemon.
    package var isDaemonRunning: Bool { loop.locked { loop.clientRunning } }

    /// The daemon's host name (e.g. `desk`), nil without a daemon.
    package var daemonHostName: String? {
        loop.locked {
            guard loop.clientRunning, let client = loop.client,
                  let name = avahi_client_get_host_name(client) else { return nil }
            return String(cString: name)
        }
    }

    /// "Remotion on <host name>" from gethostname(2), cut to 63 bytes.
    package static func defaultInstanceName() -> InstanceName {
        var buffer = [CChar](repeating: 0, count: 256)
        let host = gethostname(&buffer, buffer.count) == 0
            ? String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            : ""
        return InstanceName.defaultName(hostName: host)
    }

    package func browse(type: ServiceType) -> AsyncStream<DiscoveryEvent> {
        let (stream, continuation) = AsyncStream<DiscoveryEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = loop.addBrowse(type: type, continuation: continuation)
        continuation.onTermination = { [weak loop] _ in
            // May run on any thread; removeBrowse takes the avahi lock, so hop off first in case
            // termination was triggered while that lock is held.
            guard let loop else { return }
            Task.detached { loop.removeBrowse(id) }
        }
        return stream
    }

    package func resolve(_ service: DiscoveredService) async throws -> ResolvedService {
        try await loop.resolveOnce(service)
    }

    package func publish(name: InstanceName, type: ServiceType, port: UInt16, txt: TXTRecord) async throws
        -> PublishedService
    {
        try await loop.publish(name: name, type: type, port: port, txt: txt)
    }

    /// Convenience: publishes a host TXT record (validated first).
    package func publish(name: InstanceName, type: ServiceType = .remotion, port: UInt16, host: HostTXT) async throws
        -> PublishedService
    {
        let record: TXTRecord
        do { record = try host.record() } catch { throw DiscoveryError.invalidTXT(error) }
        return try await publish(name: name, type: type, port: port, txt: record)
    }

    package func unpublish(_ service: PublishedService) async {
        loop.unpublish(service.id)
    }

    /// The name a publication has now (a conflict after `publish` returned may rename it).
    package func currentName(of service: PublishedService) -> String? {
        loop.currentName(service.id)
    }
}
#endif
