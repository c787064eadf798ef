import RemotionHostLogic
import Synchronization

/// Where the dashboard sends a settings change. The host implements it by hopping to
/// its own loop (and saving its config file); the dashboard only awaits the answer, so
/// nothing on the host's loop ever waits for the dashboard.
package protocol SettingsControl: Sendable {
    /// Sets `key` (one of `MappingSettings.keys`) from its text form and returns the
    /// settings now in force. Throws `MappingSettingError` for an unknown key or a bad
    /// value (the dashboard answers 400 with its message); other errors answer 500.
    func apply(key: String, value: String) async throws -> MappingSettings
    /// The settings now in force (shown by the page's settings form).
    func current() async -> MappingSettings
    /// Starts a manual gyro calibration of one controller (`session` as the snapshot
    /// spells it, 8 hex digits): the user holds it still for `calibration.duration` s.
    func calibrate(session: String) async throws -> CalibrationStart
    /// Gives one controller (`session`, 8 hex digits) a virtual pad or takes it away: whether
    /// it has one now; nil when there is no such controller or the host makes no pads.
    func setPad(session: String, on: Bool) async throws -> Bool?
    /// Opens a phone pairing window on the web controller and returns its link; nil when
    /// the host serves no web controller.
    func openPhonePairing() async -> String?
    /// Replaces the `[[profile]]` list (docs/MOTION.md, "Profiles") and returns the profiles now
    /// in force. Throws `ProfileEditError` for a profile the file's rules refuse (the dashboard
    /// answers 400 with its line; nothing applied, nothing saved), `ConfigError` when the config
    /// file cannot take them (409); other errors answer 500.
    func setProfiles(_ drafts: [ProfileDraft]) async throws -> FocusProfiles
    /// Makes `name` the output the pointer covers (PUT /api/output) and saves it as
    /// `[inject] output`; a save that fails throws after the switch (the dashboard answers 500).
    func chooseOutput(_ name: String) async throws -> OutputChoice
}

extension SettingsControl {
    package func openPhonePairing() async -> String? { nil }
    /// A host without pads (tests, hosts that never give one).
    package func setPad(session: String, on: Bool) async throws -> Bool? { nil }
    /// A host whose injector has no outputs.
    package func chooseOutput(_ name: String) async throws -> OutputChoice { .noOutputs(injector: "this") }
}

/// Settings kept in memory: for tests and for hosts without a config file.
package final class InMemorySettingsControl: SettingsControl {
    private let state: Mutex<MappingSettings>
    private let controllers: Mutex<(known: Set<String>, requested: [String])>

    /// `controllers`: the sessions `calibrate` knows (others answer `.noController`).
    package init(_ settings: MappingSettings = MappingSettings(), controllers: Set<String> = []) {
        state = Mutex(settings)
        self.controllers = Mutex((controllers, []))
    }

    package func calibrate(session: String) async throws -> CalibrationStart {
        let off = state.withLock { $0.sensors.calibrationMode == .off }
        return controllers.withLock { c in
            guard c.known.contains(session) else { return .noController }
            guard !off else { return .off }
            c.requested.append(session)
            return .started
        }
    }

    /// The sessions that have a pad (`setPad`); nil: this "host" makes no pads.
    package let pads: Mutex<Set<String>?> = Mutex(nil)

    package func setPad(session: String, on: Bool) async throws -> Bool? {
        let known = controllers.withLock { $0.known.contains(session) }
        return pads.withLock { p -> Bool? in
            guard known, p != nil else { return nil }
            if on { p?.insert(session) } else { p?.remove(session) }
            return on
        }
    }

    /// The sessions `calibrate` started, in order.
    package var calibrationRequests: [String] { controllers.withLock { $0.requested } }

    package func apply(key: String, value: String) async throws -> MappingSettings {
        try state.withLock { (settings: inout MappingSettings) throws(MappingSettingError) -> MappingSettings in
            try settings.set(key, to: value)
            return settings
        }
    }

    package func current() async -> MappingSettings { state.withLock { $0 } }

    /// The profiles `setProfiles` last took.
    package let profiles = Mutex(FocusProfiles())

    package func setProfiles(_ drafts: [ProfileDraft]) async throws -> FocusProfiles {
        let validated = try ProfileDraft.validate(drafts)
        profiles.withLock { $0 = validated }
        return validated
    }
}
