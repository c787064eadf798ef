#if os(Linux)
import CX11
import Foundation
import Glibc
import RemotionHostLogic
import Synchronization

/// The focused application on an X11 desktop (docs/MOTION.md, "Profiles"): the root window's
/// `_NET_ACTIVE_WINDOW`, which the window manager sets (EWMH), and that window's `WM_CLASS`.
/// No polling: it listens for PropertyNotify on the root window (the active window changed)
/// and for DestroyNotify and PropertyNotify on the active window (it closed, it renamed its
/// class), on its own X connection and thread, and tells `onFocus` each change once (nil:
/// no application has the focus, or its window closed).
package final class X11FocusWatcher: Sendable {
    private let stopPipe: (read: Int32, write: Int32)
    private let finished: FinishedSignal

    /// Set once by the thread as it ends; `stop` waits for it.
    private final class FinishedSignal: Sendable {
        private let done = Mutex(false)
        private let semaphore = DispatchSemaphore(value: 0)
        func finish() { done.withLock { $0 = true }; semaphore.signal() }
        func wait(timeout: TimeInterval) -> Bool {
            if done.withLock({ $0 }) { return true }
            return semaphore.wait(timeout: .now() + timeout) == .success
        }
    }

    /// Opens `displayName` (nil: $DISPLAY) and starts watching; nil and why when the display
    /// cannot be opened. The first call of `onFocus` says what has the focus now.
    package static func start(displayName: String?, onFocus: @escaping @Sendable (FocusedApp?) -> Void)
        -> Result<X11FocusWatcher, X11FocusError> {
        XErrorCounter.install()   // a window that closes under us is a BadWindow, not an exit
        let opened: OpaquePointer? = if let displayName { XOpenDisplay(displayName) } else { XOpenDisplay(nil) }
        guard let dpy = opened else { return .failure(X11FocusError("cannot open the X display to follow the focused window")) }
        XErrorCounter.ownErrors.withLock { _ = $0.insert(Int(bitPattern: dpy)) }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            XCloseDisplay(dpy)
            return .failure(X11FocusError("cannot make the focus watcher's wake-up pipe"))
        }
        // Close-on-exec: a child the host spawns never holds the watcher's wake-up.
        for end in fds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let watcher = X11FocusWatcher(stopPipe: (fds[0], fds[1]))
        let display = Handle(dpy), finished = watcher.finished, stopRead = fds[0]
        let thread = Thread {
            var connection = FocusConnection(display.pointer)
            connection.run(stopFD: stopRead, onFocus: onFocus)
            XCloseDisplay(display.pointer)
            XErrorCounter.ownErrors.withLock { _ = $0.remove(Int(bitPattern: display.pointer)) }
            close(stopRead)
            finished.finish()
        }
        thread.name = "remotion-focus"
        thread.start()
        return .success(watcher)
    }

    private init(stopPipe: (read: Int32, write: Int32)) {
        self.stopPipe = stopPipe
        finished = FinishedSignal()
    }

    /// Stops the thread and waits (at most `timeout`) until it has closed its X connection
    /// (an X server stopped under an open connection makes Xlib exit the process).
    @discardableResult
    package func stop(timeout: TimeInterval = 2) -> Bool {
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        let done = finished.wait(timeout: timeout)
        close(stopPipe.write)
        return done
    }

    /// The display pointer, handed once to the watcher's thread that alone uses it.
    /// @unchecked Sendable: `start` opens the connection and gives it to the new thread's
    /// closure, keeping no copy; only that thread calls Xlib with it, so it is never used
    /// by two threads.
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
        init(_ p: OpaquePointer) { pointer = p }
    }
}

/// The watcher's X conversation, on its thread only.
private struct FocusConnection {
    let dpy: OpaquePointer
    let root: Window
    let activeAtom: Atom
    /// `WM_CLASS` and `STRING` (predefined atoms; asked for by name, Xatom.h is not in CX11).
    let classAtom: Atom
    let stringAtom: Atom
    /// The window whose class is the focused app (0: none), watched for its end.
    var active: Window = 0
    var told: FocusedApp?? = .none

    init(_ dpy: OpaquePointer) {
        self.dpy = dpy
        root = XDefaultRootWindow(dpy)
        activeAtom = XInternAtom(dpy, "_NET_ACTIVE_WINDOW", 0)
        classAtom = XInternAtom(dpy, "WM_CLASS", 0)
        stringAtom = XInternAtom(dpy, "STRING", 0)
    }

    mutating func run(stopFD: Int32, onFocus: @Sendable (FocusedApp?) -> Void) {
        XSelectInput(dpy, root, PropertyChangeMask)
        refresh(onFocus)
        let xfd = XConnectionNumber(dpy)
        while true {
            XFlush(dpy)
            while XPending(dpy) > 0 {
                var event = XEvent()
                XNextEvent(dpy, &event)
                if handles(event) { refresh(onFocus) }
            }
            var fds = [pollfd(fd: xfd, events: Int16(POLLIN), revents: 0), pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 2, -1) >= 0 || errno == EINTR else { return }
            if fds[1].revents != 0 { return }
            if fds[0].revents & Int16(POLLERR | POLLHUP) != 0 { return }
        }
    }

    /// Does `event` change what has the focus?
    func handles(_ event: XEvent) -> Bool {
        switch event.type {
        case PropertyNotify:
            let e = event.xproperty
            return (e.window == root && e.atom == activeAtom) || (e.window == active && e.window != 0 && e.atom == classAtom)
        case DestroyNotify:
            return event.xdestroywindow.window == active && active != 0
        default:
            return false
        }
    }

    /// Reads the active window and its class; tells a change.
    mutating func refresh(_ onFocus: @Sendable (FocusedApp?) -> Void) {
        let window = activeWindow()
        if window != active {
            active = window
            // Its end and its class's changes; a window already gone is a BadWindow counted.
            if window != 0 { XSelectInput(dpy, window, StructureNotifyMask | PropertyChangeMask) }
        }
        let app = window == 0 ? nil : wmClass(of: window)
        if case .some(let last) = told, last == app { return }
        told = .some(app)
        onFocus(app)
    }

    /// The root window's `_NET_ACTIVE_WINDOW` (0: unset, none, or not a window id); of any
    /// 32-bit type (a window manager writes WINDOW, `xprop -set` CARDINAL).
    func activeWindow() -> Window {
        guard let (bytes, format) = property(root, activeAtom, type: Atom(AnyPropertyType), longs: 1),
              format == 32, bytes.count >= MemoryLayout<UInt>.size else { return 0 }
        // Format 32 comes as C longs.
        return bytes.withUnsafeBytes { Window($0.loadUnaligned(as: UInt.self)) }
    }

    /// `WM_CLASS` of `window`, nil when it has none or is gone.
    func wmClass(of window: Window) -> FocusedApp? {
        guard let (bytes, format) = property(window, classAtom, type: stringAtom, longs: 256), format == 8 else { return nil }
        return FocusedApp(wmClass: bytes)
    }

    /// One property's value (at most `longs` 32-bit units), and its format; nil when absent,
    /// of another type, or the window is gone.
    func property(_ window: Window, _ atom: Atom, type: Atom, longs: Int) -> ([UInt8], Int32)? {
        var actualType: Atom = 0, format: Int32 = 0
        var count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(dpy, window, atom, 0, longs, 0, type, &actualType, &format, &count, &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, actualType != 0, type == Atom(AnyPropertyType) || actualType == type, let data, count > 0 else { return nil }
        let unit = switch format { case 8: 1; case 16: MemoryLayout<CShort>.size; default: MemoryLayout<CLong>.size }
        return (Array(UnsafeBufferPointer(start: data, count: Int(count) * unit)), format)
    }
}

/// Why the focused window cannot be followed (one line for the host's log).
package struct X11FocusError: Error, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
#endif
