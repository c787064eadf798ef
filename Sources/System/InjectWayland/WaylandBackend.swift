#if os(Linux)
import CWayland
import Glibc
import RemotionHostLogic
import RemotionProtocol

/// Injects through a wlroots compositor's virtual pointer (zwlr_virtual_pointer_v1) and
/// virtual keyboard (zwp_virtual_keyboard_v1): sway, Hyprland, labwc, river, Wayfire; no
/// root, no udev rule (docs/INJECTION.md). Absolute motion covers the output named by
/// `output` (the compositor maps the pointer's extent onto it), else the whole layout.
/// Keys and typed text go through a keymap of this keyboard's own (`VirtualKeymap`).
///
/// When the compositor's outputs change (one added, disabled, resized) the next flush makes a
/// new pointer over what `PointerArea` says it covers now — the chosen output, else the whole
/// layout while that output is gone — and throws once a `.layoutChanged` error, the one line
/// the host says about it.
///
/// When the compositor goes away the next flush throws once (one line in the host's log);
/// after that events are dropped and the connection is tried again every second, with new
/// devices (nothing held on them).
package final class WaylandBackend: InjectorBackend, TextTypingBackend, OutputChoosingBackend {
    package let name = "wlroots"
    private let display: String?
    /// The output asked for (`--output`, `[inject] output`, the dashboard: `choose(output:)`).
    private var outputName: String?
    private var connection: WaylandConnection?
    private var geometry: ScreenGeometry
    /// What absolute motion covers now, and the outputs' generation it was chosen for.
    private var area = PointerArea.layout(width: 1, height: 1)
    /// The described outputs as of the last connect or change (for the status and a choice).
    package private(set) var outputs: [PointerArea.Output] = []
    private var generation: UInt32 = 0
    private var keymap = VirtualKeymap()
    private var pointerFramePending = false
    private var closed = false
    /// When to try connecting again while the compositor is gone (CLOCK_MONOTONIC ms).
    private var retryAt: Int64 = 0
    static let retryMilliseconds: Int64 = 1000
    /// Connections made again after the compositor went away.
    package private(set) var reconnections = 0

    /// Connects to `display` (nil: $WAYLAND_DISPLAY) and creates the devices, the pointer
    /// on the output named `output` (nil: the whole layout).
    package init(display: String?, output: String?) throws(InjectionError) {
        self.display = display
        self.outputName = output
        geometry = ScreenGeometry(width: 1, height: 1)
        switch Self.connect(display: display, output: output) {
        case .failure(let e): throw InjectionError(.unavailable, backend: name, e.message)
        case .success(let (c, a)): adopt(c, area: a)
        }
    }

    deinit { close() }

    private func adopt(_ c: WaylandConnection, area a: PointerArea) {
        connection = c
        area = a
        outputs = c.areaOutputs()
        geometry = ScreenGeometry(width: a.size.width, height: a.size.height)
        generation = c.handle.map { rw_outputs_generation($0) } ?? 0
    }

    private static func connect(display: String?, output: String?)
        -> Result<(WaylandConnection, PointerArea), WaylandError> {
        let c: WaylandConnection
        switch WaylandConnection.open(display: display, timeoutMilliseconds: 2000) {
        case .failure(let e): return .failure(e)
        case .success(let opened): c = opened
        }
        let outputs = c.outputs()
        if let output, !outputs.contains(where: { $0.name == output }) {
            let known = outputs.map(\.description).joined(separator: "; ")
            return .failure(WaylandError(message: "the compositor has no output named \"\(output)\" (it has: \(known.isEmpty ? "none" : known))"))
        }
        let area = PointerArea.choose(output, among: c.areaOutputs())
        let index = area.outputName.flatMap { c.outputIndex(named: $0) } ?? -1
        var why = [CChar](repeating: 0, count: 200)
        guard let h = c.handle, rw_create_devices(h, index, &why, why.count) == 0 else {
            return .failure(WaylandError(message: cText(why)))
        }
        return .success((c, area))
    }

    /// The outputs changed: a new pointer over what it covers now, and the one line saying so.
    private func follow(_ c: WaylandConnection, _ h: OpaquePointer) throws(InjectionError) {
        generation = rw_outputs_generation(h)
        outputs = c.areaOutputs()
        let next = PointerArea.choose(outputName, among: outputs)
        guard let line = next.change(from: area, outputs: outputs) else { return }
        let index = next.outputName.flatMap { c.outputIndex(named: $0) } ?? -1
        var why = [CChar](repeating: 0, count: 200)
        guard rw_pointer_rebind(h, index, &why, why.count) == 0 else { try connectionLost(cText(why)); return }
        area = next
        geometry = ScreenGeometry(width: next.size.width, height: next.size.height)
        pointerFramePending = false
        throw InjectionError(.layoutChanged, backend: name, line)
    }

    package func screenGeometry() -> ScreenGeometry { geometry }

    package var chosenOutput: String? { outputName }
    package var pointerArea: PointerArea { area }

    /// The person chose `name` (the dashboard): the outputs read anew, then a new pointer over
    /// it. While the compositor is gone the choice is checked against the outputs it had, and
    /// the next connection makes the pointer over it.
    package func choose(output name: String) throws(InjectionError) -> String? {
        guard !closed else { throw InjectionError(.closed, backend: self.name, "chose an output after close()") }
        if let c = connection, let h = c.handle {
            var why = [CChar](repeating: 0, count: 200)
            if rw_flush(h, &why, why.count) != 0 { try connectionLost(cText(why)) }
            if rw_outputs_generation(h) != generation {
                generation = rw_outputs_generation(h)
                outputs = c.areaOutputs()
            }
        }
        guard let chosen = outputs.first(where: { $0.name == name }) else {
            let known = outputs.map(\.description).joined(separator: "; ")
            throw InjectionError(.unsupported, backend: self.name,
                                 "the compositor has no output named \"\(name)\" (it has: \(known.isEmpty ? "none" : known))")
        }
        outputName = name
        let next = PointerArea.output(chosen)
        guard next != area else { return nil }
        guard let c = connection, let h = c.handle else { return nil }   // the next connection covers it
        let index = c.outputIndex(named: name) ?? -1
        var why = [CChar](repeating: 0, count: 200)
        guard rw_pointer_rebind(h, index, &why, why.count) == 0 else { try connectionLost(cText(why)); return nil }
        area = next
        geometry = ScreenGeometry(width: next.size.width, height: next.size.height)
        pointerFramePending = false
        return next.chosenLine
    }

    package func post(_ event: InputEvent, session: SessionID) throws(InjectionError) {
        guard !closed else { throw InjectionError(.closed, backend: name, "posted after close()") }
        guard let h = live() else { return }   // the compositor is gone: dropped until it is back
        let t = Self.milliseconds()
        let ok: Bool
        switch event {
        case .moveTo(let x, let y):
            let w = UInt32(geometry.width), hgt = UInt32(geometry.height)
            let cx = UInt32(clamping: min(max(x, 0), geometry.width - 1)), cy = UInt32(clamping: min(max(y, 0), geometry.height - 1))
            ok = rw_pointer_motion_absolute(h, t, cx, cy, w, hgt) == 0
            pointerFramePending = true
        case .moveBy(let dx, let dy):
            ok = rw_pointer_motion(h, t, Int32(clamping: min(max(dx, -100_000), 100_000)),
                                   Int32(clamping: min(max(dy, -100_000), 100_000))) == 0
            pointerFramePending = true
        case .button(let b, let down):
            ok = rw_pointer_button(h, t, Self.linuxButton(b), down ? 1 : 0) == 0
            pointerFramePending = true
        case .wheel(let dx, let dy):
            // Wayland's vertical axis grows downwards; ours counts steps up.
            let up = Int32(clamping: min(max(dy, -100), 100)), right = Int32(clamping: min(max(dx, -100), 100))
            ok = (up == 0 || rw_pointer_wheel(h, t, 0, -up) == 0) && (right == 0 || rw_pointer_wheel(h, t, 1, right) == 0)
            pointerFramePending = true
        case .key(let k, let down):
            guard let code = keymap.code(for: k.keysym) else {
                throw InjectionError(.unsupported, backend: name, "every key of the virtual keyboard is held")
            }
            try uploadKeymapIfChanged(h)
            ok = rw_keyboard_key(h, t, code, down ? 1 : 0) == 0
            keymap.pressed(code, down: down)
        }
        if !ok { try connectionLost("") }
    }

    package func flush() throws(InjectionError) {
        guard !closed else { throw InjectionError(.closed, backend: name, "flushed after close()") }
        guard let h = live() else { return }
        if pointerFramePending {
            pointerFramePending = false
            if rw_pointer_frame(h) != 0 { try connectionLost("") }
        }
        var why = [CChar](repeating: 0, count: 200)
        if rw_flush(h, &why, why.count) != 0 { try connectionLost(cText(why)) }
        if let c = connection, rw_outputs_generation(h) != generation { try follow(c, h) }
    }

    /// Types `text` on the virtual keyboard: each character's keysym gets a key of this
    /// keyboard's own keymap (uploaded first), pressed and released.
    package func type(_ text: String) throws(InjectionError) -> String {
        guard !closed else { throw InjectionError(.closed, backend: name, "typed after close()") }
        guard let h = live() else { return text }
        var missing = "", chunk: [UInt32] = [], distinct = Set<UInt32>()
        for scalar in text.unicodeScalars {
            guard let sym = UnicodeKeysym.keysym(for: scalar) else {
                missing.unicodeScalars.append(scalar)
                continue
            }
            // Keys given out within one upload are never reassigned before they are sent.
            if !distinct.contains(sym), distinct.count == VirtualKeymap.capacity - 8 {
                try tap(h, chunk)
                chunk.removeAll(); distinct.removeAll()
            }
            guard let code = keymap.code(for: sym) else {
                missing.unicodeScalars.append(scalar)
                continue
            }
            distinct.insert(sym)
            chunk.append(code)
        }
        try tap(h, chunk)
        try flush()
        return missing
    }

    private func tap(_ h: OpaquePointer, _ codes: [UInt32]) throws(InjectionError) {
        try uploadKeymapIfChanged(h)
        for code in codes {
            let t = Self.milliseconds()
            guard rw_keyboard_key(h, t, code, 1) == 0, rw_keyboard_key(h, t, code, 0) == 0 else {
                try connectionLost("")
                return
            }
        }
    }

    /// Nothing to give back: typing used this keyboard's own keymap, never the session's.
    package func restoreBorrowedKeycodes() {}

    private func uploadKeymapIfChanged(_ h: OpaquePointer) throws(InjectionError) {
        guard keymap.needsUpload else { return }
        let text = keymap.text()
        var why = [CChar](repeating: 0, count: 200)
        let rc = text.withCString { rw_keyboard_keymap(h, $0, strlen($0), &why, why.count) }
        guard rc == 0 else { try connectionLost(cText(why)); return }
        keymap.markUploaded()
    }

    /// The connection, or nil while the compositor is gone (then one attempt a second).
    private func live() -> OpaquePointer? {
        if let h = connection?.handle { return h }
        let now = Self.monotonicMilliseconds()
        guard now >= retryAt else { return nil }
        retryAt = now + Self.retryMilliseconds
        guard case .success(let (c, a)) = Self.connect(display: display, output: outputName) else { return nil }
        adopt(c, area: a)
        keymap = VirtualKeymap()
        pointerFramePending = false
        reconnections += 1
        return c.handle
    }

    private func connectionLost(_ why: String) throws(InjectionError) {
        connection?.close()
        connection = nil
        retryAt = Self.monotonicMilliseconds() + Self.retryMilliseconds
        let which = display.map { "WAYLAND_DISPLAY=\($0)" } ?? "the compositor"
        throw InjectionError(.failed, backend: name, "\(which) went away (\(why.isEmpty ? "connection lost" : why)); "
                             + "events are dropped until it is back, tried every second")
    }

    package func close() {
        guard !closed else { return }
        closed = true
        if let h = connection?.handle { var why = [CChar](repeating: 0, count: 8); _ = rw_roundtrip(h, 500, &why, why.count) }
        connection?.close()
        connection = nil
    }

    static func linuxButton(_ b: MouseButton) -> UInt32 {
        switch b {
        case .left: 0x110
        case .right: 0x111
        case .middle: 0x112
        case .back: 0x113
        case .forward: 0x114
        }
    }

    private static func monotonicMilliseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// The events' timestamps: milliseconds, wrapping like the protocol's.
    private static func milliseconds() -> UInt32 { UInt32(truncatingIfNeeded: monotonicMilliseconds()) }
}
#endif
