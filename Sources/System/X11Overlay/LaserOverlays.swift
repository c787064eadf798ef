import RemotionHostLogic

/// Picks the laser overlay for this session (docs/WEB-CONTROLLER.md, "Presenter"): on Wayland
/// a layer-shell surface where the compositor offers `zwlr_layer_shell_v1` (sway, Hyprland,
/// KDE Plasma), none where it does not (GNOME), and there the laser moves the real pointer
/// instead; the X11 overlay on an X11 session.
package enum LaserOverlays {
    /// `output`: the output the injector's pointer is bound to (`--output`), whose pixels the
    /// dot's positions are in; nil: the whole layout.
    package static func open(environment: [String: String], output: String? = nil)
        -> (overlay: (any LaserOverlay)?, note: String?) {
        let fallback = "the laser moves the pointer instead"
        if environment["XDG_SESSION_TYPE"] == "wayland" || environment["WAYLAND_DISPLAY"] != nil {
            #if os(Linux)
            if let socket = environment["WAYLAND_DISPLAY"], !socket.isEmpty {
                switch WaylandLaserOverlay.open(display: socket, output: output) {
                case .success(let overlay):
                    return (overlay as any LaserOverlay, "drawing the dot on WAYLAND_DISPLAY=\(socket) (layer shell)")
                case .failure(let error): return (nil, "\(error.message); \(fallback)")
                }
            }
            #endif
            return (nil, "a Wayland session without WAYLAND_DISPLAY: no overlay; \(fallback)")
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
