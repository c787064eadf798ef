import NIOCore
import RemotionApp
import RemotionProtocol
import RemotionNetwork

/// Where `remotion client` connects: the --host address, or what discovery finds.
struct ClientTargets {
    var label: String
    var addresses: [SocketAddress]
    /// The host key fingerprint the host announced (TXT `id`), to pick the right paired key.
    var fingerprint: String?

    static func resolve(host: String?, hostName: String?, browseTimeout: Duration) async throws -> ClientTargets {
        if let host {
            guard hostName == nil else { throw UserError("give either --host ADDR:PORT or --host-name NAME, not both") }
            do { return ClientTargets(label: host, addresses: [try AddressParser.parse(host)]) }
            catch { throw UserError("--host \(error.description)") }
        }
        guard let backend = DiscoveryBackend.make() else {
            throw UserError("discovery is not available on this platform: connect with --host ADDR:PORT")
        }
        printErr("remotion client: looking for hosts (DNS-SD _remotion._udp)…")
        do {
            let started = ContinuousClock.now
            let found = try await HostFinder(browser: backend, timeout: browseTimeout).find(named: hostName)
            let ms = (ContinuousClock.now - started).secondsDouble * 1000
            printErr("remotion client: found \"\(found.name)\" at \(found.addresses.map(\.displayText).joined(separator: ", ")) after \(Int(ms.rounded())) ms")
            return ClientTargets(label: "\"\(found.name)\"", addresses: found.addresses, fingerprint: found.txt["id"])
        } catch {
            throw UserError(error.description)
        }
    }
}
