import Foundation
import RemotionHostLogic
import RemotionNetwork
import ServiceLifecycle

/// Serves the web dashboard on loopback while the host runs; settings changed in the
/// page are applied on the host's loop and written to the config file.
package struct DashboardService: Service {
    let server: DashboardServer

    /// Where the tokened address is kept (0600, beside the keys): `remotion dashboard` reads it.
    let urlFile: URL?

    /// The name of the file in the data directory that holds the dashboard's address with
    /// this start's token.
    package static let urlFileName = "dashboard-url"

    /// Starts the dashboard and writes its tokened address to `dataDirectory/dashboard-url`
    /// (0600): the bound port and that address.
    package static func start(host: HostLoop, publisher: SnapshotPublisher, port: Int, configPath: String?,
                              dataDirectory: URL?, phonePairing: (@Sendable () -> String?)? = nil,
                              devices: PairedDevices? = nil)
        async throws -> (DashboardService, Int, String) {
        let server = DashboardServer()
        let save: @Sendable (String, String) throws -> Void = { key, value in
            guard let configPath else { return }
            try ConfigFile.setMapping(key: key, value: value, path: configPath)
        }
        let bound = try await server.start(host: "127.0.0.1", port: port, publisher: publisher,
                                           settings: HostLoopSettingsControl(host: host, save: save, phonePairing: phonePairing),
                                           devices: devices)
        let url = DashboardToken.url(port: bound, token: server.token)
        if let dataDirectory {
            try PrivateFiles.write(Array((url + "\n").utf8), directory: dataDirectory.path, name: urlFileName)
        }
        return (DashboardService(server: server, urlFile: dataDirectory?.appendingPathComponent(urlFileName)), bound, url)
    }

    package func run() async throws {
        try? await gracefulShutdown()
        await server.shutdown()
        if let urlFile { try? FileManager.default.removeItem(at: urlFile) }
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
}
