#if os(Linux)
import CX11
import Foundation
import RemotionHostLogic
import RemotionSystem
import RemotionTestSupport
import Testing

/// The laser overlay on a real Xvfb, read back through a second X connection: the dot's
/// window appears centred where it is shown, takes no input (empty input shape), never
/// moves the pointer, and is unmapped `LaserDot.fade` s after the last sample. The
/// Wayland and no-display choices of `LaserOverlays.open`.
@Suite struct LaserOverlayTests {
    /// The overlay's window (by name) among the root's children: (viewable, centre x, y).
    func overlay(_ probe: OpaquePointer) -> (viewable: Bool, x: Int, y: Int, window: Window)? {
        var root: Window = 0, parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(probe, XDefaultRootWindow(probe), &root, &parent, &children, &count) != 0, let children else { return nil }
        defer { XFree(children) }
        for i in 0..<Int(count) {
            var name: UnsafeMutablePointer<CChar>?
            guard XFetchName(probe, children[i], &name) != 0, let name else { continue }
            defer { XFree(name) }
            guard String(cString: name) == X11LaserOverlay.windowName else { continue }
            var a = XWindowAttributes()
            XGetWindowAttributes(probe, children[i], &a)
            return (a.map_state == IsViewable, Int(a.x + a.width / 2), Int(a.y + a.height / 2), children[i])
        }
        return nil
    }

    /// Polls `condition` until it holds or `seconds` pass, sleeping as a task (a pool thread is
    /// not held while the drawing thread works: the suite's pool has as many threads as cores).
    /// The bounds are for a broken overlay, far from the few milliseconds a working one takes.
    func waitFor(_ seconds: Double, _ condition: () -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return condition()
    }

    @Test func theDotShowsWhereToldTakesNoInputAndFades() async throws {
        let xvfb = try await XvfbServer.start()
        defer { xvfb.stop() }
        let probe = try xvfb.openProbe()
        defer { XCloseDisplay(probe) }
        let pointerBefore = queryPointer(probe)
        let opened = X11LaserOverlay.open(displayName: xvfb.displayName)
        guard case .success(let laser) = opened else { Issue.record("no overlay: \(opened)"); return }
        defer { #expect(laser.close(), "the drawing thread did not close its connection") }
        // Shown again at every poll: a sample restarts the fade, so a poll that comes late (a
        // loaded machine's pool) cannot miss a dot that showed and faded in between.
        let shown = await waitFor(10) {
            laser.show(x: 700, y: 300)
            return overlay(probe).map { $0.viewable && $0.x == 700 && $0.y == 300 } ?? false
        }
        #expect(shown, "the dot's window is not shown at (700, 300): \(String(describing: overlay(probe)))")
        if let w = overlay(probe)?.window {
            var count: Int32 = 0, ordering: Int32 = 0
            let rects = XShapeGetRectangles(probe, w, ShapeInput, &count, &ordering)
            #expect(count == 0, "the input shape is not empty")
            if let rects { XFree(rects) }
        }
        // A newer sample moves it and restarts the fade; the fade is timed from the last one,
        // and waited for with the dot there and mapped. A poll that comes late (a loaded
        // machine's pool) shows it somewhere it never was: seen at the same place again, the
        // dot could be the last cycle's, whose fade was due, and it once measured 0.0002 s.
        var shownAt = Date.distantPast, x = 709
        let moved = await waitFor(10) {
            if Date().timeIntervalSince(shownAt) > 0.2 { x += 1 }
            shownAt = Date()
            laser.show(x: x, y: 305)
            return overlay(probe).map { $0.viewable && $0.x == x && $0.y == 305 } ?? false
        }
        #expect(moved, "the dot did not move to (\(x), 305)")
        #expect(await waitFor(10) { overlay(probe).map { !$0.viewable } ?? false }, "the dot did not fade")
        let faded = Date().timeIntervalSince(shownAt)
        // Not before its time; after it, by the drawing thread alone (0.5–0.6 s measured; the
        // upper bound is for a dot that never fades, far from a loaded machine's lateness).
        #expect(faded >= LaserDot.fade - 0.05 && faded < LaserDot.fade + 5, "faded after \(faded) s")
        let pointerAfter = queryPointer(probe)
        #expect(pointerAfter.x == pointerBefore.x && pointerAfter.y == pointerBefore.y, "the overlay moved the pointer")
        let shownAgain = await waitFor(10) {
            laser.show(x: 100, y: 100)
            return overlay(probe)?.viewable ?? false
        }
        #expect(shownAgain, "the dot did not show again at (100, 100)")
        laser.hide()
        #expect(await waitFor(10) { overlay(probe).map { !$0.viewable } ?? false }, "hide() did not hide the dot")
    }

    @Test func waylandAndNoDisplayFallBackToThePointer() {
        let wayland = LaserOverlays.open(environment: ["XDG_SESSION_TYPE": "wayland", "DISPLAY": ":0"])
        #expect(wayland.overlay == nil && wayland.note?.contains("Wayland") == true && wayland.note?.contains("moves the pointer") == true)
        let none = LaserOverlays.open(environment: [:])
        #expect(none.overlay == nil && none.note?.contains("DISPLAY is not set") == true)
    }

    @Test func aWaylandSocketThatIsNoCompositorIsOneLineAndThePointer() throws {
        // Where the layer-shell overlay cannot open, the laser falls back: one line, no overlay.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("remotion-laser-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = LaserOverlays.open(environment: ["XDG_SESSION_TYPE": "wayland", "XDG_RUNTIME_DIR": dir.path,
                                                       "WAYLAND_DISPLAY": dir.appendingPathComponent("wayland-none").path])
        #expect(missing.overlay == nil)
        #expect(missing.note?.contains("WAYLAND_DISPLAY=") == true && missing.note?.hasSuffix("the laser moves the pointer instead") == true)
        #expect(missing.note?.contains("\n") == false)
    }
}
#endif
