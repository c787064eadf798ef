import Testing
@testable import RemotionHostLogic

/// sway's IPC as the focus watcher reads it: frames cut from any split of the stream, bounded,
/// a stream that is not sway's ending; the focused application from GET_TREE and `window`
/// events (Wayland app_id, Xwayland class), a closed window back to none, bad JSON counted.
@Suite struct SwayFocusTrackerTests {
    static func frame(_ type: UInt32, _ json: String) -> [UInt8] { SwayIPC.message(type, Array(json.utf8)) }
    static let subscribed = frame(SwayIPC.subscribe, #"{"success": true}"#)
    static func view(_ id: Int, appID: String?, focused: Bool = false, xClass: String? = nil) -> String {
        let app = appID.map { #""\#($0)""# } ?? "null"
        let props = xClass.map { #", "window_properties": {"class": "\#($0)", "instance": "\#($0.lowercased())", "title": "t"}"# } ?? ""
        return #"{"id": \#(id), "type": "con", "focused": \#(focused), "app_id": \#(app), "nodes": [], "floating_nodes": []\#(props)}"#
    }
    static func tree(_ views: String...) -> [UInt8] {
        frame(SwayIPC.getTree, #"{"id": 1, "type": "root", "focused": false, "nodes": [{"id": 2, "type": "output", "nodes": [{"id": 3, "type": "workspace", "focused": false, "nodes": [\#(views.joined(separator: ","))], "floating_nodes": []}]}]}"#)
    }
    static func event(_ change: String, _ container: String) -> [UInt8] {
        frame(SwayIPC.windowEvent, #"{"change": "\#(change)", "container": \#(container)}"#)
    }

    @Test func theOpeningSubscribesToWindowEventsThenAsksForTheTree() {
        var decoder = SwayIPCDecoder()
        let frames = decoder.feed(SwayFocusTracker.opening)
        #expect(frames == [SwayIPCFrame(type: 2, payload: Array(#"["window"]"#.utf8)), SwayIPCFrame(type: 4, payload: [])])
        #expect(Array(SwayFocusTracker.opening.prefix(6)) == Array("i3-ipc".utf8))
    }

    /// The same stream read whole, a byte at a time and in odd pieces gives the same frames.
    @Test func framesDoNotDependOnHowTheStreamIsCut() {
        let stream = Self.subscribed + Self.tree(Self.view(7, appID: "alpha", focused: true)) + Self.event("focus", Self.view(8, appID: "beta"))
        var whole = SwayIPCDecoder()
        let expected = whole.feed(stream)
        #expect(expected.map(\.type) == [SwayIPC.subscribe, SwayIPC.getTree, SwayIPC.windowEvent])
        for size in [1, 3, 13, 14, 15, 100] {
            var decoder = SwayIPCDecoder()
            var got: [SwayIPCFrame] = []
            var rest = stream[...]
            while !rest.isEmpty { got += decoder.feed(rest.prefix(size)); rest = rest.dropFirst(size) }
            #expect(got == expected, "pieces of \(size)")
        }
    }

    /// A frame longer than the bound is skipped as it passes and counted; the next one is read.
    @Test func anOversizedFrameIsSkippedNotKept() {
        var decoder = SwayIPCDecoder(maxPayload: 64)
        let big = Self.frame(SwayIPC.getTree, String(repeating: " ", count: 1000) + "{}")
        let next = Self.event("focus", Self.view(8, appID: "beta"))
        var frames: [SwayIPCFrame] = []
        for chunk in stride(from: 0, to: big.count, by: 100) { frames += decoder.feed(big[chunk..<min(chunk + 100, big.count)]) }
        #expect(frames.isEmpty && decoder.oversized == 1)
        var tracker = SwayFocusTracker(maxPayload: 200)
        #expect(tracker.receive(big + next) == [FocusedApp(appID: "beta")])
        #expect(tracker.oversized == 1 && !tracker.broken)
    }

    /// Bytes that are not sway's (no magic where a header begins) end the stream.
    @Test func aStreamWithoutTheMagicIsBroken() {
        var tracker = SwayFocusTracker()
        #expect(tracker.receive(Array("HTTP/1.1 200 OK\r\n\r\n".utf8) + Self.event("focus", Self.view(8, appID: "beta"))).isEmpty)
        #expect(tracker.broken)
        #expect(tracker.receive(Self.event("focus", Self.view(9, appID: "gamma"))).isEmpty, "nothing is read after")
    }

    @Test func theTreeSaysWhatHasTheFocusAtStart() {
        var tracker = SwayFocusTracker()
        let changes = tracker.receive(Self.subscribed + Self.tree(Self.view(7, appID: "alpha"), Self.view(8, appID: "beta", focused: true)))
        #expect(changes == [FocusedApp(appID: "beta")])
        var empty = SwayFocusTracker()
        let none = Self.frame(SwayIPC.getTree, #"{"id": 1, "focused": false, "nodes": [{"id": 3, "type": "workspace", "focused": true, "nodes": []}]}"#)
        #expect(empty.receive(none) == [nil], "an empty workspace has the focus: no application")
    }

    /// Focus moves with `focus` events; a repeat changes nothing; closing the focused window
    /// is no application; closing another one changes nothing.
    @Test func focusAndCloseEvents() {
        var tracker = SwayFocusTracker()
        _ = tracker.receive(Self.subscribed + Self.tree(Self.view(7, appID: "alpha", focused: true), Self.view(8, appID: "beta")))
        #expect(tracker.receive(Self.event("focus", Self.view(8, appID: "beta", focused: true))) == [FocusedApp(appID: "beta")])
        #expect(tracker.receive(Self.event("focus", Self.view(8, appID: "beta", focused: true))).isEmpty)
        #expect(tracker.receive(Self.event("title", Self.view(8, appID: "beta", focused: true))).isEmpty)
        #expect(tracker.receive(Self.event("close", Self.view(7, appID: "alpha"))).isEmpty, "not the focused window")
        #expect(tracker.receive(Self.event("close", Self.view(8, appID: "beta"))) == [nil])
        #expect(tracker.receive(Self.event("focus", Self.view(7, appID: "alpha", focused: true))) == [FocusedApp(appID: "alpha")])
    }

    /// An Xwayland window has no app_id: its WM_CLASS class and instance are the app.
    @Test func anXwaylandWindowIsItsClass() {
        var tracker = SwayFocusTracker()
        let changes = tracker.receive(Self.event("focus", Self.view(9, appID: nil, focused: true, xClass: "Gimp")))
        #expect(changes == [FocusedApp(instance: "gimp", className: "Gimp")])
    }

    /// JSON that is not sway's (wrong types, truncated, a refused subscription) is counted
    /// and dropped; the events around it still count.
    @Test func malformedPayloadsAreCountedAndDropped() {
        var tracker = SwayFocusTracker()
        let bad = Self.frame(SwayIPC.windowEvent, #"{"change": "focus", "container": {"id": "seven"}}"#)
            + Self.frame(SwayIPC.windowEvent, #"{"change": "focus", "contai"#)
            + Self.frame(SwayIPC.subscribe, #"{"success": false}"#)
            + Self.frame(SwayIPC.getTree, String(repeating: "[", count: 10_000))
        #expect(tracker.receive(bad + Self.event("focus", Self.view(8, appID: "beta"))) == [FocusedApp(appID: "beta")])
        #expect(tracker.malformed == 4 && !tracker.broken)
    }

    /// A tree deeper than a desktop's finds no focused node past the bound (no deep recursion).
    @Test func aDeepTreeIsBounded() {
        var json = #"{"id": 1, "focused": true, "app_id": "deep"}"#
        for i in 0..<(SwayFocusTracker.maxDepth + 5) { json = #"{"id": \#(i + 2), "focused": false, "nodes": [\#(json)]}"# }
        var tracker = SwayFocusTracker()
        #expect(tracker.receive(Self.frame(SwayIPC.getTree, json)) == [nil])
    }

    /// A name longer than any profile's is cut, not kept whole.
    @Test func longNamesAreCut() {
        var tracker = SwayFocusTracker()
        let long = String(repeating: "é", count: 1000)
        let changes = tracker.receive(Self.event("focus", Self.view(8, appID: long)))
        #expect(changes.count == 1 && (changes[0]?.instance.utf8.count ?? 0) <= FocusProfile.maxAppLength + 3)
    }
}
