#if os(Linux)
import CWayland
import Foundation
import RemotionHostLogic

/// The presenter's laser dot on a Wayland compositor with the layer shell (sway, Hyprland,
/// KDE Plasma; docs/WEB-CONTROLLER.md, "Presenter"): a small `zwlr_layer_shell_v1` surface on
/// the overlay layer of the output the dot is on, click-through (an empty input region), no
/// keyboard, exclusive zone -1, drawn once with wl_shm (no GPU). It never moves the pointer.
///
/// Its own connection and thread, like `X11LaserOverlay`: `show`/`hide` (from the host's
/// loop) record the newest position (`LaserDot`) and wake the thread, which places the
/// surface (`LaserPlacement`: the injector's screen is the output `--output` names, else the
/// layout's bounding box) and `LaserDot.fade` seconds after the last sample destroys it.
package final class WaylandLaserOverlay: LaserOverlay {
    package static let diameter: Int32 = 28
    /// The dot's colour, premultiplied ARGB (the X11 dot's red).
    package static let argb: UInt32 = 0xFFFF_2020

    /// The compositor connection, handed once to the drawing thread that alone uses it.
    /// @unchecked Sendable: `open` makes the connection and passes it to `init`, which gives it
    /// to the new thread's closure and keeps no copy; from then on only that thread calls
    /// libwayland with it, so it is never used by two threads.
    private struct Handle: @unchecked Sendable {
        let connection: WaylandConnection
    }

    /// What the host's loop and the drawing thread share.
    private let shared = LaserDotMailbox()

    /// Connects to `display` (nil: $WAYLAND_DISPLAY) and makes the dot's buffer; the error
    /// says in one line why not (no compositor, no layer shell).
    package static func open(display: String?, output: String?) -> Result<WaylandLaserOverlay, LaserOverlayError> {
        let c: WaylandConnection
        switch WaylandConnection.open(display: display, timeoutMilliseconds: 2000) {
        case .failure(let e): return .failure(LaserOverlayError(e.message))
        case .success(let opened): c = opened
        }
        var why = [CChar](repeating: 0, count: 200)
        guard let h = c.handle, rw_overlay_prepare(h, diameter, argb, &why, why.count) == 0 else {
            c.close()
            return .failure(LaserOverlayError(cText(why)))
        }
        return .success(WaylandLaserOverlay(Handle(connection: c), output: output))
    }

    private init(_ handle: Handle, output: String?) {
        let shared = self.shared
        let thread = Thread { Self.run(handle, output: output, shared: shared) }
        thread.name = "remotion-laser"
        thread.start()
    }

    deinit { shared.stop() }

    package func show(x: Int, y: Int) { shared.show(x: x, y: y) }

    package func hide() { shared.hide() }

    /// The drawing thread: waits for a new sample or the fade deadline, then places or
    /// removes the surface. A lost connection ends it (the dot stays away).
    private static func run(_ handle: Handle, output: String?, shared: LaserDotMailbox) {
        let c = handle.connection
        var shown = false
        var why = [CChar](repeating: 0, count: 200)
        while let h = c.handle, let dot = shared.next(shown: shown) {
            // What the compositor sent meanwhile: outputs added or gone, configures.
            guard rw_flush(h, &why, why.count) == 0 else { break }
            let now = ProcessInfo.processInfo.systemUptime
            if dot.visible(at: now), let p = dot.position {
                let slots = c.outputSlots()
                let rects = slots.map { LaserPlacement.Output(x: $0.output.x, y: $0.output.y,
                                                              width: $0.output.width, height: $0.output.height) }
                let pinned = output.flatMap { name in slots.firstIndex(where: { $0.output.name == name }) }
                if output != nil && pinned == nil { continue }   // the chosen output is gone: no dot
                guard let place = LaserPlacement.place(x: p.x, y: p.y, outputs: rects, pinned: pinned,
                                                       diameter: Int(diameter)) else { continue }
                shown = rw_overlay_show(h, slots[place.output].index, Int32(clamping: place.left),
                                        Int32(clamping: place.top), &why, why.count) == 0
            } else if shown {
                shown = false
                guard rw_overlay_hide(h, &why, why.count) == 0 else { break }
            }
        }
        c.close()
    }
}
#endif
