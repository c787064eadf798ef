#if os(Linux)
import CWayland
import RemotionHostLogic

/// One output of a Wayland layout, in logical pixels.
package struct WaylandOutput: Sendable, Hashable, CustomStringConvertible {
    package var name: String
    package var x: Int, y: Int, width: Int, height: Int, scale: Int

    package var description: String {
        "\(name.isEmpty ? "(unnamed)" : name) \(width)x\(height) at \(x),\(y) scale \(scale)"
    }
}

/// What a Wayland compositor offers, read by connecting once (for `--inject auto` and
/// `remotion doctor`): its globals and outputs. Nothing is created on it.
package struct WaylandProbe: Sendable, Hashable {
    package var globals: [String]
    package var outputs: [WaylandOutput]

    package static let virtualPointer = "zwlr_virtual_pointer_manager_v1"
    package static let virtualKeyboard = "zwp_virtual_keyboard_manager_v1"

    /// Both protocols the wlroots injector needs.
    package var hasVirtualInput: Bool { globals.contains(Self.virtualPointer) && globals.contains(Self.virtualKeyboard) }

    /// The protocols Remotion uses or would use, those offered: the virtual devices, and the
    /// layer shell (an overlay above every window).
    package var inputProtocols: [String] {
        [Self.virtualPointer, Self.virtualKeyboard, "zwlr_layer_shell_v1"].filter(globals.contains)
    }

    /// Connects to `display` (nil: $WAYLAND_DISPLAY) and reads what it offers; the error
    /// says in one line why not (no socket, not a compositor, no libwayland-client).
    package static func read(display: String?, timeoutMilliseconds: Int32 = 2000) -> Result<WaylandProbe, WaylandError> {
        switch WaylandConnection.open(display: display, timeoutMilliseconds: timeoutMilliseconds) {
        case .failure(let e): return .failure(e)
        case .success(let c):
            defer { c.close() }
            return .success(WaylandProbe(globals: c.globals(), outputs: c.outputs()))
        }
    }
}

/// A C string the shim wrote into `buffer` (NUL-terminated within it).
func cText(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

package struct WaylandError: Error, Sendable, Hashable, CustomStringConvertible {
    package var message: String
    package var description: String { message }
}

/// The C connection (remotion_wayland.h) with one owner: the backend or a probe.
final class WaylandConnection {
    private(set) var handle: OpaquePointer?

    private init(_ handle: OpaquePointer) { self.handle = handle }
    deinit { close() }

    static func open(display: String?, timeoutMilliseconds: Int32) -> Result<WaylandConnection, WaylandError> {
        var why = [CChar](repeating: 0, count: 200)
        let which = display.map { "WAYLAND_DISPLAY=\($0)" } ?? "$WAYLAND_DISPLAY"
        guard let h = rw_connect(display, timeoutMilliseconds, &why, why.count) else {
            return .failure(WaylandError(message: "\(which): \(cText(why))"))
        }
        return .success(WaylandConnection(h))
    }

    func close() {
        guard let h = handle else { return }
        rw_disconnect(h)
        handle = nil
    }

    func globals() -> [String] {
        guard let h = handle else { return [] }
        var names: [String] = []
        var i = 0
        while let name = rw_global_name(h, i, nil) {
            names.append(String(cString: name))
            i += 1
        }
        return names
    }

    func outputs() -> [WaylandOutput] { outputSlots().map(\.output) }

    /// The outputs there are now, each with the index the C side knows it by (gone ones skipped).
    func outputSlots() -> [(index: Int32, output: WaylandOutput)] {
        guard let h = handle else { return [] }
        var list: [(index: Int32, output: WaylandOutput)] = []
        for i in 0..<rw_output_count(h) {
            var o = rw_output()
            guard rw_output_get(h, i, &o) == 0 else { continue }
            let name = withUnsafeBytes(of: o.name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            list.append((Int32(i), WaylandOutput(name: name, x: Int(o.x), y: Int(o.y), width: Int(o.width),
                                                 height: Int(o.height), scale: Int(o.scale))))
        }
        return list
    }

    /// The outputs that are described (a size known), for `PointerArea`.
    func areaOutputs() -> [PointerArea.Output] {
        outputs().filter { $0.width > 0 && $0.height > 0 }.map {
            PointerArea.Output(name: $0.name, x: $0.x, y: $0.y, width: $0.width, height: $0.height, scale: $0.scale)
        }
    }

    /// The index `rw_create_devices` takes for `name` (the C side's order, gone ones counted).
    func outputIndex(named name: String) -> Int32? {
        guard let h = handle else { return nil }
        for i in 0..<rw_output_count(h) {
            var o = rw_output()
            guard rw_output_get(h, i, &o) == 0 else { continue }
            let n = withUnsafeBytes(of: o.name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if n == name { return Int32(i) }
        }
        return nil
    }
}
#endif
