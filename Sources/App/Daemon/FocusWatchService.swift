import Logging
import RemotionHostLogic
import RemotionSystem
import ServiceLifecycle

/// Follows the desktop's focused application for `[[profile]]` (docs/MOTION.md, "Profiles")
/// while the host runs: on X11 an `X11FocusWatcher`, whose events go to the host's loop
/// (`onFocus`); elsewhere one line says why the profiles do not switch.
package struct FocusWatchService: Service {
    let environment: [String: String]
    let onFocus: @Sendable (FocusedApp?) -> Void
    let logger: Logger

    package init(environment: [String: String], onFocus: @escaping @Sendable (FocusedApp?) -> Void, logger: Logger) {
        self.environment = environment
        self.onFocus = onFocus
        self.logger = logger
    }

    package func run() async throws {
        if environment["XDG_SESSION_TYPE"] == "wayland" || environment["WAYLAND_DISPLAY"] != nil {
            logger.warning("[[profile]] does not follow the focus on this Wayland session yet: the host's mapping stays in force")
            try? await gracefulShutdown()
            return
        }
        #if os(Linux)
        guard let display = environment["DISPLAY"], !display.isEmpty else {
            logger.warning("[[profile]] does not follow the focus: no X display (DISPLAY is not set)")
            try? await gracefulShutdown()
            return
        }
        switch X11FocusWatcher.start(displayName: display, onFocus: onFocus) {
        case .success(let watcher):
            logger.info("following the focused window on \(display) for [[profile]]")
            try? await gracefulShutdown()
            watcher.stop()
        case .failure(let error):
            logger.warning("[[profile]] does not follow the focus: \(error)")
            try? await gracefulShutdown()
        }
        #else
        logger.warning("[[profile]] does not follow the focus on this system yet")
        try? await gracefulShutdown()
        #endif
    }
}
