import Foundation
#if canImport(Glibc)
import Glibc
#endif
import RemotionHostLogic
import RemotionNetwork
import ServiceLifecycle
import Synchronization

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
                              devices: PairedDevices? = nil, profilesInUse: @escaping @Sendable () -> Void = {})
        async throws -> (DashboardService, Int, String) {
        if let dataDirectory { unlink(dataDirectory.appendingPathComponent(DashboardAddressFile.legacyName).path) }
        let server = DashboardServer()
        let save: @Sendable (String, String) throws -> Void = { key, value in
            guard let configPath else { return }
            try ConfigFile.setMapping(key: key, value: value, path: configPath)
        }
        let saveOutput: @Sendable (String) throws -> Void = { name in
            guard let configPath else { return }
            try ConfigFile.setInjectOutput(name, path: configPath)
        }
        let bound: Int
        do {
            bound = try await server.start(host: "127.0.0.1", port: port, publisher: publisher,
                                           settings: HostLoopSettingsControl(host: host, save: save, phonePairing: phonePairing,
                                                                                     profilesPath: configPath, profilesInUse: profilesInUse,
                                                                                     saveOutput: saveOutput),
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

/// Writes dashboard changes into the TOML config, keeping everything else as it was. Each
/// change reads the file, changes its text and replaces it under one lock, so a setting and
/// the profiles saved at the same moment do not undo each other.
package enum ConfigFile {
    private static let writing = Mutex(())

    package static func setMapping(key: String, value: String, path: String) throws {
        try writing.withLock { _ in
            let url = URL(fileURLWithPath: path)
            let old = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            let new = HostConfig.updatingMapping(key: key, value: value, in: old)
            try write(new, path: path)
        }
    }

    /// Replaces the file's `[[profile]]` tables with `profiles` (`updatingProfiles`, then the write).
    package static func saveProfiles(_ profiles: FocusProfiles, path: String) throws {
        try writing.withLock { _ in try write(updatingProfiles(profiles, path: path).text, path: path) }
    }

    /// The file's text with its `[[profile]]` tables replaced (`HostConfig.updatingProfiles`)
    /// and the profiles as that text holds them (their lines), read back through the config's
    /// own parser. Nothing is written. Throws `ConfigError` when the file cannot be read, or
    /// when the new text would not read back (a file broken by hand since the host started):
    /// one line naming the file and its line.
    package static func updatingProfiles(_ profiles: FocusProfiles, path: String) throws -> (text: String, profiles: FocusProfiles) {
        let url = URL(fileURLWithPath: path)
        var old = ""
        if FileManager.default.fileExists(atPath: path) {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw ConfigError(path: path, line: 0, "cannot read the config file (not UTF-8, or no permission); profiles not saved")
            }
            old = text
        }
        do throws(ConfigError) { _ = try HostConfig.parse(old, path: path) } catch {
            throw ConfigError(path: error.path, line: error.line, error.message + " (fix the file; profiles not saved)")
        }
        let new = HostConfig.updatingProfiles(profiles, in: old)
        guard let read = try? HostConfig.parse(new, path: path),
              read.profiles.list.map(\.draft) == profiles.list.map(\.draft) else {
            throw ConfigError(path: path, line: 0, "the profiles would not read back as sent; not saved")
        }
        return (new, read.profiles)
    }

    /// Replaces the file at once (a temporary file renamed over it), its directory made if missing.
    package static func write(_ text: String, path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url, options: .atomic)
    }

    /// Writes `[inject] output = "NAME"` (the dashboard's choice), keeping everything else;
    /// the error is one line naming the file.
    package static func setInjectOutput(_ name: String, path: String) throws(ConfigError) {
        let url = URL(fileURLWithPath: path)
        let old: String
        if FileManager.default.fileExists(atPath: path) {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                throw ConfigError(path: path, line: 0, "cannot read it as UTF-8 text; the output was not saved")
            }
            old = text
        } else {
            old = ""
        }
        let new = try HostConfig.updatingInjectOutput(name, in: old, path: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(new.utf8).write(to: url, options: .atomic)
        } catch {
            throw ConfigError(path: path, line: 0, "cannot write it (\((error as NSError).localizedDescription)); check the directory's permissions")
        }
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
