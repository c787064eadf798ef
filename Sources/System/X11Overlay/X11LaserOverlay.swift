#if os(Linux)
import CX11
import Foundation
import RemotionHostLogic

/// The presenter's laser dot on an X11 desktop (docs/WEB-CONTROLLER.md, "Presenter"): a
/// small override-redirect window (no window manager decoration or focus), shaped to a
/// disc with the X Shape extension, with an empty input shape so every click goes to the
/// window below, raised above the others while shown. It never moves the real pointer.
/// A shaped window rather than a full-screen ARGB one: without a compositing manager
/// (Xvfb, many X11 desktops) an ARGB window's transparent pixels are drawn black.
///
/// Its own X connection and thread: `show`/`hide` (from the host's loop) only record the
/// newest position (`LaserDot`) and wake the thread, which moves, maps and — `LaserDot.fade`
/// seconds after the last sample — unmaps the window.
package final class X11LaserOverlay: LaserOverlay {
    /// The dot's diameter in pixels.
    package static let diameter: Int32 = 28
    /// The window's name (tests find it by this).
    package static let windowName = "remotion-laser"

    /// What the host's loop and the drawing thread share.
    private let shared = LaserDotMailbox()

    /// Opens `displayName` (nil: $DISPLAY) and creates the (unmapped) window; nil and why
    /// when the display cannot be opened or has no Shape extension.
    package static func open(displayName: String? = nil) -> Result<X11LaserOverlay, LaserOverlayError> {
        let opened: OpaquePointer? = if let displayName { XOpenDisplay(displayName) } else { XOpenDisplay(nil) }
        guard let dpy = opened else {
            return .failure(LaserOverlayError("cannot open the X display for the laser overlay"))
        }
        var eventBase: Int32 = 0, errorBase: Int32 = 0
        guard XShapeQueryExtension(dpy, &eventBase, &errorBase) != 0 else {
            XCloseDisplay(dpy)
            return .failure(LaserOverlayError("the X server has no Shape extension, so no click-through overlay"))
        }
        let window = makeWindow(dpy)
        return .success(X11LaserOverlay(display: Handle(dpy), window: window))
    }

    /// The display pointer, handed once to the drawing thread that alone uses it from then on.
    /// @unchecked Sendable: `open` makes the connection and passes it to `init`, which gives it
    /// to the new thread's closure and keeps no copy; from then on only that thread calls Xlib
    /// with it (the loop talks to the thread through `Shared`), so it is never used by two threads.
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ p: OpaquePointer) { pointer = p }
    }

    private init(display: Handle, window: Window) {
        let shared = self.shared
        let thread = Thread { Self.run(display, window: window, shared: shared) }
        thread.name = "remotion-laser"
        thread.start()
    }

    deinit { shared.stop() }

    /// Stops the drawing thread and waits (at most `timeout`) until it has closed its X
    /// connection: whoever stops the X server next (a test's Xvfb) must not break a
    /// connection that is still open, which Xlib answers by exiting the process.
    /// True when the thread finished in time.
    @discardableResult
    package func close(timeout: TimeInterval = 2) -> Bool { shared.stopAndWait(timeout: timeout) }

    package func show(x: Int, y: Int) { shared.show(x: x, y: y) }

    package func hide() { shared.hide() }

    private static func makeWindow(_ dpy: OpaquePointer) -> Window {
        let screen = XDefaultScreen(dpy)
        let root = XRootWindow(dpy, screen)
        let d = diameter
        var red = XColor()
        red.red = 0xffff; red.green = 0x2000; red.blue = 0x2000
        red.flags = CChar(DoRed | DoGreen | DoBlue)
        let colormap = XDefaultColormap(dpy, screen)
        let pixel = XAllocColor(dpy, colormap, &red) != 0 ? red.pixel : XWhitePixel(dpy, screen)
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixel = pixel
        attributes.border_pixel = 0
        let window = XCreateWindow(dpy, root, 0, 0, UInt32(d), UInt32(d), 0, XDefaultDepth(dpy, screen),
                                   UInt32(InputOutput), XDefaultVisual(dpy, screen),
                                   UInt(CWOverrideRedirect | CWBackPixel | CWBorderPixel), &attributes)
        XStoreName(dpy, window, windowName)
        // The visible shape: a disc.
        let mask = XCreatePixmap(dpy, window, UInt32(d), UInt32(d), 1)
        let gc = XCreateGC(dpy, mask, 0, nil)
        XSetForeground(dpy, gc, 0)
        XFillRectangle(dpy, mask, gc, 0, 0, UInt32(d), UInt32(d))
        XSetForeground(dpy, gc, 1)
        XFillArc(dpy, mask, gc, 0, 0, UInt32(d), UInt32(d), 0, 360 * 64)
        XShapeCombineMask(dpy, window, ShapeBounding, 0, 0, mask, ShapeSet)
        XFreeGC(dpy, gc)
        XFreePixmap(dpy, mask)
        // The input shape: empty, so the pointer and its clicks pass through.
        XShapeCombineRectangles(dpy, window, ShapeInput, 0, 0, nil, 0, ShapeSet, Unsorted)
        XFlush(dpy)
        return window
    }

    /// The drawing thread: waits for a new sample or the fade deadline, then moves, shows
    /// or hides the window.
    private static func run(_ display: Handle, window: Window, shared: LaserDotMailbox) {
        let dpy = display.pointer
        var mapped = false
        while let dot = shared.next(shown: mapped) {
            let now = ProcessInfo.processInfo.systemUptime
            if dot.visible(at: now), let p = dot.position {
                XMoveWindow(dpy, window, Int32(clamping: p.x) - diameter / 2, Int32(clamping: p.y) - diameter / 2)
                if !mapped { XMapRaised(dpy, window) } else { XRaiseWindow(dpy, window) }
                mapped = true
            } else if mapped {
                XUnmapWindow(dpy, window)
                mapped = false
            }
            XFlush(dpy)
        }
        XDestroyWindow(dpy, window)
        XCloseDisplay(dpy)
        shared.finished()
    }
}
#endif

/// Why there is no laser overlay (one line for the host's log).
package struct LaserOverlayError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
