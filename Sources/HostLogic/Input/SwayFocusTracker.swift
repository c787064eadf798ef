import Foundation

/// The focused application on sway (docs/MOTION.md, "Profiles"), from its IPC, sans-IO: the
/// adapter sends `opening` once connected — SUBSCRIBE ["window"], then GET_TREE — and feeds
/// every byte it reads to `receive`, which returns each change of the focused application
/// (nil: none, e.g. its window closed and the workspace is empty). The tree's reply says what
/// has the focus at start (it is newer than any event before it); a `window` event's `focus`
/// moves it, a `close` of the focused window ends it. A view's app is its `app_id` (Wayland)
/// or its `window_properties` class and instance (Xwayland). A payload that is not what sway
/// sends is counted (`malformed`) and dropped; a stream that is not sway's ends (`broken`).
package struct SwayFocusTracker: Sendable {
    /// The two requests, in the order the answers are needed.
    package static let opening: [UInt8] =
        SwayIPC.message(SwayIPC.subscribe, Array(#"["window"]"#.utf8)) + SwayIPC.message(SwayIPC.getTree)

    /// Payloads that did not decode as sway's JSON, or a subscription sway refused.
    package private(set) var malformed = 0
    /// The application with the focus as last told (nil inside: none); nil until the tree came.
    package private(set) var told: FocusedApp??
    private var decoder: SwayIPCDecoder
    /// The focused view's container id (nil: none), to know whether a `close` is its.
    private var focusedID: Int64?

    package init(maxPayload: Int = SwayIPCDecoder.maxPayload) {
        decoder = SwayIPCDecoder(maxPayload: maxPayload)
    }

    /// The stream is not sway's, or lost its place: close the connection.
    package var broken: Bool { decoder.broken }
    /// Frames skipped for their size.
    package var oversized: Int { decoder.oversized }

    /// Each change of the focused application that `bytes` completes, in order.
    package mutating func receive(_ bytes: some Collection<UInt8>) -> [FocusedApp?] {
        var changes: [FocusedApp?] = []
        for frame in decoder.feed(bytes) {
            switch frame.type {
            case SwayIPC.subscribe:
                guard let reply = try? JSONDecoder().decode(Success.self, from: Data(frame.payload)), reply.success else {
                    malformed += 1
                    continue
                }
            case SwayIPC.getTree:
                guard let tree = try? JSONDecoder().decode(Node.self, from: Data(frame.payload)) else {
                    malformed += 1
                    continue
                }
                let view = tree.focusedNode(depthLeft: Self.maxDepth)
                focusedID = view?.id
                tell(view?.app, into: &changes)
            case SwayIPC.windowEvent:
                guard let event = try? JSONDecoder().decode(WindowEvent.self, from: Data(frame.payload)) else {
                    malformed += 1
                    continue
                }
                switch event.change {
                case "focus":
                    focusedID = event.container.id
                    tell(event.container.app, into: &changes)
                case "close" where event.container.id == focusedID && focusedID != nil:
                    focusedID = nil
                    tell(nil, into: &changes)
                default:
                    continue
                }
            default:
                continue   // another reply or event: not asked for, ignored
            }
        }
        return changes
    }

    private mutating func tell(_ app: FocusedApp?, into changes: inout [FocusedApp?]) {
        if case .some(let last) = told, last == app { return }
        told = .some(app)
        changes.append(app)
    }

    /// Deeper trees than this are not a desktop's (JSONDecoder stops far deeper, at 512).
    static let maxDepth = 64

    private struct Success: Decodable { var success: Bool }

    private struct WindowEvent: Decodable {
        var change: String
        var container: Node
    }

    /// A node of sway's tree: only what says which one has the focus and whose it is.
    private struct Node: Decodable {
        var id: Int64?
        var focused: Bool?
        var app_id: String?
        var window_properties: WindowProperties?
        var nodes: [Node]?
        var floating_nodes: [Node]?

        struct WindowProperties: Decodable {
            var `class`: String?
            var instance: String?
        }

        /// The one node sway marks focused (a view, or a workspace or output with none), if
        /// it lies within `depthLeft` levels.
        func focusedNode(depthLeft: Int) -> Node? {
            if focused == true { return self }
            guard depthLeft > 0 else { return nil }
            for child in (nodes ?? []) + (floating_nodes ?? []) {
                if let found = child.focusedNode(depthLeft: depthLeft - 1) { return found }
            }
            return nil
        }

        /// Its application: the app_id of a Wayland view, the class and instance of an
        /// Xwayland one; nil for a workspace or an output. Names longer than a profile's are cut
        /// (they match none anyway).
        var app: FocusedApp? {
            func cut(_ s: String?) -> String { String(decoding: (s ?? "").utf8.prefix(FocusProfile.maxAppLength + 1), as: UTF8.self) }
            if let appID = app_id, !appID.isEmpty { return FocusedApp(appID: cut(appID)) }
            let instance = cut(window_properties?.instance), className = cut(window_properties?.class)
            guard !instance.isEmpty || !className.isEmpty else { return nil }
            return FocusedApp(instance: instance.isEmpty ? className : instance, className: className.isEmpty ? instance : className)
        }
    }
}
