import RemotionHostLogic

/// Picks the laser overlay for this session (docs/WEB-CONTROLLER.md, "Presenter"): the X11
/// overlay on an X11 session; none on Wayland (no protocol lets a program draw above the
/// others and take no input), where the laser moves the real pointer instead.
package enum LaserOverlays {
    package static func open(environment: [String: String]) -> (overlay: (any LaserOverlay)?, note: String?) {
        let fallback = "the laser moves the pointer instead"
        if environment["XDG_SESSION_TYPE"] == "wayland" || environment["WAYLAND_DISPLAY"] != nil {
            return (nil, "a Wayland session lets no program draw over the others; \(fallback)")
        }
        #if os(Linux)
        guard let display = environment["DISPLAY"], !display.isEmpty else {
            return (nil, "no X display (DISPLAY is not set); \(fallback)")
        }
        switch X11LaserOverlay.open(displayName: display) {
        case .success(let overlay): return (overlay as any LaserOverlay, "drawing the dot on \(display)")
        case .failure(let error): return (nil, "\(error.message); \(fallback)")
        }
        #else
        return (nil, "no overlay on this system yet; \(fallback)")
        #endif
    }
}
