#if os(Linux)
import CLibEI
import Glibc
import RemotionHostLogic
import RemotionProtocol

/// Where the EIS socket comes from: one the launcher opened and handed down (the
/// RemoteDesktop portal's or mutter's ConnectToEIS, a descriptor this process inherited), or
/// a socket path (libei's LIBEI_SOCKET).
package enum LibeiSource: Sendable, Hashable {
    case descriptor(Int32)
    case socket(String)
}

/// Injects through the compositor's EIS with libei (GNOME's mutter, KDE's KWin): an absolute
/// pointer over the compositor's monitors (the regions it gives; a point between them goes to
/// the nearest), buttons, the wheel, and keys through the keymap the compositor chose
/// (libei cannot upload one: a keysym that keymap lacks at level 1 or 2 is not typed).
/// docs/INJECTION.md, "libei".
///
/// When the compositor ends the connection the next flush throws once (one line in the
/// host's log) and events are dropped after it; a socket path is tried again every second,
/// a handed-down descriptor cannot be (it is spent).
package final class LibeiBackend: InjectorBackend, TextTypingBackend {
    package let name = "libei"
    private let source: LibeiSource
    private var connection: OpaquePointer?
    private var regions: [LibeiRegion] = []
    private var position = (x: 0, y: 0)
    private var closed = false
    private var retryAt: Int64 = 0
    static let keyLeftShift: UInt32 = 42
    static let openMilliseconds: Int32 = 5000

    /// The RemoteDesktop portal whose session handed the socket: kept while the host injects
    /// (the session ends with its connection), closed with the injector.
    private let portal: RemoteDesktopPortal?

    /// `portal`: the portal whose session handed `source` (kept open until `close()`).
    package init(source: LibeiSource, portal: RemoteDesktopPortal? = nil) throws(InjectionError) {
        self.source = source
        self.portal = portal
        switch Self.open(source) {
        case .failure(let f):
            portal?.close()
            throw InjectionError(.unavailable, backend: name, f.why)
        case .success(let c): connection = c; regions = Self.regions(c)
        }
    }

    deinit { close() }

    /// Whether libei.so.1 (and libxkbcommon) can be loaded here: nil when it can, else why
    /// not, in one clause (`--inject auto`, `remotion doctor`). Loads them once per process.
    package static func libraryProblem() -> String? {
        var why = [CChar](repeating: 0, count: 200)
        return re_available(&why, why.count) == 1 ? nil : cText(why)
    }

    /// Why libei could not connect: one line for the person.
    struct OpenFailure: Error { var why: String }

    private static func open(_ source: LibeiSource) -> Result<OpaquePointer, OpenFailure> {
        var why = [CChar](repeating: 0, count: 200)
        let c: OpaquePointer?
        switch source {
        case .descriptor(let fd): c = re_open_fd(fd, openMilliseconds, &why, why.count)
        case .socket(let path): c = re_open_socket(path, openMilliseconds, &why, why.count)
        }
        guard let c else { return .failure(OpenFailure(why: cText(why))) }
        return .success(c)
    }

    private static func regions(_ c: OpaquePointer) -> [LibeiRegion] {
        (0..<re_region_count(c)).compactMap { i in
            var x: UInt32 = 0, y: UInt32 = 0, w: UInt32 = 0, h: UInt32 = 0
            guard re_region(c, i, &x, &y, &w, &h) == 0 else { return nil }
            return LibeiRegion(x: Int(x), y: Int(y), width: Int(w), height: Int(h))
        }
    }

    /// The layout's bounding box (the regions' union), or 1x1 before the compositor gave any.
    package func screenGeometry() -> ScreenGeometry { LibeiRegion.bounds(regions) }

    package func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {
        guard !closed else { throw InjectionError(.closed, backend: name, "posted after close()") }
        guard let c = live() else { return }
        let ok: Bool
        switch event {
        case .moveTo(let x, let y):
            position = (x, y)
            let p = LibeiRegion.place(x: x, y: y, in: regions)
            ok = re_pointer_absolute(c, p.x, p.y) == 0
        case .moveBy(let dx, let dy):
            let g = screenGeometry()
            position = (min(max(position.x &+ max(min(dx, 100_000), -100_000), 0), g.width - 1),
                        min(max(position.y &+ max(min(dy, 100_000), -100_000), 0), g.height - 1))
            let p = LibeiRegion.place(x: position.x, y: position.y, in: regions)
            ok = re_pointer_absolute(c, p.x, p.y) == 0
        case .button(let b, let down):
            ok = re_button(c, WaylandBackend.linuxButton(b), down ? 1 : 0) == 0
        case .wheel(let dx, let dy):
            // EIS's vertical axis grows downwards; ours counts steps up. 120 is one detent.
            let up = Int32(clamping: min(max(dy, -100), 100)), right = Int32(clamping: min(max(dx, -100), 100))
            ok = re_scroll_discrete(c, right * 120, -up * 120) == 0
        case .key(let k, let down):
            var code: UInt32 = 0, shifted: Int32 = 0
            guard re_keycode(c, k.keysym, &code, &shifted) == 0 else {
                throw InjectionError(.unsupported, backend: name, "the compositor's keymap has no key for keysym 0x\(String(k.keysym, radix: 16))")
            }
            if down && shifted != 0 {
                ok = re_key(c, Self.keyLeftShift, 1) == 0 && re_key(c, code, 1) == 0 && re_key(c, Self.keyLeftShift, 0) == 0
            } else {
                ok = re_key(c, code, down ? 1 : 0) == 0
            }
        }
        if !ok { try connectionLost("the compositor ended the EIS connection") }
    }

    package func flush() throws(InjectionError) {
        guard !closed else { throw InjectionError(.closed, backend: name, "flushed after close()") }
        guard let c = live() else { return }
        var why = [CChar](repeating: 0, count: 200)
        guard re_dispatch(c, &why, why.count) == 0, re_frame(c) == 0 else { try connectionLost(cText(why)); return }
        regions = Self.regions(c)
    }

    /// Types `text` through the compositor's keymap: each character whose keysym has a key
    /// there (Shift added for level 2) is pressed and released; the rest come back.
    package func type(_ text: String) throws(InjectionError) -> String {
        guard !closed else { throw InjectionError(.closed, backend: name, "typed after close()") }
        guard let c = live() else { return text }
        var missing = ""
        for scalar in text.unicodeScalars {
            var code: UInt32 = 0, shifted: Int32 = 0
            guard let sym = UnicodeKeysym.keysym(for: scalar), re_keycode(c, sym, &code, &shifted) == 0 else {
                missing.unicodeScalars.append(scalar)
                continue
            }
            let ok = (shifted == 0 || re_key(c, Self.keyLeftShift, 1) == 0) && re_key(c, code, 1) == 0
                && re_key(c, code, 0) == 0 && (shifted == 0 || re_key(c, Self.keyLeftShift, 0) == 0) && re_frame(c) == 0
            if !ok { try connectionLost("the compositor ended the EIS connection") }
        }
        try flush()
        return missing
    }

    /// Nothing to give back: libei types through the compositor's keymap as it is.
    package func restoreBorrowedKeycodes() {}

    /// The connection, or nil while it is gone (a socket path: one attempt a second).
    private func live() -> OpaquePointer? {
        if let connection { return connection }
        guard case .socket = source else { return nil }
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let now = Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
        guard now >= retryAt else { return nil }
        retryAt = now + 1000
        guard case .success(let c) = Self.open(source) else { return nil }
        connection = c
        regions = Self.regions(c)
        return c
    }

    private func connectionLost(_ why: String) throws(InjectionError) {
        re_close(connection)
        connection = nil
        let after: String
        switch source {
        case .descriptor: after = "events are dropped from now on (the handed-down EIS socket is spent: start the host again)"
        case .socket(let path): after = "events are dropped until \(path) answers again, tried every second"
        }
        throw InjectionError(.failed, backend: name, "\(why.isEmpty ? "the EIS connection was lost" : why); \(after)")
    }

    package func close() {
        guard !closed else { return }
        closed = true
        re_close(connection)
        connection = nil
        portal?.close()
    }
}
#endif
