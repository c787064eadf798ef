#if os(Linux)
import CX11
import Glibc
import RemotionHostLogic
import RemotionProtocol

/// Typing text through XTest whatever the keyboard layout (docs/WEB-CONTROLLER.md,
/// "Typing"): each character becomes its keysym (`UnicodeKeysym`), a spare keycode (one
/// the X keyboard map leaves empty) is remapped to it, pressed and released. A character
/// typed again reuses its keycode; new ones take the keycode used longest ago
/// (`SpareKeycodes`), so an application that reads the map a little late still sees the
/// right one. Return, Tab and BackSpace press their own keys.
///
/// The borrowed keycodes are given back a moment after each text (`restoreBorrowedKeycodes`,
/// called by the pipeline) and on close; while borrowed they are recorded in
/// `keymapRecord` (0600, written before the map changes), which the next start reads to
/// give back what a host killed without a clean stop left behind (docs/SECURITY.md §11.3).
extension XTestBackend: TextTypingBackend {
    /// At most this many keycodes are borrowed.
    static let spareCount = 16

    package func type(_ text: String) throws(InjectionError) -> String {
        guard let dpy = display else { throw InjectionError(.closed, backend: name, "typed after close()") }
        drainEvents(dpy)   // a MappingNotify since the last text re-reads the spare keycodes
        if typing == nil { typing = SpareKeycodes(codes: Self.spareKeycodes(dpy, keeping: [:])) }
        var missing = ""
        var steps: [(code: UInt8, remapTo: UInt32?)] = []
        for scalar in text.unicodeScalars {
            guard let sym = UnicodeKeysym.keysym(for: scalar) else {
                missing.unicodeScalars.append(scalar)
                continue
            }
            if sym >= 0xff00, case let code = XKeysymToKeycode(dpy, KeySym(sym)), code != 0 {
                steps.append((UInt8(code), nil))
                continue
            }
            guard let slot = typing?.assign(sym) else {
                missing.unicodeScalars.append(scalar)
                continue
            }
            steps.append((slot.code, slot.remap ? sym : nil))
        }
        // Write-ahead: the record names every borrowed keycode before the map changes.
        if steps.contains(where: { $0.remapTo != nil }) { writeRecord() }
        for step in steps {
            if let sym = step.remapTo {
                var pair: [KeySym] = [KeySym(sym), KeySym(sym)]
                XChangeKeyboardMapping(dpy, Int32(step.code), 2, &pair, 1)
            }
            tap(dpy, UInt32(step.code))
        }
        try flush()
        return missing
    }

    private func tap(_ dpy: OpaquePointer, _ code: UInt32) {
        XTestFakeKeyEvent(dpy, code, 1, 0)
        XTestFakeKeyEvent(dpy, code, 0, 0)
    }

    /// Empties every keycode typing remapped and removes the record.
    package func restoreBorrowedKeycodes() {
        guard let dpy = display, let codes = typing?.remapped, !codes.isEmpty else { return }
        for code in codes {
            var none: [KeySym] = [KeySym(0)]
            XChangeKeyboardMapping(dpy, Int32(code), 1, &none, 1)
        }
        typing = typing.map { SpareKeycodes(codes: $0.codes).inOrder(of: $0) }
        XSync(dpy, 0)
        removeRecord()
    }

    /// At open: gives back the keycodes a previous host recorded and did not restore (it
    /// died without a clean stop), where they still carry what it put there. Returns them.
    func restoreRecordedKeycodes(_ dpy: OpaquePointer) -> [UInt8] {
        guard let path = keymapRecord, let text = Self.readSmallFile(path) else { return [] }
        let record = BorrowedKeycodes(text: text)
        let codes = record.toRestore { Self.firstKeysym(dpy, $0) }
        for code in codes {
            var none: [KeySym] = [KeySym(0)]
            XChangeKeyboardMapping(dpy, Int32(code), 1, &none, 1)
        }
        XSync(dpy, 0)
        unlink(path)
        return codes
    }

    /// The keyboard map changed (MappingNotify, from us or anyone): Xlib's keysym cache is
    /// refreshed, and the spare keycodes are found again, keeping what typing still holds;
    /// a borrowed keycode someone else remapped is no longer ours to restore.
    func keyboardMappingChanged(_ event: inout XEvent) {
        XRefreshKeyboardMapping(&event.xmapping)
        guard event.xmapping.request == MappingKeyboard, let dpy = display, let old = typing else { return }
        var still: [UInt8: UInt32] = [:]
        for code in old.remapped {
            if let sym = old.carrying[code], Self.firstKeysym(dpy, code) == sym { still[code] = sym }
        }
        typing = old.rebased(on: Self.spareKeycodes(dpy, keeping: still))
        if still.count != old.remapped.count { still.isEmpty ? removeRecord() : writeRecord() }
    }

    /// The first keysym `code` carries now (0 when none; nil when it cannot be read).
    static func firstKeysym(_ dpy: OpaquePointer, _ code: UInt8) -> UInt32? {
        var perCode: Int32 = 0
        guard let map = XGetKeyboardMapping(dpy, KeyCode(code), 1, &perCode) else { return nil }
        defer { XFree(map) }
        return perCode > 0 ? UInt32(truncatingIfNeeded: map[0]) : 0
    }

    /// Keycodes with no keysym at all in the current map, or carrying what `keeping` says
    /// typing put there, highest first, at most `spareCount`.
    static func spareKeycodes(_ dpy: OpaquePointer, keeping: [UInt8: UInt32]) -> [UInt8] {
        var low: Int32 = 0, high: Int32 = 0
        XDisplayKeycodes(dpy, &low, &high)
        guard high >= low, low >= 8 else { return [] }
        var perCode: Int32 = 0
        guard let map = XGetKeyboardMapping(dpy, KeyCode(low), high - low + 1, &perCode) else { return [] }
        defer { XFree(map) }
        var spares: [UInt8] = []
        for code in stride(from: high, through: low, by: -1) where spares.count < spareCount {
            let base = Int(code - low) * Int(perCode)
            let empty = (0..<Int(perCode)).allSatisfy { map[base + $0] == 0 }
            let ours = keeping[UInt8(code)].map { perCode > 0 && UInt32(truncatingIfNeeded: map[base]) == $0 } ?? false
            if empty || ours { spares.append(UInt8(code)) }
        }
        return spares
    }

    // MARK: the record file

    private func writeRecord() {
        guard let path = keymapRecord, let carrying = typing?.carrying else { return }
        Self.writePrivateFile(path, BorrowedKeycodes(carrying).text)
    }

    private func removeRecord() {
        guard let path = keymapRecord else { return }
        unlink(path)
    }

    /// Writes `text` to `path` atomically (a 0600 temporary file, fsync, rename), making the
    /// parent directory (0700) if needed. Best effort: typing works without the record.
    static func writePrivateFile(_ path: String, _ text: String) {
        let dir = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !dir.isEmpty { makeDirectories(dir) }
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        fsync(fd)
        Glibc.close(fd)
        if written == bytes.count { rename(temporary, path) } else { unlink(temporary) }
    }

    static func makeDirectories(_ dir: String) {
        var partial = dir.hasPrefix("/") ? "" : "."
        for part in dir.split(separator: "/") {
            partial += "/" + part
            mkdir(partial, 0o700)
        }
    }

    /// At most 16 KiB of a regular file; nil when missing or unreadable.
    static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { Glibc.close(fd) }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n >= 0 else { return nil }
        return String(decoding: buffer.prefix(n), as: UTF8.self)
    }
}
#endif
