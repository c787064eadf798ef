import Logging
import RemotionHostLogic
import RemotionSystem
import ServiceLifecycle

/// Follows the desktop's focused application for `[[profile]]` (docs/MOTION.md, "Profiles")
/// while the host runs: on sway (SWAYSOCK set) a `SwayFocusWatcher`, else on X11 (DISPLAY) an
/// `X11FocusWatcher`; their events go to the host's loop (`onFocus`). One line says which
/// one follows the focus, or why the profiles do not switch. A host that starts without
/// profiles starts the watcher when the dashboard saves the first one (`trigger`).
package struct FocusWatchService: Service {
    let environment: [String: String]
    let onFocus: @Sendable (FocusedApp?) -> Void
    let logger: Logger
    let trigger: FocusWatchTrigger

    package init(environment: [String: String], onFocus: @escaping @Sendable (FocusedApp?) -> Void, logger: Logger,
                 trigger: FocusWatchTrigger = FocusWatchTrigger(started: true)) {
        self.environment = environment
        self.onFocus = onFocus
        self.logger = logger
        self.trigger = trigger
    }

    package func run() async throws {
        guard await trigger.wait() else { return }   // the host stopped before any profile
        try await watch()
    }

    private func watch() async throws {
        #if os(Linux)
        if let socket = environment["SWAYSOCK"], !socket.isEmpty {
            let logger = logger
            let started = SwayFocusWatcher.start(socketPath: socket, onFocus: onFocus, onNote: { logger.warning("\($0)") })
            switch started {
            case .success(let watcher):
                logger.info("following sway's focused window (SWAYSOCK) for [[profile]]")
                try? await gracefulShutdown()
                watcher.stop()
            case .failure(let error):
                logger.warning("[[profile]] does not follow the focus: \(error)")
                try? await gracefulShutdown()
            }
            return
        }
        #endif
        if environment["XDG_SESSION_TYPE"] == "wayland" || environment["WAYLAND_DISPLAY"] != nil {
            logger.warning("[[profile]] does not follow the focus on this Wayland session (only sway's, through SWAYSOCK): the host's mapping stays in force")
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
            logger.info("following the focused X11 window on \(display) for [[profile]]")
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

/// When the focus watcher starts: at once (profiles in the file), or when `fire` says the
/// first profile is in force (saved from the dashboard). Fired any number of times; the
/// first counts. The stream is the one shared thing: its continuation is Sendable.
package final class FocusWatchTrigger: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    package init(started: Bool) {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        if started { continuation.yield() }
    }

    package func fire() { continuation.yield() }

    /// True once fired; false when the host shuts down first.
    package func wait() async -> Bool {
        let continuation = continuation
        return await withGracefulShutdownHandler {
            for await _ in stream { return true }
            return false
        } onGracefulShutdown: {
            continuation.finish()
        }
    }
}
