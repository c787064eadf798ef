import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RemotionHostLogic
import RemotionNetwork
import ServiceLifecycle

/// Serves the web dashboard on loopback while the host runs; settings changed in the
/// page are applied on the host's loop and written to the config file.
package struct DashboardService: Service {
    let server: DashboardServer

    /// Where the tokened address is kept (`DashboardAddressFile`, 0600 in $XDG_RUNTIME_DIR):
    /// `remotion dashboard` reads it. nil without a runtime directory.
    let addressFile: String?
    /// The address written there, removed at the stop only while the file still holds it.
    let url: String

    /// Starts the dashboard and writes its tokened address to `addressFile` (0600) once it
    /// listens: the bound port and that address. When it cannot bind, a file a host before
    /// it left there is removed (unless a live dashboard proves it serves it) and the error
    /// is thrown. The file older hosts kept in the data directory goes either way.
    package static func start(host: HostLoop, publisher: SnapshotPublisher, port: Int, configPath: String?,
                              addressFile: String?, dataDirectory: URL?, phonePairing: (@Sendable () -> String?)? = nil,
                              devices: PairedDevices? = nil)
        async throws -> (DashboardService, Int, String) {
        if let dataDirectory { unlink(dataDirectory.appendingPathComponent(DashboardAddressFile.legacyName).path) }
        let server = DashboardServer()
        let save: @Sendable (String, String) throws -> Void = { key, value in
            guard let configPath else { return }
            try ConfigFile.setMapping(key: key, value: value, path: configPath)
        }
        let bound: Int
        do {
            bound = try await server.start(host: "127.0.0.1", port: port, publisher: publisher,
                                           settings: HostLoopSettingsControl(host: host, save: save, phonePairing: phonePairing),
                                           devices: devices)
        } catch {
            if let addressFile { DashboardAddressFile.removeUnlessServed(addressFile) }
            throw error
        }
        let url = DashboardToken.url(port: bound, token: server.token)
        if let addressFile {
            do { try DashboardAddressFile.write(url: url, path: addressFile) } catch {
                await server.shutdown()
                throw error
            }
        }
        return (DashboardService(server: server, addressFile: addressFile, url: url), bound, url)
    }

    package func run() async throws {
        try? await gracefulShutdown()
        await server.shutdown()
        if let addressFile { DashboardAddressFile.remove(addressFile, holding: url) }
    }

}

/// Writes a mapping change into the TOML config, keeping everything else as it was.
package enum ConfigFile {
    package static func setMapping(key: String, value: String, path: String) throws {
        let url = URL(fileURLWithPath: path)
        let old = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        let new = HostConfig.updatingMapping(key: key, value: value, in: old)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(new.utf8).write(to: url, options: .atomic)
    }
}

package enum DashboardNote {
    /// "dashboard on http://127.0.0.1:7475/ (open it with `remotion dashboard`; settings saved
    /// to FILE)", saying when FILE does not exist yet that the first change creates it. The
    /// token is never printed: the line may end up in a log.
    package static func started(port: Int, configPath: String?) -> String {
        let url = "dashboard on http://127.0.0.1:\(port)/ (open it with `remotion dashboard`; "
        guard let configPath else { return url + "settings changes are not saved: no config path; set HOME or XDG_CONFIG_HOME)" }
        if FileManager.default.fileExists(atPath: configPath) { return url + "settings saved to \(configPath))" }
        return url + "settings will be saved to \(configPath), created on the first change)"
    }

    /// Said by a host without a runtime directory: the dashboard serves, but nothing can open it.
    package static let addressNotKept = "dashboard's address not kept: \(DashboardAddressFile.noRuntimeDirectory), "
        + "so `remotion dashboard` cannot open it; run the host in a login session (its user service does)"
}
