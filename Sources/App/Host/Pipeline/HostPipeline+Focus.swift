import RemotionHostLogic
import RemotionProtocol

/// Profiles that follow the focused application (`[[profile]]`, docs/MOTION.md "Profiles"):
/// a focus watcher's events reach the engine here, on the host's loop, with the loop's time;
/// what it decides (releases, a rested gyro stick) goes to the outputs like any other.
extension HostPipeline {
    /// The desktop's focus moved to `app` (nil: no application has it): every controller
    /// whose profile in force changes switches now.
    package func focus(_ app: FocusedApp?, now: Instant) {
        let start = pending.count
        engine.focus(app, now: now, into: &pending)
        route(from: start, now: now)
    }

    /// The `[[profile]]` tables (at start, or the config read again).
    package func setProfiles(_ profiles: FocusProfiles, now: Instant) {
        let start = pending.count
        engine.setProfiles(profiles, now: now, into: &pending)
        route(from: start, now: now)
    }

    /// The application with the focus, as the watcher last said, and the profiles.
    package var focused: FocusedApp? { engine.focused }
    package var focusProfiles: FocusProfiles { engine.profiles }
}
