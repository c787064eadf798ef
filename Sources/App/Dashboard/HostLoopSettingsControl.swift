import NIOCore
import RemotionHostLogic
import RemotionProtocol
import RemotionNetwork

/// Applies dashboard changes on the host's loop, then (off the loop) hands the new
/// value to `save` — `remotion host` writes it to its config file. The dashboard awaits
/// the hop; the loop never waits for the dashboard.
package struct HostLoopSettingsControl: SettingsControl {
    let host: HostLoop
    let save: @Sendable (_ key: String, _ value: String) throws -> Void
    /// Opens a phone pairing window on the web controller (nil: no web controller).
    let phonePairing: (@Sendable () -> String?)?
    /// The config file the `[[profile]]` list is saved to (nil: kept in memory only).
    let profilesPath: String?
    /// Called once profiles are in force after an edit (the host starts following the focus
    /// then, if it started without any: `FocusWatchTrigger`).
    let profilesInUse: @Sendable () -> Void
    /// Writes the chosen output as `[inject] output` (off the loop, after the switch).
    let saveOutput: @Sendable (_ name: String) throws -> Void

    package init(host: HostLoop,
                 save: @escaping @Sendable (_ key: String, _ value: String) throws -> Void = { _, _ in },
                 phonePairing: (@Sendable () -> String?)? = nil, profilesPath: String? = nil,
                 profilesInUse: @escaping @Sendable () -> Void = {},
                 saveOutput: @escaping @Sendable (_ name: String) throws -> Void = { _ in }) {
        self.host = host
        self.save = save
        self.phonePairing = phonePairing
        self.profilesPath = profilesPath
        self.profilesInUse = profilesInUse
        self.saveOutput = saveOutput
    }

    package func chooseOutput(_ name: String) async throws -> OutputChoice {
        let choice = try await host.onLoop { pipeline, now in
            let choice = pipeline.chooseOutput(name)
            if case .chosen = choice { pipeline.publishNow(now: now) }
            return choice
        }
        guard case .chosen = choice else { return choice }
        do { try saveOutput(name) } catch { throw OutputNotSaved("\(error)") }
        return choice
    }

    package func openPhonePairing() async -> String? { phonePairing?() }

    package func apply(key: String, value: String) async throws -> MappingSettings {
        let settings = try await host.onLoop { pipeline, now in
            var settings = pipeline.settings
            try settings.set(key, to: value)
            pipeline.update(settings: settings)
            // Readers see the change at once, also while no controller makes the loop publish.
            pipeline.publishNow(now: now)
            return settings
        }
        try save(key, settings.value(of: key))
        return settings
    }

    /// Validated first (nothing applied on a bad profile), the file's new text made and read
    /// back (its profiles carry their lines; a file that would not read back is refused before
    /// anything changes), applied on the loop — each controller whose profile in force changes
    /// switches cleanly, releasing what it held (`HostEngine.setProfiles`) — then saved.
    package func setProfiles(_ drafts: [ProfileDraft]) async throws -> FocusProfiles {
        let validated = try ProfileDraft.validate(drafts)
        let update = try profilesPath.map { try ConfigFile.updatingProfiles(validated, path: $0) }
        let inForce = update?.profiles ?? validated
        let applied = try await host.onLoop { pipeline, now in
            pipeline.setProfiles(inForce, now: now)
            pipeline.publishNow(now: now)
            return pipeline.focusProfiles
        }
        // Read again under the file's lock: a setting saved meanwhile stays.
        if update != nil, let profilesPath { try ConfigFile.saveProfiles(validated, path: profilesPath) }
        if !applied.isEmpty { profilesInUse() }
        return applied
    }

    package func calibrate(session: String) async throws -> CalibrationStart {
        guard session.count == 8, let raw = UInt32(session, radix: 16) else { return .noController }
        return try await host.onLoop { pipeline, _ in pipeline.calibrate(session: SessionID(raw)) }
    }

    package func setPad(session: String, on: Bool) async throws -> Bool? {
        guard session.count == 8, let raw = UInt32(session, radix: 16) else { return nil }
        return try await host.onLoop { $0.setPad(SessionID(raw), on: on, now: $1) }
    }

    package func current() async -> MappingSettings {
        (try? await host.onLoop { pipeline, _ in pipeline.settings }) ?? MappingSettings()
    }
}
