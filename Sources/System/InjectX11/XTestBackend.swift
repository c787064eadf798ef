#if os(Linux)
import CX11
import RemotionProtocol
import RemotionHostLogic
import Synchronization
import Glibc

/// Injects through the X server's XTEST extension (X11 sessions, Xvfb, XWayland
/// apps only). Absolute and relative motion, buttons 1-3/8/9, the wheel as
/// buttons 4/5 (vertical) and 6/7 (horizontal), keys by keysym -> keycode.
/// Events go out on `flush()` (XFlush, no round trip).
///
/// Xlib's default error handler exits the process; while a backend is open a
/// handler that only counts errors is installed instead, and `flush()` reports
/// errors counted since the previous flush. (A lost connection still ends the
/// process through Xlib's I/O error handler.)
package final class XTestBackend: InjectorBackend {
    package let name = "xtest"
    private(set) var display: OpaquePointer?
    /// Spare keycodes remapped for typing text (XTestBackend+Text); restored on close.
    var typing: SpareKeycodes?
    /// Where borrowed keycodes are recorded while borrowed (nil: not recorded).
    let keymapRecord: String?
    /// Keycodes a previous host left borrowed, given back when this backend opened.
    package private(set) var recoveredKeycodes: [UInt8] = []
    private let root: Window
    private var geometry: ScreenGeometry
    private var errorsSeen: Int
    /// When pending X events (RandR resizes) were last read (CLOCK_MONOTONIC_COARSE, ns).
    private var geometryCheckedAt: Int64 = .min / 2
    /// How often the geometry is refreshed: per packet, XPending made 4 failing recvmsg
    /// calls; a resize shows within this instead.
    static let geometryRefreshNanos: Int64 = 100_000_000

    /// Opens `displayName` (e.g. ":1"), or `$DISPLAY` when nil. `keymapRecord` is the
    /// file that records keycodes borrowed for typing (`keymapRecordPath`); what a host
    /// that died left in it is given back now.
    package init(displayName: String? = nil, keymapRecord: String? = nil) throws(InjectionError) {
        self.keymapRecord = keymapRecord
        let dpy: OpaquePointer? = if let displayName { XOpenDisplay(displayName) } else { XOpenDisplay(nil) }
        guard let dpy else {
            let which = displayName.map { "display \"\($0)\"" } ?? "the display named by $DISPLAY"
            throw InjectionError(.unavailable, backend: "xtest",
                                 "cannot open \(which); is an X server running and DISPLAY set (e.g. DISPLAY=:0)?")
        }
        var eventBase: Int32 = 0, errorBase: Int32 = 0, major: Int32 = 0, minor: Int32 = 0
        guard XTestQueryExtension(dpy, &eventBase, &errorBase, &major, &minor) != 0 else {
            XCloseDisplay(dpy)
            throw InjectionError(.unavailable, backend: "xtest", "the X server has no XTEST extension")
        }
        XErrorCounter.install()
        display = dpy
        root = XDefaultRootWindow(dpy)
        let screen = XDefaultScreen(dpy)
        geometry = ScreenGeometry(width: Int(XDisplayWidth(dpy, screen)), height: Int(XDisplayHeight(dpy, screen)))
        errorsSeen = XErrorCounter.count
        // Root window size changes (RandR) arrive as ConfigureNotify on the root.
        XSelectInput(dpy, root, StructureNotifyMask)
        XFlush(dpy)
        recoveredKeycodes = restoreRecordedKeycodes(dpy)
    }

    /// `$XDG_STATE_HOME/remotion/xtest-keymap-<display>` (default ~/.local/state/remotion/…):
    /// one record per X display, so hosts on different displays do not share one.
    package static func keymapRecordPath(environment: [String: String], displayName: String?) -> String? {
        let state: String
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { state = xdg }
        else if let home = environment["HOME"], home.hasPrefix("/") { state = home + "/.local/state" }
        else { return nil }
        let display = displayName ?? environment["DISPLAY"] ?? ""
        let safe = String(display.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == ".") ? $0 : "_" })
        return state + "/remotion/xtest-keymap-" + (safe.isEmpty ? "default" : safe)
    }

    deinit { close() }

    /// The root window's size, following resolution changes (pending
    /// ConfigureNotify events are read without blocking).
    package func screenGeometry() -> ScreenGeometry {
        guard let dpy = display else { return geometry }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &ts)   // vDSO: no system call
        let now = Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
        guard now - geometryCheckedAt >= Self.geometryRefreshNanos else { return geometry }
        geometryCheckedAt = now
        drainEvents(dpy)
        return geometry
    }

    /// Reads pending X events without blocking: root resizes (ConfigureNotify) and keyboard
    /// map changes (MappingNotify, sent to every client: Xlib's keysym cache is refreshed
    /// and typing's spare keycodes re-read).
    func drainEvents(_ dpy: OpaquePointer) {
        while XPending(dpy) > 0 {
            var event = XEvent()
            XNextEvent(dpy, &event)
            if event.type == ConfigureNotify, event.xconfigure.window == root {
                geometry = ScreenGeometry(width: Int(event.xconfigure.width), height: Int(event.xconfigure.height))
            } else if event.type == MappingNotify {
                keyboardMappingChanged(&event)
            }
        }
    }

    package func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {
        guard let dpy = display else { throw InjectionError(.closed, backend: name, "posted after close()") }
        let ok: Bool
        switch event {
        case .moveTo(let x, let y):
            ok = XTestFakeMotionEvent(dpy, -1, Int32(clamping: x), Int32(clamping: y), 0) != 0
        case .moveBy(let dx, let dy):
            ok = XTestFakeRelativeMotionEvent(dpy, Int32(clamping: dx), Int32(clamping: dy), 0) != 0
        case .button(let b, let down):
            ok = XTestFakeButtonEvent(dpy, UInt32(b.rawValue), down ? 1 : 0, 0) != 0
        case .key(let k, let down):
            let code = XKeysymToKeycode(dpy, KeySym(k.keysym))
            guard code != 0 else {
                throw InjectionError(.unsupported, backend: name,
                                     "key \(k.name) (keysym 0x\(String(k.keysym, radix: 16))) has no keycode in the X keyboard map")
            }
            ok = XTestFakeKeyEvent(dpy, UInt32(code), down ? 1 : 0, 0) != 0
        case .wheel(let dx, let dy):
            ok = Self.click(dpy, button: dy > 0 ? 4 : 5, times: abs(dy))
                && Self.click(dpy, button: dx > 0 ? 7 : 6, times: abs(dx))
        }
        guard ok else { throw InjectionError(.failed, backend: name, "the X server refused \(event)") }
    }

    private static func click(_ dpy: OpaquePointer, button: UInt32, times: Int) -> Bool {
        for _ in 0..<times {
            guard XTestFakeButtonEvent(dpy, button, 1, 0) != 0, XTestFakeButtonEvent(dpy, button, 0, 0) != 0 else {
                return false
            }
        }
        return true
    }

    package func flush() throws(InjectionError) {
        guard let dpy = display else { throw InjectionError(.closed, backend: name, "flushed after close()") }
        XFlush(dpy)
        let now = XErrorCounter.count
        if now != errorsSeen {
            let code = XErrorCounter.lastErrorCode
            errorsSeen = now
            throw InjectionError(.failed, backend: name, "the X server reported an error (code \(code))")
        }
    }

    /// Waits until the X server has processed every event sent so far (XSync,
    /// one round trip). Not needed for injection; for read-backs and tests.
    package func sync() {
        guard let dpy = display else { return }
        XSync(dpy, 0)
    }

    package func close() {
        guard let dpy = display else { return }
        restoreBorrowedKeycodes()
        XSync(dpy, 0)
        XCloseDisplay(dpy)
        display = nil
    }
}

/// Counts X protocol errors instead of letting Xlib exit the process. Process
/// global (Xlib's handler is); atomics make it safe from any thread.
enum XErrorCounter {
    static let errors = Atomic<Int>(0)
    static let lastCode = Atomic<Int>(0)
    static let installed = Mutex(false)
    /// Connections whose errors are theirs alone, not the injector's (the focus watcher's: a
    /// window that closes while it reads it is a BadWindow it expects), as addresses.
    static let ownErrors = Mutex<Set<Int>>([])

    static var count: Int { errors.load(ordering: .acquiring) }
    static var lastErrorCode: Int { lastCode.load(ordering: .relaxed) }

    static func install() {
        installed.withLock { done in
            guard !done else { return }
            done = true
            _ = XSetErrorHandler { dpy, event in
                if XErrorCounter.ownErrors.withLock({ $0.contains(Int(bitPattern: dpy)) }) { return 0 }
                XErrorCounter.lastCode.store(Int(event?.pointee.error_code ?? 0), ordering: .relaxed)
                XErrorCounter.errors.add(1, ordering: .releasing)
                return 0
            }
        }
    }
}
#endif
