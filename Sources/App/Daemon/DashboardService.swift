import Foundation
import RemotionHostLogic
import RemotionNetwork
import ServiceLifecycle

/// Serves the web dashboard on loopback while the host runs; settings changed in the
/// page are applied on the host's loop and written to the config file.
package struct DashboardService: Service {
    let server: DashboardServer

    package static func start(host: HostLoop, publisher: SnapshotPublisher, port: Int,
                      configPath: String?, phonePairing: (@Sendable () -> String?)? = nil) async throws -> (DashboardService, Int) {
        let server = DashboardServer()
        let save: @Sendable (String, String) throws -> Void = { key, value in
            guard let configPath else { return }
            try ConfigFile.setMapping(key: key, value: value, path: configPath)
        }
        let bound = try await server.start(host: "127.0.0.1", port: port, publisher: publisher,
                                           settings: HostLoopSettingsControl(host: host, save: save, phonePairing: phonePairing))
        return (DashboardService(server: server), bound)
    }

    package func run() async throws {
        try? await gracefulShutdown()
        await server.shutdown()
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
    /// "dashboard on http://127.0.0.1:7475/ (settings saved to FILE)", saying when FILE
    /// does not exist yet that the first change creates it.
    package static func started(port: Int, configPath: String?) -> String {
        let url = "dashboard on http://127.0.0.1:\(port)/"
        guard let configPath else { return url + " (settings changes are not saved: no config path; set HOME or XDG_CONFIG_HOME)" }
        if FileManager.default.fileExists(atPath: configPath) { return url + " (settings saved to \(configPath))" }
        return url + " (settings will be saved to \(configPath), created on the first change)"
    }
}
